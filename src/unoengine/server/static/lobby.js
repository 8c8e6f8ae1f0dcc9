// The pages before a game: home (create, join, my tables), a table's join page, the lobby.
import { h, parts, spaced } from "./dom.js";
import { t, tn, withLang } from "./i18n.js";

export const SEATS_KEY = "uno.seats";
export const seats = () => JSON.parse(localStorage.getItem(SEATS_KEY) || "{}");
export const keepSeat = (code, seat, token) =>
  localStorage.setItem(SEATS_KEY, JSON.stringify({ ...seats(), [code]: { seat, token } }));
export function forgetSeat(code) {
  const all = seats();
  delete all[code];
  localStorage.setItem(SEATS_KEY, JSON.stringify(all));
}
const myName = () => localStorage.getItem("uno.name") || "";
export const CODE_LENGTH = 6;

// The three rule sets in a sentence each, for people choosing one (the rules themselves: docs/RULES.md):
// the server's `summary` (in the reader's language) when it sends one, else these.
const RULE_SET_WORDS = {
  classic: "Classic UNO: 2–10 players match the top card by colour or number; first to 500 points wins.",
  duo: "UNO Duo: the two-player game — a draft when you draw, Draw Two volleys, and a Reverse that plays all your cards of its colour.",
  flex: "UNO Flex!: every player has a Power Card; while it is green you may play a card's flex side (the band under its face), and a number card marked ⟲ flips its player’s own Power Card (F-16).",
  nomercy:
    "UNO Show 'Em No Mercy: 2–10 players, 168 cards; draw cards stack by value up to Wild Draw Ten, and a player holding 25 cards is out of the round (the Mercy Rule).",
};

export async function api(path, body) {
  const init =
    body === undefined
      ? {}
      : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const res = await fetch(withLang(path), init);
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const error = new Error(data.message || res.statusText);
    error.status = res.status;
    throw error;
  }
  return data;
}

// The help line under an option: its words and its rule.
const optionHelp = (spec) => [spec.words, spec.rule ? ` (${spec.rule})` : ""].join("");
// An option's, a choice's and a preset's name in words: the server's (`title`, `choice_words`), else the name spaced.
const optionTitle = (spec) => spec.title || spaced(spec.name);
const choiceWords = (spec, value) => spec.choice_words?.[value] || spaced(String(value));
const presetTitle = (preset) => preset.title || spaced(preset.name);
// A rule set in a sentence: the server's summary, else the page's own (English) words.
const ruleSetWords = (rules, name) => rules?.summary || RULE_SET_WORDS[name] || "";

// A table's status in words (`lobby`, `playing`, `over`; another: as it is).
function statusWords(status) {
  const words = { lobby: t("lobby"), playing: t("playing"), over: t("over") };
  return words[status] ?? status;
}

