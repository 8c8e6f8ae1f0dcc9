// The browser client of `uno serve` (docs/PROTOCOL.md). It never decides a rule: what may be played
// is the view's `actions` list (each legal action with its fields and words); every message it shows
// comes from the server's views and events. It knows no decision by name and reads no action notation:
// a new decision or house rule shows here with no change.
import { cardElement, backElement, parseCard, COLORS, MARKERS } from "./cards.js";

const app = document.getElementById("app");
const dialog = document.getElementById("dialog");
const connEl = document.getElementById("conn");
const whereEl = document.getElementById("where");

const h = (tag, attrs = {}, ...children) => {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") el.className = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (v === true) el.setAttribute(k, "");
    else if (v !== false && v !== null && v !== undefined) el.setAttribute(k, v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) el.append(c instanceof Node ? c : String(c));
  return el;
};

// -- seats kept in the browser ------------------------------------------------------------
const SEATS_KEY = "uno.seats";
const seats = () => JSON.parse(localStorage.getItem(SEATS_KEY) || "{}");
const keepSeat = (code, seat, token) => localStorage.setItem(SEATS_KEY, JSON.stringify({ ...seats(), [code]: { seat, token } }));
const myName = () => localStorage.getItem("uno.name") || "";

async function api(path, body) {
  const res = await fetch(path, body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.message || res.statusText);
  return data;
}

