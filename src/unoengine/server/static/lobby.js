// The pages before a game: home (create, join, my tables), a table's join page, the lobby.
import { h, spaced } from "./dom.js";

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

// The three rule sets in a sentence each, for people choosing one (the rules themselves: docs/RULES.md).
const RULE_SET_WORDS = {
  classic: "Classic UNO: 2–10 players match the top card by colour or number; first to 500 points wins.",
  duo: "UNO Duo: the two-player game — a draft when you draw, Draw Two volleys, and a Reverse that plays all your cards of its colour.",
  flex: "UNO Flex!: every player has a Power Card; while it is green you may play a card's flex side (the band under its face), and a number card marked ⟲ flips its player’s own Power Card (F-16).",
};

export async function api(path, body) {
  const init =
    body === undefined
      ? {}
      : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const res = await fetch(path, init);
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
  const name = h("input", { id: "name", maxlength: 24, value: myName() || "Player", autocomplete: "nickname" });
  const grace = h("input", { id: "grace", type: "number", min: 0, max: 3600, value: 30 });
  const turn = h("input", { id: "turn-seconds", type: "number", min: 0, max: 3600, value: 0 });
  const error = h("p", { class: "error", role: "alert" });

  const rulesInfo = () => info.rules.find((r) => r.name === rulesSel.value);
  function drawSeats() {
    const r = rulesInfo();
    rulesWords.textContent = RULE_SET_WORDS[r.name] || "";
    seatsInput.min = r.seats[0];
    seatsInput.max = r.seats[1];
    const n = Math.max(r.seats[0], Math.min(r.seats[1], Number(seatsInput.value) || r.seats[0]));
    seatsInput.value = n;
    const old = [...seatList.querySelectorAll("select")].map((s) => s.value);
    seatList.replaceChildren(h("div", {}, "Seat 1: you"));
    for (let s = 1; s < n; s++) {
      const sel = h(
        "select",
        { "data-seat": s, "aria-label": `seat ${s + 1}` },
        h("option", { value: "" }, "a friend (open seat)"),
        info.bots.map((b) => h("option", { value: b }, `bot: ${b}`)),
      );
      sel.value = old[s - 1] ?? "heuristic";
      seatList.append(h("div", {}, `Seat ${s + 1}: `, sel));
    }
  }
  // Every option of the rule set, in words with its explanation; a preset sets the form, the form decides.
  const presetSel = h("select", { id: "preset", name: "preset", "aria-label": "preset" });
  const presetWords = h("span", { class: "option-help", id: "preset-words" });
  function drawOptions() {
    const r = rulesInfo();
    presetSel.replaceChildren(...r.presets.map((p) => h("option", { value: p.name }, spaced(p.name))));
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
          spec.choices.map((c) => h("option", { value: c, selected: c === spec.default }, spaced(c))),
        );
      optBox.append(
        h(
          "div",
          { class: "option" },
          h("label", { for: `opt-${spec.name}` }, input, " ", spaced(spec.name)),
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
      codeError.textContent = `A table code has ${CODE_LENGTH} letters and digits (like ABC234); “${text}” does not.`;
      return;
    }
    go(`/t/${text}`);
  }
  const mine = h("ul", { class: "mine", id: "mine" });
  app.replaceChildren(
    h(
      "section",
      { class: "panel" },
      h("h2", {}, "New table"),
      h(
        "form",
        { onsubmit: createTable, id: "create" },
        h("label", {}, "Your name ", name),
        h("label", {}, "Rules ", rulesSel),
        rulesWords,
        h("label", {}, "Seats ", seatsInput),
        seatList,
        h(
          "fieldset",
          {},
          h("legend", {}, "Rules and house rules"),
          h("label", {}, "Preset ", presetSel, presetWords),
          optBox,
        ),
        h("label", {}, "Seconds a dropped player keeps their seat ", grace),
        h("label", {}, "Seconds for each turn (0 = no limit) ", turn),
        h("button", { type: "submit", id: "create-button" }, "Create table"),
        error,
      ),
    ),
    h(
      "section",
      { class: "panel" },
      h("h2", {}, "Join a table"),
      h("form", { onsubmit: openCode, id: "join-code" }, code, h("button", {}, "Open")),
      codeError,
      h("h2", {}, "Your tables"),
      mine,
    ),
  );
  const held = Object.values(seats()).map((s) => s.token);
  if (held.length) {
    try {
      const res = await api("/api/mine", { tokens: held.slice(-100) });
      for (const t of res.tables)
        mine.append(
          h(
            "li",
            {},
            h("a", { href: `/t/${t.code}`, "data-link": true }, `${t.code}`),
            ` ${t.title} — ${t.status}, seat ${t.seat + 1}`,
          ),
        );
    } catch {
      /* the list is a convenience */
    }
  }
  if (!mine.children.length) mine.append(h("li", {}, "none yet"));
}

