// The question that chooses among one card's plays, asked step by step from the actions' fields:
// side, then colour, then target, then UNO — one short question at a time, in a dialog that fits the
// viewport and scrolls. Nothing is focused but the dialog itself: a key never answers for the player.
import { COLORS, cardElement, colourWord, MARKERS } from "./cards.js";
import { h } from "./dom.js";
import { t, tn } from "./i18n.js";

const dialog = document.getElementById("dialog");

export function closeDialog() {
  dialog.hidden = true;
  dialog.replaceChildren();
}

export const dialogOpen = () => !dialog.hidden;

// Show a box in the dialog; `onCancel` (or Escape) closes it.
export function openDialog(title, ...body) {
  const box = h(
    "div",
    { class: "box", role: "dialog", "aria-modal": "true", "aria-label": title, tabindex: "-1" },
    h("h3", {}, title),
    ...body,
    h("button", { class: "cancel", id: "cancel", onclick: closeDialog }, t("Cancel")),
  );
  dialog.replaceChildren(box);
  dialog.hidden = false;
  box.focus();
  return box;
}

// Each step: the field it asks about, the question, each answer's words, and (`first`) the answer
// offered first. A target is named with its hand size (an H-2 swap is chosen by it; the dialog hides
// the table); "Play and call UNO" comes first, as in the terminal.
function steps(names, sides, sizes) {
  return [
    {
      key: "side",
      get: (a) => a.flex,
      question: t("Which side of the card?"),
      answer: (v) => {
        if (v) {
          const other = t("its other side");
          const flexWords = sides?.[1] || other;
          // TRANSLATORS: {words} is what the card's flex side does (the server's words)
          return t("Flex side: {words}", { words: flexWords });
        }
        const printed = t("as printed");
        const normalWords = sides?.[0] || printed;
        return t("Normal side: {words}", { words: normalWords });
      },
      cls: () => "",
    },
    {
      key: "colour",
      get: (a) => a.color,
      question: t("Choose a colour"),
      answer: (v) => `${colourWord(v)} ${MARKERS[v.toUpperCase()]}`,
      cls: (v) => `choice ${COLORS[v.toUpperCase()]}`,
    },
    {
      key: "target",
      get: (a) => a.target,
      question: null,
      answer: (v) =>
        typeof sizes?.[v] === "number"
          ? // TRANSLATORS: a player to choose, {name} (a name or "You"), with the number of cards in their hand
            tn("{name} ({n} card)", "{name} ({n} cards)", sizes[v], { name: names(v) })
          : names(v),
      cls: () => "",
    },
    {
      key: "uno",
      get: (a) => a.uno,
      question: t("Call UNO? You will have one card left."),
      answer: (v) => (v ? t("Play and call UNO") : t("Play without calling UNO")),
      cls: (v) => (v ? "uno" : ""),
      first: true,
    },
  ];
}

// Ask which of `options` (the plays of one card) to make; `play(action)` makes it.
export function askPlay(card, options, { sides, sizes, names, play }) {
  const all = steps(names, sides, sizes);
  const chosen = [];
  function next(remaining) {
    if (remaining.length === 1) {
      play(remaining[0].action);
      return;
    }
    const step = all.find((s) => new Set(remaining.map((a) => JSON.stringify(s.get(a)))).size > 1);
    if (!step) {
      // Plays that differ in nothing the steps know: one button each, in the server's own labels.
      return show(
        t("Choose"),
        remaining.map((a) => ({ text: names.label(a), action: a, cls: "" })),
        (a) => play(a.action),
      );
    }
    const values = [...new Map(remaining.map((a) => [JSON.stringify(step.get(a)), step.get(a)])).values()];
    if ("first" in step) values.sort((a, b) => Number(b === step.first) - Number(a === step.first));
    const question = step.question ?? remaining[0].aim ?? t("Choose a player");
    show(
      question,
      values.map((v) => ({ text: step.answer(v), key: step.key, value: v, cls: step.cls(v) })),
      (v) => {
        chosen.push(step.answer(v));
        next(remaining.filter((a) => JSON.stringify(step.get(a)) === JSON.stringify(v)));
      },
    );
  }
  function show(question, answers, choose) {
    const flexSide = sides?.[1] ? t("Flex side: {words}", { words: sides[1] }) : "";
    openDialog(
      t("Play this card"),
      sides
        ? h(
            "p",
            { class: "card-sides" },
            cardElement(card, { size: "small" }),
            " ",
            sides[0],
            sides[1] ? h("span", { class: "flex-info" }, ` ${flexSide}`) : null,
          )
        : null,
      chosen.length ? h("p", { class: "chosen" }, chosen.join(" · ")) : null,
      h("p", { class: "question", id: "question" }, question),
      h(
        "div",
        { class: "choices" },
        answers.map((a) =>
          h(
            "button",
            {
              class: `choice ${a.cls}`.trim(),
              "data-action": a.action?.action,
              "data-key": a.key,
              "data-value": a.value === undefined ? undefined : String(a.value),
              onclick: () => choose(a.action ?? a.value),
            },
            a.text,
          ),
        ),
      ),
    );
  }
  next(options);
}