// -- home: create, join, my tables ------------------------------------------------------------
async function home() {
  whereEl.textContent = "";
  const info = await api("/api/rules");
  const rulesSel = h("select", { id: "rules", name: "rules" }, info.rules.map((r) => h("option", { value: r.name }, r.title)));
  const seatsInput = h("input", { id: "seats", type: "number", min: 2, max: 10, value: 4 });
  const seatList = h("div", { class: "seatlist", id: "seatlist" });
  const optBox = h("div", { class: "options", id: "options" });
  const name = h("input", { id: "name", maxlength: 24, value: myName() || "Player", autocomplete: "nickname" });
  const grace = h("input", { id: "grace", type: "number", min: 0, max: 3600, value: 30 });
  const turn = h("input", { id: "turn-seconds", type: "number", min: 0, max: 3600, value: 0 });
  const error = h("p", { class: "error", role: "alert" });

  function rulesInfo() { return info.rules.find((r) => r.name === rulesSel.value); }
  function drawSeats() {
    const r = rulesInfo();
    seatsInput.min = r.seats[0]; seatsInput.max = r.seats[1];
    let n = Math.max(r.seats[0], Math.min(r.seats[1], Number(seatsInput.value) || r.seats[0]));
    seatsInput.value = n;
    const old = [...seatList.querySelectorAll("select")].map((s) => s.value);
    seatList.replaceChildren(h("div", {}, "Seat 0: you"));
    for (let s = 1; s < n; s++) {
      const sel = h("select", { "data-seat": s, "aria-label": `seat ${s}` }, h("option", { value: "" }, "a friend (open seat)"), info.bots.map((b) => h("option", { value: b }, `bot: ${b}`)));
      sel.value = old[s - 1] ?? "heuristic";
      seatList.append(h("div", {}, `Seat ${s}: `, sel));
    }
  }
  // Every option of the rule set, with its rule and words; a preset sets the form, the form decides.
  const presetSel = h("select", { id: "preset", name: "preset", "aria-label": "preset" });
  const presetWords = h("span", { class: "option-help", id: "preset-words" });
  function drawOptions() {
    const r = rulesInfo();
    presetSel.replaceChildren(...r.presets.map((p) => h("option", { value: p.name }, p.name.replaceAll("_", " "))));
    optBox.replaceChildren();
    for (const spec of r.specs) {
      let input;
      const common = { "data-opt": spec.name, id: `opt-${spec.name}`, "aria-describedby": `help-${spec.name}` };
      if (spec.kind === "bool") input = h("input", { ...common, type: "checkbox", checked: spec.default });
      else if (spec.kind === "int") input = h("input", { ...common, type: "number", value: spec.default, min: spec.low ?? 0, max: spec.high ?? undefined });
      else input = h("select", common, spec.choices.map((c) => h("option", { value: c, selected: c === spec.default }, c.replaceAll("_", " "))));
      optBox.append(h("div", { class: "option" },
        h("label", { for: `opt-${spec.name}` }, input, " ", spec.name.replaceAll("_", " "), spec.rule ? h("small", {}, ` (${spec.rule})`) : null),
        h("span", { class: "option-help", id: `help-${spec.name}` }, spec.words)));
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
      if (el.type === "checkbox") el.checked = value; else el.value = value;
    }
  }
  presetSel.addEventListener("change", applyPreset);
  rulesSel.addEventListener("change", () => { drawSeats(); drawOptions(); });
  seatsInput.addEventListener("change", drawSeats);
  drawSeats(); drawOptions();

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
      const res = await api("/api/tables", { rules: rulesSel.value, seats: Number(seatsInput.value), options, bots, name: name.value, grace: Number(grace.value), turn_seconds: Number(turn.value) });
      keepSeat(res.code, res.seat, res.token);
      go(`/t/${res.code}`);
    } catch (e) { error.textContent = e.message; }
  }
  const code = h("input", { id: "code", maxlength: 6, placeholder: "ABC234", autocapitalize: "characters" });
  const mine = h("ul", { class: "mine", id: "mine" });
  app.replaceChildren(
    h("section", { class: "panel" },
      h("h2", {}, "New table"),
      h("form", { onsubmit: createTable, id: "create" },
        h("label", {}, "Your name ", name),
        h("label", {}, "Rules ", rulesSel), h("label", {}, "Seats ", seatsInput),
        seatList, h("fieldset", {}, h("legend", {}, "Rules and house rules"),
          h("label", {}, "Preset ", presetSel, presetWords), optBox),
        h("label", {}, "Grace after a drop (s) ", grace), h("label", {}, "Turn timer (s, 0 = none) ", turn),
        h("button", { type: "submit", id: "create-button" }, "Create table"), error)),
    h("section", { class: "panel" },
      h("h2", {}, "Join a table"),
      h("form", { onsubmit: (ev) => { ev.preventDefault(); go(`/t/${code.value.trim().toUpperCase()}`); } }, code, h("button", {}, "Open")),
      h("h2", {}, "Your tables"), mine));
  const held = Object.values(seats()).map((s) => s.token);
  if (held.length) {
    try {
      const res = await api("/api/mine", { tokens: held.slice(-100) });
      for (const t of res.tables) mine.append(h("li", {}, h("a", { href: `/t/${t.code}`, onclick: link }, `${t.code}`), ` ${t.title} — ${t.status}, seat ${t.seat}`));
    } catch (e) { /* the list is a convenience */ }
  }
  if (!mine.children.length) mine.append(h("li", {}, "none yet"));
}

function link(ev) { ev.preventDefault(); go(ev.currentTarget.getAttribute("href")); }
function go(path) { history.pushState({}, "", path); route(); }
window.addEventListener("popstate", route);

// -- a table ---------------------------------------------------------------------------------
let T = null; // the open table's session

function route() {
  if (T) { T.closed = true; T.ws?.close(); T = null; }
  dialog.hidden = true;
  const m = /^\/t\/([A-Za-z0-9]{6})$/.exec(location.pathname);
  if (!m) return home().catch((e) => app.replaceChildren(h("p", { class: "error" }, e.message)));
  const code = m[1].toUpperCase();
  const watch = new URLSearchParams(location.search).has("watch");
  const held = seats()[code];
  if (!held && !watch) return joinPage(code);
  T = { code, token: watch ? null : held.token, seat: watch ? null : held.seat, v: -1, game: 0, view: null, lobby: null, log: [], chat: [], backoff: 500, closed: false, selected: -1, banner: "" };
  whereEl.textContent = `table ${code}`;
  window.unoSession = T; // read-only handle for end-to-end tests and the curious
  connect();
}

