// The review of a finished game (GET /api/tables/{code}/games/{n}/review, docs/PROTOCOL.md): step
// through its actions with every hand face up and the narrator's lines, the marks beside the
// viewer's own decisions (everyone's on request), the better move, a win-chance graph and each
// player's accuracy. The server built every step (through the core's view function) and analysed
// every decision; this page only shows them, and polls while the analysis runs.
import { cardElement, colourWord } from "./cards.js";
import { h, parts } from "./dom.js";
import { knockedOut, outBadge } from "./game.js";
import { t, tn, withLang } from "./i18n.js";

const SIGNS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const POLL_MS = 1500;
const pct = (x) => `${Math.round(x * 100)}%`;
// A mark's word, capitalised (an inaccuracy, a mistake, a blunder), and as a title.
function markWord(mark) {
  const words = { inaccuracy: t("Inaccuracy"), mistake: t("Mistake"), blunder: t("Blunder") };
  return words[mark] ?? mark;
}
function markTitle(mark) {
  const words = { inaccuracy: t("inaccuracy"), mistake: t("mistake"), blunder: t("blunder") };
  return words[mark] ?? mark;
}

// The review screen of game `number` at table `code`; `me` is the viewer's seat (null: a spectator).
export async function reviewPage(app, code, number, me) {
  app.replaceChildren(h("section", { class: "panel review" }, h("p", {}, t("Loading the review…"))));
  const url = `/api/tables/${code}/games/${number}/review`;
  const answer = await fetch(withLang(url));
  const body = await answer.json().catch(() => ({}));
  if (!answer.ok) {
    app.replaceChildren(
      h(
        "section",
        { class: "panel review", id: "review" },
        h("h2", {}, t("Game {n} at table {code}", { n: number, code })),
        h("p", { class: "error", role: "alert" }, body.message || t("This game cannot be reviewed.")),
        h("p", {}, h("a", { href: `/t/${code}`, "data-link": true }, t("Back to the table"))),
      ),
    );
    return;
  }
  const R = {
    code,
    number,
    me,
    at: 0,
    steps: body.steps,
    names: body.names,
    analysis: body.analysis,
    everyone: me === null || me === undefined,
    graphSeat: me ?? 0,
  };
  window.unoReview = R; // read-only handle for end-to-end tests
  const last = R.steps.length - 1;
  const slider = h("input", {
    type: "range",
    id: "review-slider",
    min: 0,
    max: last,
    value: 0,
    "aria-label": t("step"),
    oninput: () => show(Number(slider.value)),
  });
  const counter = h("span", { id: "review-counter", class: "muted" });
  const stage = h("div", { id: "review-stage" });
  const study = h("div", { id: "review-analysis" });
  const root = h(
    "section",
    { class: "panel review", id: "review" },
    h(
      "div",
      { class: "review-head" },
      h("h2", {}, t("Review: game {n}", { n: number })),
      h("a", { href: `/t/${code}`, "data-link": true, class: "button", id: "review-back" }, t("Back to the table")),
    ),
    h(
      "div",
      { class: "review-controls" },
      h("button", { id: "review-prev", "aria-label": t("previous step"), onclick: () => show(R.at - 1) }, "◀"),
      slider,
      h("button", { id: "review-next", "aria-label": t("next step"), onclick: () => show(R.at + 1) }, "▶"),
    ),
    counter,
    stage,
    study,
  );
  app.replaceChildren(root);

  const name = (seat) =>
    seat === R.me
      ? // TRANSLATORS: the reader's own name, marked as theirs
        t("{name} (you)", { name: R.names[seat] })
      : R.names[seat] || t("Seat {n}", { n: seat + 1 });
  const decisions = () => {
    const byIndex = new Map();
    for (const d of R.analysis?.result?.decisions || []) byIndex.set(d.index, d);
    return byIndex;
  };
  const marked = (d) => d && (R.everyone || d.seat === R.me);

  function show(at) {
    R.at = Math.max(0, Math.min(last, at));
    slider.value = String(R.at);
    counter.textContent =
      R.at === 0
        ? tn("The deal · {n} action", "The deal · {n} actions", last)
        : t("Action {n} of {total}", { n: R.at, total: last });
    stage.replaceChildren(...stepParts(R.steps[R.at]).filter(Boolean)); // (replaceChildren would write null)
    study.replaceChildren(...analysisParts());
  }

  function stepParts(step) {
    const v = step.view;
    const d = step.index === null ? null : decisions().get(step.index);
    const shown = marked(d) ? d : null;
    const headline =
      step.index === null
        ? h("p", { class: "review-action" }, t("The deal"))
        : h(
            "p",
            { class: "review-action", id: "review-action" },
            h("b", {}, name(step.seat)),
            ": ",
            h("code", {}, step.action),
            shown?.mark
              ? h("span", { class: `mark ${shown.mark}`, title: markTitle(shown.mark) }, ` ${SIGNS[shown.mark]}`)
              : null,
          );
    const better =
      shown && shown.best !== shown.action && shown.mark
        ? h(
            "p",
            { class: `review-better ${shown.mark}`, id: "review-better" },
            parts(
              // TRANSLATORS: {mark} is Inaccuracy, Mistake or Blunder; {move} the better move's notation; {best} and {win} percentages
              t("{mark}: better {move} (win chance {best} instead of {win})", {
                mark: markWord(shown.mark),
                best: pct(shown.best_win),
                win: pct(shown.win),
              }),
              { move: h("code", {}, shown.best) },
            ),
          )
        : shown
          ? h("p", { class: "review-better muted" }, t("Win chance after it: {win}", { win: pct(shown.win) }))
          : null;
    const colour = v.color ? t("colour {colour}", { colour: colourWord(v.color) }) : null;
    const direction = v.direction === -1 ? t("counter-clockwise") : t("clockwise");
    return [
      headline,
      better,
      h(
        "div",
        { class: "review-pile" },
        v.top ? cardElement(v.top, { size: "small" }) : null,
        h(
          "span",
          {},
          colour ? ` ${colour}` : "",
          ` · ${direction} · `,
          tn("{n} card to draw", "{n} cards to draw", v.draw_pile),
        ),
      ),
      h(
        "ul",
        { class: "review-lines", id: "review-lines" },
        step.lines.map((line) => h("li", {}, line)),
      ),
      h(
        "div",
        { class: "review-hands", id: "review-hands" },
        step.hands.map((cards, seat) =>
          h(
            "div",
            {
              class: [
                "review-hand",
                v.to_act === seat ? "acting" : "",
                step.seat === seat ? "acted" : "",
                knockedOut(v, seat) ? "out" : "",
              ]
                .filter(Boolean)
                .join(" "),
              "data-seat": seat,
            },
            h(
              "div",
              {},
              h("b", {}, name(seat)),
              knockedOut(v, seat) ? [" ", outBadge()] : null,
              " · ",
              tn("{n} card", "{n} cards", cards.length),
              v.scores.some(Boolean) ? " · " : "",
              v.scores.some(Boolean) ? t("{n} pts", { n: v.scores[seat] }) : "",
            ),
            h(
              "div",
              { class: "review-cards" },
              cards.map((c) => cardElement(c, { size: "small" })),
            ),
          ),
        ),
      ),
    ];
  }

  function analysisParts() {
    const a = R.analysis;
    if (a.status === "off")
      return [h("p", { class: "muted", id: "review-status" }, t("This server does not analyse games."))];
    if (a.status === "failed") return [h("p", { class: "error", id: "review-status" }, t("The analysis failed."))];
    if (a.status !== "done") {
      const words =
        a.status === "queued"
          ? t("Analysis queued: it starts when the games asked before it are done…")
          : a.total
            ? t("Analysing the decisions: {done} of {total}", { done: a.done, total: a.total })
            : t("Analysing the decisions…");
      return [
        h(
          "p",
          { id: "review-status" },
          words,
          " ",
          a.total ? h("progress", { max: a.total, value: a.done }) : h("progress", {}),
        ),
      ];
    }
    const result = a.result;
    const seats = R.steps[0].hands.map((_, seat) => seat);
    const picker = h(
      "select",
      {
        id: "review-seat",
        "aria-label": t("whose win chance"),
        onchange: (e) => {
          R.graphSeat = Number(e.target.value);
          show(R.at);
        },
      },
      seats.map((seat) => h("option", { value: seat, selected: seat === R.graphSeat }, name(seat))),
    );
    const toggle = h(
      "label",
      { class: "review-toggle" },
      h("input", {
        type: "checkbox",
        id: "review-everyone",
        checked: R.everyone,
        onchange: (e) => {
          R.everyone = e.target.checked;
          show(R.at);
        },
      }),
      " ",
      t("Show everyone's marks"),
    );
    return [
      h("h3", {}, t("Win chance")),
      h("div", { class: "review-graph-head" }, picker, toggle),
      graph(result.decisions.filter((d) => d.seat === R.graphSeat)),
      marksList(result.decisions),
      accuracy(result.players),
    ];
  }

  // The seat's chance of winning the round after each of its analysed decisions, across the game;
  // a tap jumps to the nearest step.
  function graph(points) {
    const W = 300;
    const H = 100;
    const x = (step) => (last ? (step / last) * W : 0);
    const y = (win) => H - win * H;
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("viewBox", `-4 -4 ${W + 8} ${H + 8}`);
    svg.setAttribute("class", "review-graph");
    svg.setAttribute("id", "review-graph");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", t("win chance of {name} across the game", { name: name(R.graphSeat) }));
    const add = (tag, attrs) => {
      const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
      for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
      svg.append(el);
      return el;
    };
    add("rect", { x: 0, y: 0, width: W, height: H, class: "frame" });
    add("line", { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: "half" });
    add("line", { x1: x(R.at), y1: 0, x2: x(R.at), y2: H, class: "cursor" });
    add("polyline", { points: points.map((d) => `${x(d.index + 1)},${y(d.win)}`).join(" "), class: "win" });
    for (const d of points)
      if (d.mark && marked(d)) add("circle", { cx: x(d.index + 1), cy: y(d.win), r: 3.5, class: `dot ${d.mark}` });
    svg.addEventListener("click", (e) => {
      const box = svg.getBoundingClientRect();
      const step = Math.round((((e.clientX - box.left) / box.width) * (W + 8) - 4) / (W / Math.max(1, last)));
      show(step);
    });
    return svg;
  }

  // The marked decisions shown (the viewer's, or everyone's), each a button to its step.
  function marksList(all) {
    const shown = all.filter((d) => d.mark && marked(d));
    return h(
      "div",
      { id: "review-marks" },
      h("h3", {}, R.everyone ? t("Everyone's marks") : t("Your marks")),
      shown.length
        ? h(
            "ul",
            { class: "review-marks" },
            shown.map((d) =>
              h(
                "li",
                {},
                h(
                  "button",
                  { class: `mark-jump ${d.index + 1 === R.at ? "here" : ""}`, onclick: () => show(d.index + 1) },
                  // TRANSLATORS: a marked decision: its number, the player's name, the move (notation) and its mark (?!, ?, ??), the better move
                  t("{n}. {name}: {move} {sign} — better {best}", {
                    n: d.index + 1,
                    name: R.names[d.seat],
                    move: d.action,
                    sign: SIGNS[d.mark],
                    best: d.best,
                  }),
                ),
              ),
            ),
          )
        : h("p", { class: "muted" }, t("No inaccuracies, mistakes or blunders.")),
    );
  }

  function accuracy(players) {
    return h(
      "table",
      { class: "review-accuracy", id: "review-accuracy" },
      h(
        "tr",
        {},
        h("th", {}, t("Player")),
        h("th", {}, t("Accuracy")),
        h("th", { title: t("inaccuracies") }, "?!"),
        h("th", { title: t("mistakes") }, "?"),
        h("th", { title: t("blunders") }, "??"),
      ),
      players.map((p) =>
        h(
          "tr",
          { "data-seat": p.seat },
          h("td", {}, name(p.seat)),
          h("td", {}, p.accuracy === null || p.accuracy === undefined ? "—" : `${Math.round(p.accuracy)}%`),
          h("td", {}, String(p.inaccuracies)),
          h("td", {}, String(p.mistakes)),
          h("td", {}, String(p.blunders)),
        ),
      ),
    );
  }

  // ← and → step (not while a form control has the keys: the slider moves by itself).
  function onKey(e) {
    if (!root.isConnected) return document.removeEventListener("keydown", onKey);
    if (["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName)) return;
    if (e.key === "ArrowLeft") show(R.at - 1);
    else if (e.key === "ArrowRight") show(R.at + 1);
    else if (e.key === "Home") show(0);
    else if (e.key === "End") show(last);
    else return;
    e.preventDefault();
  }
  document.addEventListener("keydown", onKey);

  // While the analysis runs: its progress every POLL_MS (without the steps), until it is done.
  async function poll() {
    if (!root.isConnected || !["queued", "running"].includes(R.analysis.status)) return;
    try {
      const next = await fetch(withLang(`${url}?steps=0`));
      if (next.ok) {
        R.analysis = (await next.json()).analysis;
        study.replaceChildren(...analysisParts());
        if (R.analysis.status === "done") show(R.at);
      }
    } catch {
      // the server is away for a moment: ask again
    }
    setTimeout(poll, POLL_MS);
  }
  show(0);
  setTimeout(poll, POLL_MS);
}