export async function home(app, go) {
  const info = await api("/api/rules");
  const rulesSel = h(
    "select",
    { id: "rules", name: "rules" },
    info.rules.map((r) => h("option", { value: r.name }, r.title)),
  );
  const rulesWords = h("p", { class: "option-help", id: "rules-words" });
  const seatsInput = h("input", { id: "seats", type: "number", min: 2, max: 10, value: 4 });
  const seatList = h("div", { class: "seatlist", id: "seatlist" });
  const optBox = h("div", { class: "options", id: "options" });
  // TRANSLATORS: the name a new player is given until they type their own
  const name = h("input", { id: "name", maxlength: 24, value: myName() || t("Player"), autocomplete: "nickname" });
  const grace = h("input", { id: "grace", type: "number", min: 0, max: 3600, value: 30 });
  const turn = h("input", { id: "turn-seconds", type: "number", min: 0, max: 3600, value: 0 });
  const error = h("p", { class: "error", role: "alert" });

  const rulesInfo = () => info.rules.find((r) => r.name === rulesSel.value);
  function drawSeats() {
    const r = rulesInfo();
    rulesWords.textContent = ruleSetWords(r, r.name);
    seatsInput.min = r.seats[0];
    seatsInput.max = r.seats[1];
    const n = Math.max(r.seats[0], Math.min(r.seats[1], Number(seatsInput.value) || r.seats[0]));
    seatsInput.value = n;
    const old = [...seatList.querySelectorAll("select")].map((s) => s.value);
    seatList.replaceChildren(h("div", {}, t("Seat {n}: you", { n: 1 })));
    for (let s = 1; s < n; s++) {
      const sel = h(
        "select",
        { "data-seat": s, "aria-label": t("seat {n}", { n: s + 1 }) },
        h("option", { value: "" }, t("a friend (open seat)")),
        // TRANSLATORS: {name} is a bot's name (a program's name: heuristic, random …)
        info.bots.map((b) => h("option", { value: b }, t("bot: {name}", { name: b }))),
      );
      sel.value = old[s - 1] ?? "heuristic";
      seatList.append(h("div", {}, t("Seat {n}:", { n: s + 1 }), " ", sel));
    }
  }
  // Every option of the rule set, in words with its explanation; a preset sets the form, the form decides.
  const presetSel = h("select", { id: "preset", name: "preset", "aria-label": t("preset") });
  const presetWords = h("span", { class: "option-help", id: "preset-words" });
  const presetLabel = h("label", { id: "preset-label" }, t("Preset"), " ", presetSel, presetWords);
  function drawOptions() {
    const r = rulesInfo();
    presetSel.replaceChildren(...r.presets.map((p) => h("option", { value: p.name }, presetTitle(p))));
    // A rule set none of whose presets sets an option (No Mercy: its house rules are its own rules, N-20)
    // has no preset to choose: the picker would promise house rules that the table does not have.
    presetLabel.hidden = r.presets.every((p) => Object.keys(p.options).length === 0);
    optBox.replaceChildren();
    for (const spec of r.specs) {
      let input;
      const common = { "data-opt": spec.name, id: `opt-${spec.name}`, "aria-describedby": `help-${spec.name}` };
      if (spec.kind === "bool") input = h("input", { ...common, type: "checkbox", checked: spec.default });
      else if (spec.kind === "int")
        input = h("input", {
          ...common,
          type: "number",
          value: spec.default,
          min: spec.low ?? 0,
          max: spec.high ?? undefined,
        });
      else
        input = h(
          "select",
          common,
          spec.choices.map((c) => h("option", { value: c, selected: c === spec.default }, choiceWords(spec, c))),
        );
      optBox.append(
        h(
          "div",
          { class: "option" },
          h("label", { for: `opt-${spec.name}` }, input, " ", optionTitle(spec)),
          h("span", { class: "option-help", id: `help-${spec.name}` }, optionHelp(spec)),
        ),
      );
    }
    applyPreset();
  }
  function applyPreset() {
    const r = rulesInfo();
    const preset = r.presets.find((p) => p.name === presetSel.value) || r.presets[0];
    presetWords.textContent = preset ? preset.words : "";
    for (const spec of r.specs) {
      const el = optBox.querySelector(`[data-opt="${spec.name}"]`);
      const value = preset && spec.name in preset.options ? preset.options[spec.name] : spec.default;
      if (el.type === "checkbox") el.checked = value;
      else el.value = value;
    }
  }
  presetSel.addEventListener("change", applyPreset);
  rulesSel.addEventListener("change", () => {
    drawSeats();
    drawOptions();
  });
  seatsInput.addEventListener("change", drawSeats);
  drawSeats();
  drawOptions();

  async function createTable(ev) {
    ev.preventDefault();
    const options = {};
    for (const spec of rulesInfo().specs) {
      const el = optBox.querySelector(`[data-opt="${spec.name}"]`);
      const value = el.type === "checkbox" ? el.checked : el.type === "number" ? Number(el.value) : el.value;
      if (value !== spec.default) options[spec.name] = value; // the rule set's defaults go without saying
    }
    const bots = [...seatList.querySelectorAll("select")].map((s) => s.value || null);
    try {
      localStorage.setItem("uno.name", name.value);
      const res = await api("/api/tables", {
        rules: rulesSel.value,
        seats: Number(seatsInput.value),
        options,
        bots,
        name: name.value,
        grace: Number(grace.value),
        turn_seconds: Number(turn.value),
      });
      keepSeat(res.code, res.seat, res.token);
      go(`/t/${res.code}`);
    } catch (e) {
      error.textContent = e.message;
    }
  }
  const code = h("input", { id: "code", maxlength: CODE_LENGTH, placeholder: "ABC234", autocapitalize: "characters" });
  const codeError = h("p", { class: "error", role: "alert", id: "code-error" });
  function openCode(ev) {
    ev.preventDefault();
    const text = code.value.trim().toUpperCase();
    if (!/^[A-Z0-9]+$/.test(text) || text.length !== CODE_LENGTH) {
      codeError.textContent = badCode(text);
      return;
    }
    go(`/t/${text}`);
  }
  const mine = h("ul", { class: "mine", id: "mine" });
  app.replaceChildren(
    h(
      "section",
      { class: "panel" },
      h("h2", {}, t("New table")),
      h(
        "form",
        { onsubmit: createTable, id: "create" },
        h("label", {}, t("Your name"), " ", name),
        h("label", {}, t("Rules"), " ", rulesSel),
        rulesWords,
        h("label", {}, t("Seats"), " ", seatsInput),
        seatList,
        h("fieldset", {}, h("legend", {}, t("Rules and house rules")), presetLabel, optBox),
        h("label", {}, t("Seconds a dropped player keeps their seat"), " ", grace),
        h("label", {}, t("Seconds for each turn (0 = no limit)"), " ", turn),
        h("button", { type: "submit", id: "create-button" }, t("Create table")),
        error,
      ),
    ),
    h(
      "section",
      { class: "panel" },
      h("h2", {}, t("Join a table")),
      h("form", { onsubmit: openCode, id: "join-code" }, code, h("button", {}, t("Open"))),
      codeError,
      h("h2", {}, t("Your tables")),
      mine,
    ),
  );
  const held = Object.values(seats()).map((s) => s.token);
  if (held.length) {
    try {
      const res = await api("/api/mine", { tokens: held.slice(-100) });
      for (const table of res.tables) {
        // TRANSLATORS: one of the reader's tables: its rules' title, its status (lobby, playing, over) and their seat
        const words = t("{title} — {status}, seat {n}", {
          title: table.title,
          status: statusWords(table.status),
          n: table.seat + 1,
        });
        mine.append(h("li", {}, h("a", { href: `/t/${table.code}`, "data-link": true }, `${table.code}`), ` ${words}`));
      }
    } catch {
      /* the list is a convenience */
    }
  }
  if (!mine.children.length) mine.append(h("li", {}, t("none yet")));
}