async function joinPage(code) {
  whereEl.textContent = `table ${code}`;
  const name = h("input", { id: "join-name", maxlength: 24, value: myName(), placeholder: "your name", required: true });
  const error = h("p", { class: "error", role: "alert" });
  let lobby = null;
  try { lobby = await api(`/api/tables/${code}`); } catch (e) { error.textContent = e.message; }
  async function join(ev) {
    ev.preventDefault();
    try {
      localStorage.setItem("uno.name", name.value);
      const res = await api(`/api/tables/${code}/join`, { name: name.value });
      keepSeat(code, res.seat, res.token);
      route();
    } catch (e) { error.textContent = e.message; }
  }
  app.replaceChildren(h("section", { class: "panel" },
    h("h2", {}, lobby ? `${lobby.title} — table ${code}` : `Table ${code}`),
    lobby ? h("p", {}, `${lobby.seats.filter((s) => s.open).length} open seat(s); ${lobby.status}`) : null,
    lobby ? rulesPanel({ ...lobby, status: "lobby" }) : null,
    h("form", { onsubmit: join }, name, h("button", { id: "join-button" }, "Take a seat")),
    h("p", {}, h("a", { href: `/t/${code}?watch=1`, onclick: link }, "Watch as a spectator")), error));
}

function connect() {
  const t = T;
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  t.ws = ws;
  connEl.textContent = "connecting…"; connEl.className = "conn wait";
  ws.onopen = () => {
    const hello = { type: "hello", table: t.code };
    if (t.token) hello.token = t.token;
    if (t.v >= 0) { hello.since = t.v; hello.game = t.game; }
    ws.send(JSON.stringify(hello));
  };
  ws.onmessage = (ev) => { if (T === t) receive(JSON.parse(ev.data)); };
  ws.onclose = () => {
    if (t.closed || T !== t) return;
    connEl.textContent = "reconnecting…"; connEl.className = "conn bad";
    setTimeout(() => { if (T === t && !t.closed) connect(); }, t.backoff);
    t.backoff = Math.min(10000, t.backoff * 2);
  };
}

function send(message) {
  if (T?.ws?.readyState === WebSocket.OPEN) T.ws.send(JSON.stringify(message));
}

function act(action) {
  send({ type: "act", seat: T.seat, token: T.token, game: T.game, v: T.v, action });
  closeDialog();
}

const nameOf = (seat) => {
  if (seat === null || seat === undefined) return "nobody";
  if (seat === T.seat) return "you";
  const s = T.lobby?.seats[seat];
  return s?.name || `Seat ${seat}`;
};
const Name = (seat) => { const n = nameOf(seat); return n.charAt(0).toUpperCase() + n.slice(1); };

// "seat 2" in the view's words, as the table names that seat.
const nameSeats = (text) => text.replace(/\bseat (\d+)/g, (_, n) => nameOf(Number(n)));

function describe(ev, step) {
  switch (ev.type) {
    case "action_taken":
      if (ev.seat !== step.seat || ev.action !== step.action || !step.words) return `${Name(ev.seat)}: ${ev.action}`;
      if (step.words === "drew" || step.words.startsWith("caught")) return null; // cards_drawn and caught say it
      return `${Name(ev.seat)} ${nameSeats(step.words)}`;
    case "cards_drawn":
      return ev.cards ? `${Name(ev.seat)} drew ${ev.cards.join(" ")}` : `${Name(ev.seat)} drew ${ev.count}`;
    case "reshuffled": return ev.turned_over ? "The discard pile was turned over" : "The discard pile was shuffled into the draw pile";
    case "hand_shown": return ev.cards ? `${Name(ev.seat)} showed ${ev.to === T.seat ? "you" : Name(ev.to)}: ${ev.cards.join(" ")}` : `${Name(ev.seat)} showed their hand to ${nameOf(ev.to)}`;
    case "challenge_resolved": return `${Name(ev.challenger)}'s challenge ${ev.success ? "succeeded" : "failed"}`;
    case "power_flipped": return null;
    case "caught": return `${Name(ev.catcher)} caught ${nameOf(ev.seat)} without UNO!`;
    case "round_ended": return ev.winner === null ? `Round ${ev.round} ended blocked` : `${Name(ev.winner)} won round ${ev.round}`;
    case "game_ended": return ev.winner === null ? "The game ended" : `${Name(ev.winner)} won the game!`;
    case "round_started": return `Round ${ev.round} begins`;
    default: return null;
  }
}