// A table's page for a visitor without a seat there: take a seat if one is open, else watch.
export async function joinPage(app, code, route) {
  const name = h("input", {
    id: "join-name",
    maxlength: 24,
    value: myName(),
    placeholder: "your name",
    required: true,
  });
  const error = h("p", { class: "error", role: "alert", id: "join-error" });
  let lobby;
  try {
    lobby = await api(`/api/tables/${code}`);
  } catch (e) {
    const text = e.status === 404 ? `There is no table with the code ${code}.` : e.message;
    app.replaceChildren(
      h(
        "section",
        { class: "panel", id: "no-table" },
        h("h2", {}, `Table ${code}`),
        h("p", { class: "error", role: "alert" }, text),
        h(
          "p",
          {},
          "Check the code or the invite link, or ",
          h("a", { href: "/", "data-link": true }, "start a new table"),
          ".",
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
  const watch = h("a", { href: `/t/${code}?watch=1`, "data-link": true, id: "watch" }, "Watch as a spectator");
  app.replaceChildren(
    h(
      "section",
      { class: "panel" },
      h("h2", {}, `${lobby.title} — table ${code}`),
      open
        ? h("p", {}, `${open} open seat${open === 1 ? "" : "s"}.`)
        : h(
            "p",
            { id: "full" },
            lobby.status === "lobby"
              ? "Every seat is taken: you can watch."
              : "The game has started and every seat is taken: you can watch.",
          ),
      rulesPanel({ ...lobby, status: "lobby" }),
      open ? h("form", { onsubmit: join }, name, h("button", { id: "join-button" }, "Take a seat")) : null,
      h(
        "p",
        {},
        open ? watch : h("a", { class: "button", href: watch.href, "data-link": true, id: "watch" }, "Watch the game"),
      ),
      error,
    ),
  );
}

// The table's rules: every option of its rule set, its value and what it means (the lobby's `rules`).
export function rulesPanel(L) {
  const r = L.rules;
  if (!r) return null;
  const shown = (value) => (value === true ? "yes" : value === false ? "no" : spaced(String(value)));
  const changed = r.options.filter((o) => o.value !== o.default).length;
  const ruleSet = L.settings?.rules;
  return h(
    "details",
    { class: "rules-info", id: "table-rules", open: L.status === "lobby" },
    h(
      "summary",
      {},
      `Rules: ${L.title}`,
      r.preset ? ` — preset “${spaced(r.preset)}”` : "",
      changed ? ` (${changed} house rule${changed === 1 ? "" : "s"})` : " (the printed rules)",
    ),
    RULE_SET_WORDS[ruleSet] ? h("p", { class: "rule-set-words" }, RULE_SET_WORDS[ruleSet]) : null,
    h(
      "ul",
      {},
      r.options.map((o) =>
        h(
          "li",
          { "data-option": o.name, class: o.value !== o.default ? "changed" : "" },
          h("b", {}, `${spaced(o.name)}: ${shown(o.value)}`),
          o.words ? h("span", { class: "option-help" }, optionHelp(o)) : null,
        ),
      ),
    ),
  );
}