// A table's page for a visitor without a seat there: take a seat if one is open, else watch.
export async function joinPage(app, code, route) {
  const name = h("input", {
    id: "join-name",
    maxlength: 24,
    value: myName(),
    placeholder: t("your name"),
    required: true,
  });
  const error = h("p", { class: "error", role: "alert", id: "join-error" });
  let lobby;
  try {
    lobby = await api(`/api/tables/${code}`);
  } catch (e) {
    const text = e.status === 404 ? t("There is no table with the code {code}.", { code }) : e.message;
    app.replaceChildren(
      h(
        "section",
        { class: "panel", id: "no-table" },
        h("h2", {}, t("Table {code}", { code })),
        h("p", { class: "error", role: "alert" }, text),
        h(
          "p",
          {},
          parts(t("Check the code or the invite link, or {link}."), {
            // TRANSLATORS: a link, inside "Check the code or the invite link, or {link}."
            link: h("a", { href: "/", "data-link": true }, t("start a new table")),
          }),
        ),
      ),
    );
    return;
  }
  async function join(ev) {
    ev.preventDefault();
    try {
      localStorage.setItem("uno.name", name.value);
      const res = await api(`/api/tables/${code}/join`, { name: name.value });
      keepSeat(code, res.seat, res.token);
      route();
    } catch (e) {
      error.textContent = e.message;
    }
  }
  const open =
    (lobby.joinable ?? (lobby.status === "lobby" && lobby.seats.some((s) => s.open)))
      ? lobby.seats.filter((s) => s.open).length
      : 0;
  const watch = h("a", { href: `/t/${code}?watch=1`, "data-link": true, id: "watch" }, t("Watch as a spectator"));
  app.replaceChildren(
    h(
      "section",
      { class: "panel" },
      // TRANSLATORS: {title} is the rules' title (Classic UNO …), {code} the table's code (ABC234)
      h("h2", {}, t("{title} — table {code}", { title: lobby.title, code })),
      open
        ? h("p", {}, tn("{n} open seat.", "{n} open seats.", open))
        : h(
            "p",
            { id: "full" },
            lobby.status === "lobby"
              ? t("Every seat is taken: you can watch.")
              : t("The game has started and every seat is taken: you can watch."),
          ),
      rulesPanel({ ...lobby, status: "lobby" }),
      open ? h("form", { onsubmit: join }, name, h("button", { id: "join-button" }, t("Take a seat"))) : null,
      h(
        "p",
        {},
        open
          ? watch
          : h("a", { class: "button", href: watch.href, "data-link": true, id: "watch" }, t("Watch the game")),
      ),
      error,
    ),
  );
}