function receive(msg) {
  const t = T;
  switch (msg.type) {
    case "welcome":
      t.backoff = 500;
      connEl.textContent = t.seat === null ? "watching" : "connected"; connEl.className = "conn ok";
      t.lobby = msg.table; t.host = msg.host; t.chat = msg.chat || [];
      if (msg.seat !== null) t.seat = msg.seat;
      break;
    case "lobby": t.lobby = msg.table; break;
    case "sync":
      if (msg.game !== t.game) t.log = [];
      t.game = msg.game; t.v = msg.v; t.view = msg.view; break;
    case "steps":
      t.game = msg.game;
      for (const s of msg.steps) logStep(s);
      t.v = msg.v; t.view = msg.view; break;
    case "step":
      t.game = msg.game; t.v = msg.v; t.view = msg.view; logStep(msg); break;
    case "chat": t.chat.push(msg); if (t.chat.length > 50) t.chat.shift(); break;
    case "error":
      t.banner = msg.message;
      if (msg.code === "auth" && t.token) { /* a stale token: forget it */ const all = seats(); delete all[t.code]; localStorage.setItem(SEATS_KEY, JSON.stringify(all)); }
      break;
    default: return;
  }
  render();
}

function logStep(step) {
  for (const ev of step.events) {
    const line = describe(ev, step);
    if (line) T.log.push(line);
    if (ev.type === "round_ended") T.summary = ev;
  }
  if (T.log.length > 200) T.log.splice(0, T.log.length - 200);
}

// -- what the view offers (docs/PROTOCOL.md, "What a view offers") -------------------------------
const offered = (v) => v.actions || [];
const colorName = (letter) => COLORS[letter.toUpperCase()];
const colorClass = (a) => (a.color ? `choice ${colorName(a.color)}` : "");

// A button's text: the action's label, its colour's markers (F-5), the table's names for seats.
function label(a) {
  const text = nameSeats(a.label);
  return a.color ? `${text} ${MARKERS[a.color.toUpperCase()]}` : text;
}

function actionButton(a, cls = "") {
  return h("button", { "data-action": a.action, class: `${cls} ${colorClass(a)}`.trim(), title: nameSeats(a.words), onclick: () => act(a.action) }, label(a));
}

function closeDialog() { dialog.hidden = true; dialog.replaceChildren(); }

// Play a card of the hand: its one play at once, or a question with one answer per play.
function pick(card) {
  const options = offered(T.view).filter((a) => a.type === "play" && a.card === card);
  if (options.length === 0) { T.banner = `${card} cannot be played now`; render(); return; }
  if (options.length === 1) { act(options[0].action); return; }
  const sides = (T.view.sides || {})[card];
  dialog.replaceChildren(h("div", { class: "box", role: "dialog", "aria-label": `Play ${card}` },
    h("h3", {}, `Play ${card}`), sides ? h("p", {}, sides[0], sides[1] ? h("div", { class: "flex-info" }, `Flex side: ${sides[1]}`) : null) : null,
    options[0].aim ? h("p", { class: "aim" }, options[0].aim) : null,
    h("div", { class: "choices" }, options.map((a) => actionButton(a, "choice"))),
    h("button", { class: "cancel", onclick: closeDialog }, "Cancel")));
  dialog.hidden = false;
  dialog.querySelector("button")?.focus();
}

function render() {
  const t = T;
  if (!t || !t.lobby) return;
  const L = t.lobby;
  if (!t.board) {
    t.board = h("div", { class: "board" });
    t.side = sidePanel();
    app.replaceChildren(t.board, t.side);
  }
  const parts = [];
  if (t.banner) parts.push(h("p", { class: "banner", role: "alert", onclick: () => { t.banner = ""; render(); } }, t.banner, " ✕"));
  if (L.status === "lobby" || !t.view) parts.push(lobbyPanel(L));
  else parts.push(gamePanel(L, t.view));
  t.board.replaceChildren(...parts);
  t.side.querySelector("#log").replaceChildren(...t.log.slice(-40).map((l) => h("li", {}, l)));
  t.side.querySelector("#chat").replaceChildren(...t.chat.map((c) => h("li", {}, h("b", {}, `${c.name}: `), c.text)));
  const input = t.side.querySelector("#chat-input");
  input.disabled = t.seat === null;
  input.placeholder = t.seat === null ? "spectators cannot chat" : "say something";
}

function lobbyPanel(L) {
  const invite = `${location.origin}/t/${L.code}`;
  const open = L.seats.filter((s) => s.open).length;
  return h("section", { class: "panel lobby" },
    h("h2", {}, `${L.title} — table ${L.code}`),
    h("p", {}, "Invite link: ", h("input", { readonly: true, value: invite, id: "invite", onclick: (e) => e.target.select() })),
    h("p", {}, "Spectator link: ", h("a", { href: `/t/${L.code}?watch=1` }, `${invite}?watch=1`)),
    rulesPanel(L),
    h("ol", { start: 0, class: "seats" }, L.seats.map((s) => h("li", {}, s.open ? h("em", {}, "open") : `${s.name}${s.bot ? ` (bot: ${s.bot})` : ""}${s.seat === T.seat ? " — you" : ""}`))),
    T.host ? h("div", {},
      h("button", { id: "start", disabled: open > 0, onclick: () => send({ type: "start", token: T.token }) }, "Start"),
      open ? h("button", { id: "start-bots", onclick: () => send({ type: "start", token: T.token, fill: true }) }, `Start, bots in the ${open} open seat(s)`) : null)
      : h("p", {}, "Waiting for the host to start…"));
}