// The table's rules: every option of its rule set, its value and what it means (the lobby's `rules`).
export function rulesPanel(L) {
  const r = L.rules;
  if (!r) return null;
  const shown = (o) => (o.value === true ? t("yes") : o.value === false ? t("no") : choiceWords(o, o.value));
  const changed = r.options.filter((o) => o.value !== o.default).length;
  const ruleSet = L.settings?.rules;
  const about = { summary: r.summary || L.summary };
  return h(
    "details",
    { class: "rules-info", id: "table-rules", open: L.status === "lobby" },
    h("summary", {}, rulesTitle(L.title, r.preset ? r.preset_title || spaced(r.preset) : null, changed)),
    ruleSetWords(about, ruleSet) ? h("p", { class: "rule-set-words" }, ruleSetWords(about, ruleSet)) : null,
    h(
      "ul",
      {},
      r.options.map((o) =>
        h(
          "li",
          { "data-option": o.name, class: o.value !== o.default ? "changed" : "" },
          // TRANSLATORS: a house rule and its value at this table ("stacking: yes")
          h("b", {}, t("{option}: {value}", { option: optionTitle(o), value: shown(o) })),
          o.words ? h("span", { class: "option-help" }, optionHelp(o)) : null,
        ),
      ),
    ),
  );
}

// The rules' line: their title, the preset they are (if any) and how many house rules change them.
// TRANSLATORS: {title} is the rules' title (Classic UNO …), {preset} a preset's name
function rulesTitle(title, preset, changed) {
  if (preset && changed)
    return tn(
      "Rules: {title} — preset “{preset}” ({n} house rule)",
      "Rules: {title} — preset “{preset}” ({n} house rules)",
      changed,
      { title, preset },
    );
  if (preset) return t("Rules: {title} — preset “{preset}” (the printed rules)", { title, preset });
  if (changed) return tn("Rules: {title} ({n} house rule)", "Rules: {title} ({n} house rules)", changed, { title });
  return t("Rules: {title} (the printed rules)", { title });
}

// What the page says of a code that is not a table's.
export const badCode = (code) =>
  // TRANSLATORS: {n} is the number of characters of a table code (6); {code} what the reader typed
  t("A table code has {n} letters and digits (like ABC234); “{code}” does not.", { n: CODE_LENGTH, code });