function gamePanel(L, v) {
  const me = T.seat;
  const actions = offered(v);
  const playable = new Set(actions.filter((a) => a.type === "play").map((a) => a.card));
  const over = v.outcome !== null;
  const others = [];
  for (let i = 1; i <= v.seats; i++) {
    const s = me === null ? i - 1 : (me + i) % v.seats;
    if (s === me) continue;
    const info = L.seats[s] || {};
    const aimed = actions.filter((a) => a.group === "react" && a.seat === s);
    others.push(h("div", { class: `opponent ${v.to_act === s ? "acting" : ""}`, "data-seat": s },
      h("div", { class: "who" }, info.name || `Seat ${s}`, info.bot ? " (bot)" : "", info.away ? " (a bot plays for them)" : "", info.connected === false ? " ⚠ offline" : ""),
      h("div", { class: "count" }, backElement(v.hand_sizes[s]), ` ${v.hand_sizes[s]} card${v.hand_sizes[s] === 1 ? "" : "s"}`),
      h("div", {}, `score ${v.scores[s]}`, v.power.length ? h("span", { class: `power ${v.power[s]}` }, ` Power: ${v.power[s]}`) : null),
      v.unsafe === s ? h("div", { class: "unsafe" }, "one card, no UNO!") : null,
      aimed.map((a) => h("button", { class: `catch ${a.type}`, "data-catch": s, "data-action": a.action, title: nameSeats(a.words), onclick: () => act(a.action) }, `${label(a)}!`))));
  }
  const color = v.color ? v.color.toUpperCase() : null;
  const words = v.words || { title: v.pending, prompt: "" };
  // What the viewer may see of the decision that is a card (a drafted card …), by the detail's name.
  const shownCards = Object.entries(v.details || {}).filter(([, value]) => typeof value === "string" && (parseCard(value).wild || parseCard(value).color));
  const table = h("div", { class: "pile" },
    h("div", { class: "top" }, v.top ? cardElement(v.top) : h("span", { class: "card back small" }, "—")),
    h("div", { class: "state" },
      h("div", {}, color ? h("span", { class: `swatch ${COLORS[color]}` }, `${COLORS[color]} ${MARKERS[color]}`) : ""),
      h("div", {}, `Draw pile ${v.draw_pile}`, ` · ${v.direction === 1 ? "↻ clockwise" : "↺ counter-clockwise"} · round ${v.round}`),
      h("div", { class: "whose", id: "whose" }, over ? "Game over" : v.to_act === me ? `Your decision: ${words.title}` : `${Name(v.to_act)} to act: ${words.title}`),
      over ? null : h("div", { class: "prompt", id: "prompt" }, nameSeats(words.prompt))));
  const hand = h("div", { class: "hand", id: "hand", role: "list" }, v.hand.map((c, i) => {
    const el = cardElement(c, { legal: playable.has(c) });
    el.setAttribute("role", "listitem");
    el.tabIndex = 0;
    if (i === T.selected) el.classList.add("selected");
    if (c === v.drawn_card) el.classList.add("just-drawn");
    const sides = (v.sides || {})[c];
    if (sides) el.title = sides[1] ? `${sides[0]} — flex side: ${sides[1]}` : sides[0];
    el.addEventListener("click", () => { T.selected = i; pick(c); });
    el.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); pick(c); } });
    return el;
  }));
  const buttons = actions.filter((a) => a.group === "decision" || a.group === "choice" || (a.group === "react" && a.seat === null && a.type !== "play"));
  const bar = h("div", { class: "actions" }, buttons.map((a) => actionButton(a, a.type === "uno" ? "uno" : "")));
  // Out of turn (C-18's window, a jump-in): a visible window with its buttons and keys.
  const jumps = actions.filter((a) => a.group === "react" && a.type === "play");
  const react = jumps.length ? h("div", { class: "react", id: "react", role: "alert" },
    h("strong", {}, "Out of turn! "), "press j, or: ", jumps.map((a) => actionButton(a, "jump"))) : null;
  const shown = shownCards.length ? h("div", { class: "shown-cards" }, shownCards.map(([key, card]) => h("span", {}, `${key.replaceAll("_", " ")}: `, cardElement(card)))) : null;
  const chosen = v.hand[T.selected];
  const chosenSides = chosen ? (v.sides || {})[chosen] : null;
  const cardInfo = chosenSides ? h("div", { class: "card-info", id: "card-info" }, chosenSides[0], chosenSides[1] ? h("div", { class: "flex-info" }, `Flex side: ${chosenSides[1]}`) : null) : null;
  const mine = me === null ? h("p", {}, "You are watching: spectators see no hand.")
    : h("div", { class: "me" }, h("div", { class: "who" }, `You — score ${v.scores[me]}`, v.power.length ? h("span", { class: `power ${v.power[me]}` }, ` Power: ${v.power[me]}`) : null, v.unsafe === me ? h("strong", { class: "unsafe" }, " Call UNO!") : null), shown, react, hand, cardInfo, bar);
  const game = L.games[L.games.length - 1];
  const fair = game ? h("p", { class: "fair" }, "Seed commitment SHA-256: ", h("code", { id: "commitment" }, game.commitment)) : null;
  return h("section", { class: "panel game" },
    h("div", { class: "opponents" }, others), table, mine,
    T.summary ? summaryPanel(T.summary) : null,
    over ? finalPanel(L, v, game) : null, rulesPanel(L), fair);
}

// The table's rules: every option of its rule set, its value, its rule and its words (the lobby's `rules`).
function rulesPanel(L) {
  const r = L.rules;
  if (!r) return null;
  const shown = (value) => (value === true ? "yes" : value === false ? "no" : String(value));
  const changed = r.options.filter((o) => o.value !== o.default).length;
  return h("details", { class: "rules-info", id: "table-rules", open: L.status === "lobby" },
    h("summary", {}, `Rules: ${L.title}`, r.preset ? ` — preset “${r.preset}”` : "", changed ? ` (${changed} house rule(s))` : " (the printed rules)"),
    h("ul", {}, r.options.map((o) => h("li", { "data-option": o.name, class: o.value !== o.default ? "changed" : "" },
      h("b", {}, `${o.name.replaceAll("_", " ")}: ${shown(o.value)}`), o.rule ? ` (${o.rule})` : "", o.words ? ` — ${o.words}` : ""))));
}

function summaryPanel(ev) {
  return h("div", { class: "summary", id: "summary" },
    h("h3", {}, ev.winner === null ? `Round ${ev.round}: blocked` : `Round ${ev.round}: ${Name(ev.winner)} won`),
    h("table", {}, h("tr", {}, h("th", {}, "seat"), h("th", {}, "cards left"), h("th", {}, "points")),
      ev.hands.map((hand, s) => h("tr", {}, h("td", {}, Name(s)), h("td", { class: "cards" }, (hand || []).map((c, i) => h("span", { class: "scored" }, cardElement(c, { size: "small" }), h("small", {}, String(((ev.points || [])[s] || [])[i] ?? ""))))), h("td", {}, ev.deltas[s] > 0 ? `+${ev.deltas[s]}` : String(ev.deltas[s]))))),
    h("button", { onclick: () => { T.summary = null; render(); } }, "OK"));
}

function finalPanel(L, v, game) {
  const winner = v.outcome.winner;
  const check = h("span", { id: "check" });
  if (game?.seed !== undefined && crypto.subtle) {
    crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${game.salt}:${game.seed}`)).then((d) => {
      const hex = [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join("");
      check.textContent = hex === game.commitment ? " ✓ matches the commitment" : " ✗ does NOT match the commitment";
    });
  }
  return h("div", { class: "final", id: "final" },
    h("h2", {}, winner === null ? "The game is over" : winner === T.seat ? "You won!" : `${Name(winner)} won`),
    h("table", {}, v.scores.map((s, i) => h("tr", {}, h("td", {}, Name(i)), h("td", {}, String(s))))),
    game?.seed !== undefined ? h("p", {}, `Seed ${game.seed}, salt ${game.salt}`, check, " · ", h("a", { href: game.record, download: "", id: "record" }, "download the record"), " (check it with uno replay)") : null,
    T.host ? h("button", { id: "again", onclick: () => { T.summary = null; send({ type: "again", token: T.token }); } }, "Play again") : null);
}

function sidePanel() {
  const input = h("input", { id: "chat-input", maxlength: 300 });
  return h("aside", { class: "panel side" },
    h("h3", {}, "Log"), h("ul", { class: "log", id: "log" }),
    h("h3", {}, "Chat"), h("ul", { class: "chat", id: "chat" }),
    h("form", { onsubmit: (e) => { e.preventDefault(); if (input.value.trim()) send({ type: "chat", token: T.token, text: input.value }); input.value = ""; } }, input));
}

document.addEventListener("keydown", (e) => {
  if (!T?.view || e.target.tagName === "INPUT") return;
  if (e.key === "Escape") return closeDialog();
  const actions = offered(T.view);
  const n = T.view.hand.length;
  const first = (test) => actions.find(test);
  const key = { d: (a) => a.type === "draw", p: (a) => a.type === "pass", u: (a) => a.type === "uno", c: (a) => a.type === "catch" };
  if (/^[0-9]$/.test(e.key)) { const i = e.key === "0" ? 9 : Number(e.key) - 1; if (i < n) { T.selected = i; render(); } }
  else if (e.key === "ArrowRight") { T.selected = Math.min(n - 1, T.selected + 1); render(); }
  else if (e.key === "ArrowLeft") { T.selected = Math.max(0, T.selected - 1); render(); }
  else if (e.key === "Enter" && T.selected >= 0 && T.selected < n && dialog.hidden) pick(T.view.hand[T.selected]);
  else if (e.key === "j") { const a = first((x) => x.group === "react" && x.type === "play"); if (a) pick(a.card); }
  else if (key[e.key]) { const a = first(key[e.key]); if (a) act(a.action); }
});

route();
