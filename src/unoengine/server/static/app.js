// The browser client of `uno serve` (docs/PROTOCOL.md). It never decides a rule: what may be played
// is the view's `actions` list (each legal action with its fields and words); what happened is the
// server's narrated `lines`. It knows no decision by name and reads no action notation: a new
// decision or house rule shows here with no change.
import { beep, setSound, setTimers, soundOn } from "./clock.js";
import { h, reducedMotion } from "./dom.js";
import { gamePanel, offered, peoplePanel, summaryPanel } from "./game.js";
import { LANGUAGES, language, preferred, t, tn, useLanguage } from "./i18n.js";
import { badCode, CODE_LENGTH, forgetSeat, home, joinPage, rulesPanel, seats } from "./lobby.js";
import { askPlay, closeDialog, dialogOpen, openDialog } from "./picker.js";
import { reviewPage } from "./review.js";

const app = document.getElementById("app");
const connEl = document.getElementById("conn");
const whereEl = document.getElementById("where");

function go(path) {
  history.pushState({}, "", path);
  route();
}
window.addEventListener("popstate", route);
document.addEventListener("click", (ev) => {
  const a = ev.target.closest?.("a[data-link]");
  if (!a) return;
  ev.preventDefault();
  go(a.getAttribute("href"));
});

// -- a table ---------------------------------------------------------------------------------
let T = null; // the open table's session

function route() {
  if (T) {
    T.closed = true;
    T.ws?.close();
    T = null;
  }
  closeDialog();
  whereEl.textContent = "";
  const r = /^\/t\/([A-Za-z0-9]+)\/games\/(\d+)\/review$/.exec(location.pathname);
  if (r) {
    // A finished game's review (review.js): the viewer's seat, if any, from the seats this browser holds.
    const code = r[1].toUpperCase();
    whereEl.textContent = t("table {code} · review", { code });
    connEl.textContent = ""; // no connection: the review is one request (and polls while it is analysed)
    connEl.className = "conn";
    return reviewPage(app, code, Number(r[2]), seats()[code]?.seat ?? null).catch((e) =>
      app.replaceChildren(h("p", { class: "error" }, e.message)),
    );
  }
  const m = /^\/t\/([^/]*)$/.exec(location.pathname);
  if (!m) return home(app, go).catch((e) => app.replaceChildren(h("p", { class: "error" }, e.message)));
  const code = m[1].toUpperCase();
  whereEl.textContent = t("table {code}", { code });
  if (!new RegExp(`^[A-Z0-9]{${CODE_LENGTH}}$`).test(code)) {
    app.replaceChildren(
      h(
        "section",
        { class: "panel", id: "no-table" },
        h("h2", {}, t("Not a table code")),
        h("p", { class: "error", role: "alert" }, badCode(m[1])),
        h("p", {}, h("a", { href: "/", "data-link": true }, t("Back to the start page"))),
      ),
    );
    return;
  }
  const watch = new URLSearchParams(location.search).has("watch");
  const held = seats()[code];
  if (!held && !watch) return joinPage(app, code, route);
  T = {
    code,
    token: watch ? null : held.token,
    seat: watch ? null : held.seat,
    v: -1,
    game: 0,
    view: null,
    lobby: null,
    log: [],
    logGame: null,
    chat: [],
    backoff: 500,
    closed: false,
    selected: null,
    banner: "",
    summary: null,
    readySent: false,
    arriving: [],
    knocked: new Set(),
    online: false,
  };
  window.unoSession = T; // read-only handle for end-to-end tests and the curious
  connect();
}

function connect() {
  const ses = T;
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  ses.ws = ws;
  connEl.textContent = t("connecting…");
  connEl.className = "conn wait";
  ws.onopen = () => {
    const hello = { type: "hello", table: ses.code, lang: language() };
    if (ses.token) hello.token = ses.token;
    if (ses.v > 0) {
      hello.since = ses.v;
      hello.game = ses.game;
    }
    ws.send(JSON.stringify(hello));
  };
  ws.onmessage = (ev) => {
    if (T === ses) receive(JSON.parse(ev.data));
  };
  ws.onclose = () => {
    if (ses.closed || T !== ses) return;
    ses.online = false;
    connEl.textContent = t("reconnecting…");
    connEl.className = "conn bad";
    render();
    setTimeout(() => {
      if (T === ses && !ses.closed) connect();
    }, ses.backoff);
    ses.backoff = Math.min(10000, ses.backoff * 2);
  };
}

const online = () => T?.ws?.readyState === WebSocket.OPEN && T.online;

function send(message) {
  if (!online()) {
    render(); // the table is locked behind the "reconnecting" overlay: nothing is sent or lost
    return false;
  }
  T.ws.send(JSON.stringify(message));
  return true;
}

function act(action) {
  if (send({ type: "act", seat: T.seat, token: T.token, game: T.game, v: T.v, action })) {
    closeDialog();
    T.selected = null;
  }
}

// -- names: seats are numbered from 1 for people --------------------------------------------------
const names = {
  seat(seat) {
    if (seat === null || seat === undefined) return t("nobody");
    // TRANSLATORS: the reader, where the server's words name their seat ("{name} drew 2 cards")
    if (seat === T.seat) return t("you");
    return T.lobby?.seats[seat]?.name || t("Seat {n}", { n: seat + 1 });
  },
  Seat(seat) {
    const n = names.seat(seat);
    return n.charAt(0).toUpperCase() + n.slice(1);
  },
  // The server's words name seats "seat N" (its number from 0); the table names them. In English
  // with the possessive ("seat 0's decision" is "your decision", "not seat 0's" is "not yours"); in
  // another language the token is the name (the reader's own seat: their word for "you").
  inText: (text) =>
    language() === "en"
      ? (text || "").replace(/\bseat (\d+)('s\b(\s+\w)?)?/g, (_, n, own, next) => {
          const seat = Number(n);
          if (!own) return names.seat(seat);
          if (seat !== T.seat) return `${names.seat(seat)}'s${next || ""}`;
          return next ? `your${next}` : "yours";
        })
      : (text || "").replace(/\bseat (\d+)/g, (_, n) => names.seat(Number(n))),
  label: (a) => names.inText(a.label),
};
const targetName = (seat) => names.Seat(seat);
targetName.label = names.label;

// The server speaks the table-management additions (ready, leave, handover, kick, replace).
const managed = () => Boolean(T?.lobby && "waiting" in T.lobby);

const isHost = () => {
  const L = T?.lobby;
  if (L && typeof L.host === "number") return L.host === T.seat;
  return Boolean(T?.host);
};

// -- what the server says -------------------------------------------------------------------
function receive(msg) {
  const ses = T;
  const before = ses.view;
  setTimers(msg.timers);
  // A refusal is about the moment it was made: the next state (a step, or a sync at another
  // version) takes its banner away.
  if (ses.banner && "v" in msg && msg.type !== "error" && (msg.v !== ses.bannerV || msg.game !== ses.game))
    ses.banner = "";
  switch (msg.type) {
    case "welcome":
      ses.backoff = 500;
      ses.online = true;
      connEl.textContent = ses.seat === null ? t("watching") : t("connected");
      connEl.className = "conn ok";
      ses.lobby = msg.table;
      ses.host = msg.host;
      ses.chat = msg.chat || [];
      if (msg.seat !== null) ses.seat = msg.seat;
      break;
    case "lobby":
      ses.lobby = msg.table;
      break;
    case "sync":
      ses.game = msg.game;
      ses.v = msg.v;
      ses.view = msg.view;
      if (ses.logGame !== msg.game || msg.v > (ses.loggedV ?? -1)) {
        // A new game, a reloaded page, or steps the log missed: rebuild it from every step of the game.
        if (ses.logGame !== msg.game) {
          ses.log = [];
          ses.loggedV = -1;
        }
        ses.logGame = msg.game;
        if (msg.v === 0 && (ses.loggedV ?? -1) < 0) openLog(msg.lines); // nothing played yet: the first card
        if (msg.v > 0 && msg.v > (ses.loggedV ?? -1)) send({ type: "sync", since: 0, game: msg.game });
      }
      break;
    case "steps":
      // A rebuild (every step of the game, after a reload) replaces what the log holds.
      if (msg.game !== ses.logGame || Array.isArray(msg.lines) || (msg.steps.length && msg.steps[0].v <= ses.loggedV)) {
        ses.log = [];
        ses.loggedV = -1;
      }
      if (Array.isArray(msg.lines)) openLog(msg.lines); // the whole game: its opening lines first
      ses.logGame = msg.game;
      ses.game = msg.game;
      for (const s of msg.steps) logStep(s, false);
      ses.v = msg.v;
      ses.view = msg.view;
      break;
    case "step":
      if (msg.game !== ses.logGame) {
        ses.log = [];
        ses.loggedV = -1;
      }
      ses.logGame = msg.game;
      ses.game = msg.game;
      ses.v = msg.v;
      ses.view = msg.view;
      if (ses.loggedV > 0 && msg.v > ses.loggedV + 1) send({ type: "sync", since: 0, game: msg.game }); // a gap
      logStep(msg, true);
      break;
    case "chat":
      ses.chat.push(msg);
      if (ses.chat.length > 50) ses.chat.shift();
      break;
    case "error":
      refused(ses, msg);
      if (msg.code === "auth" && ses.token) forgetSeat(ses.code); // a stale token: forget it
      break;
    default:
      return;
  }
  render();
  if (msg.type === "step") showStep(msg, before);
  ses.arriving = []; // drawn cards arrive once, not at every redraw
}

// A banner that says what went wrong, until the next state.
function say(ses, text, v = ses.v) {
  ses.banner = text;
  ses.bannerV = v;
}

// The server's error: its message, seats named; a refused play (`illegal`) says its reason and rule.
function refused(ses, msg) {
  const probe = ses.probe;
  ses.probe = null;
  const why = names.inText((msg.message || "").replace(/^Refused \([^)]*\):\s*/, ""));
  const reason = language() === "en" ? youAgree(why) : why;
  const rule = msg.rule;
  if (!probe) {
    // TRANSLATORS: {reason} is the server's reason (already in the reader's language); {rule} a rule's id (C-4)
    const refusal = rule ? t("Refused: {reason} (rule {rule})", { reason, rule }) : t("Refused: {reason}", { reason });
    say(ses, msg.code === "illegal" ? refusal : names.inText(msg.message), msg.v ?? ses.v);
  } else if (msg.code === "illegal") {
    say(
      ses,
      rule
        ? // TRANSLATORS: {card} is a card's notation (R5, W+4); {why} the server's reason; {rule} a rule's id
          t("{card} cannot be played now: {why} (rule {rule})", { card: probe, why: reason, rule })
        : t("{card} cannot be played now: {why}", { card: probe, why: reason }),
    );
  } // (a probe overtaken by a step, `stale`: the page's own reason stays until the next state)
}

// The engine's reasons speak of "seat N": for the reader's own seat the verb agrees with "you"
// ("you holds 2 cards" → "you hold 2 cards"). English only.
const youAgree = (text) =>
  text.replace(/\byou (has|is|does|\w+?(?:ch|sh|x|ss)es|\w+[^s\W]s)\b/g, (_, verb) => {
    const plain = { has: "have", is: "are", does: "do" }[verb];
    return `you ${plain || (/(ch|sh|x|ss)es$/.test(verb) ? verb.slice(0, -2) : verb.slice(0, -1))}`;
  });

// The log's opening: the server's sentences before any step (the first card), as version 0.
function openLog(lines) {
  for (const text of lines || []) T.log.push({ text, timeout: false });
  T.loggedV = Math.max(T.loggedV ?? -1, 0);
}

// The log: the server's sentences for this seat, or (from an older server) the step's words.
function logStep(step, live) {
  T.loggedV = Math.max(T.loggedV ?? -1, step.v ?? -1);
  const lines = Array.isArray(step.lines)
    ? step.lines
    : [`${names.Seat(step.seat)} ${names.inText(step.words || step.action)}`];
  for (const text of lines) T.log.push({ text, timeout: Boolean(step.timeout) });
  for (const ev of step.events || []) {
    // No Mercy's knock-outs (N-21) this round, named in its summary.
    if (ev.type === "round_started") T.knocked = new Set();
    if (ev.type === "knocked_out") T.knocked.add(ev.seat);
    if (ev.type === "round_ended") {
      ev.out = [...T.knocked];
      T.knocked = new Set();
      T.lastRound = ev;
      if (live) {
        T.summary = ev;
        T.readySent = false;
      }
    }
    if (ev.type === "cards_drawn" && ev.seat === T.seat && ev.cards && live) T.arriving = [...ev.cards];
  }
  if (T.log.length > 500) T.log.splice(0, T.log.length - 500);
}

// What just happened, shown: the card played moves to the pile and is highlighted.
function showStep(step, before) {
  const v = T.view;
  if (!v) return;
  if (v.to_act === T.seat && before?.to_act !== T.seat) beep("yours");
  if (v.unsafe !== null && v.unsafe !== undefined && offered(v).some((a) => a.type === "catch" || a.type === "uno"))
    beep("alert");
  if (!before || before.top === v.top || !v.top) return;
  beep("play");
  T.lastPlayed = v.top;
  const top = document.getElementById("top-card");
  if (!top) return;
  top.classList.add("just-played");
  if (reducedMotion()) return;
  const from =
    step.seat === T.seat
      ? document.getElementById("hand")
      : document.querySelector(`.opponent[data-seat="${step.seat}"]`);
  if (!from) return;
  const a = from.getBoundingClientRect();
  const b = top.getBoundingClientRect();
  top.animate(
    [
      {
        transform: `translate(${a.left + a.width / 2 - b.left - b.width / 2}px, ${a.top + a.height / 2 - b.top - b.height / 2}px) scale(.6)`,
      },
      { transform: "none" },
    ],
    { duration: 350, easing: "ease-out" },
  );
}

// -- the player's moves ----------------------------------------------------------------------
const phone = () => window.matchMedia("(max-width: 700px), (pointer: coarse)").matches;

// A tap on a card: on a phone the first selects it and shows what it does, the second plays it.
function tapCard(card) {
  if (phone() && T.selected !== card) {
    T.selected = card;
    render();
    return;
  }
  T.selected = card;
  pick(card);
}

// Play a card of the hand: its one play at once, or the questions that choose among its plays.
function pick(card) {
  const v = T.view;
  const options = offered(v).filter((a) => a.type === "play" && a.card === card);
  if (options.length === 0) {
    // Why not: the page's words at once (what is asked now, of whom), then the engine's reason and
    // rule, asked of the server by offering the card as it is; the server refuses it and changes nothing.
    const now = names.inText(v.to_act === T.seat ? v.words?.prompt : whoseTurn(v));
    say(
      T,
      now ? t("{card} cannot be played now: {why}", { card, why: now }) : t("{card} cannot be played now", { card }),
    );
    T.selected = card;
    if (T.seat !== null && v.outcome === null && online()) {
      T.probe = card;
      T.ws.send(JSON.stringify({ type: "act", seat: T.seat, token: T.token, game: T.game, v: T.v, action: card }));
    }
    render();
    return;
  }
  askPlay(card, options, { sides: v.sides?.[card], sizes: v.hand_sizes, names: targetName, play: act });
}

const whoseTurn = (v) =>
  v.outcome !== null
    ? t("the game is over")
    : v.words?.prompt || t("it is {name}'s turn", { name: names.seat(v.to_act) });

// "Next round": the server waits for every person's `ready` (the lobby's `waiting`) before dealing on.
function ready() {
  const waiting = T.lobby?.waiting || [];
  if (T.token && managed() && waiting.includes(T.seat)) send({ type: "ready", token: T.token });
  T.readySent = true;
  if (!waiting.some((s) => s !== T.seat) || T.view?.outcome !== null) T.summary = null;
  render();
}

function leave() {
  openDialog(
    t("Leave the table?"),
    h("p", {}, t("A bot takes your seat in a game in progress; in the lobby the seat opens for somebody else.")),
    h(
      "button",
      {
        id: "leave-confirm",
        class: "danger",
        onclick: () => {
          if (send({ type: "leave", token: T.token })) {
            forgetSeat(T.code);
            closeDialog();
            go("/");
          }
        },
      },
      t("Leave"),
    ),
  );
}

const ui = {
  get T() {
    return T;
  },
  names,
  act,
  send,
  pick,
  tapCard,
  ready,
  leave,
  isHost,
  managed,
  again: () => {
    T.summary = null;
    send({ type: "again", token: T.token });
  },
};

// -- the page ----------------------------------------------------------------------------
function render() {
  const ses = T;
  if (!ses?.lobby) return;
  const L = ses.lobby;
  if (!ses.board) {
    ses.board = h("div", { class: "board" });
    ses.side = sidePanel();
    app.replaceChildren(ses.board, ses.side);
  }
  const v = ses.view;
  if (ses.summary && ses.readySent && v?.outcome === null && !(L.waiting || []).length) ses.summary = null;
  // A page (re)opened while the next round waits for this seat shows the summary it waits on.
  if (!ses.summary && !ses.readySent && ses.lastRound && (L.waiting || []).includes(ses.seat))
    ses.summary = ses.lastRound;
  const parts = [];
  if (ses.banner)
    parts.push(
      h(
        "p",
        {
          class: "banner",
          role: "alert",
          onclick: () => {
            ses.banner = "";
            render();
          },
        },
        ses.banner,
        " ✕",
      ),
    );
  if (L.status === "lobby" || !v) parts.push(lobbyPanel(L));
  else parts.push(gamePanel(L, v, ui));
  if (v && L.status !== "lobby" && ses.summary) parts.push(summaryPanel(ses.summary, L, v, ui));
  if (!online() && ses.lobby)
    parts.push(
      h(
        "div",
        { class: "overlay offline", id: "offline", role: "alert" },
        h(
          "div",
          { class: "box" },
          h("h3", {}, t("Reconnecting…")),
          h(
            "p",
            {},
            t(
              "The connection to the table is down. The table is locked until it is back: nothing you press is sent or lost.",
            ),
          ),
        ),
      ),
    );
  ses.board.replaceChildren(...parts);
  if (v && L.status !== "lobby" && ses.shownGame !== ses.game) {
    ses.shownGame = ses.game; // a game begins: show the table from its top (the lobby may have been scrolled)
    window.scrollTo(0, 0);
  }
  const log = ses.side.querySelector("#log");
  log.replaceChildren(...ses.log.slice(-80).map((l) => h("li", { class: l.timeout ? "timeout" : "" }, l.text)));
  log.scrollTop = log.scrollHeight;
  const chat = ses.side.querySelector("#chat");
  chat.replaceChildren(...ses.chat.map((c) => h("li", {}, h("b", {}, `${c.name}: `), c.text)));
  chat.scrollTop = chat.scrollHeight;
  ses.side.querySelector("#people-slot").replaceChildren(peoplePanel(L, ui));
  const input = ses.side.querySelector("#chat-input");
  input.disabled = ses.seat === null;
  input.placeholder = ses.seat === null ? t("spectators cannot chat") : t("say something");
}

function lobbyPanel(L) {
  const invite = `${location.origin}/t/${L.code}`;
  const open = L.seats.filter((s) => s.open).length;
  return h(
    "section",
    { class: "panel lobby" },
    h("h2", {}, t("{title} — table {code}", { title: L.title, code: L.code })),
    h(
      "p",
      {},
      t("Invite link:"),
      " ",
      h("input", { readonly: true, value: invite, id: "invite", onclick: (e) => e.target.select() }),
    ),
    h("p", {}, t("Spectator link:"), " ", h("a", { href: `/t/${L.code}?watch=1` }, `${invite}?watch=1`)),
    rulesPanel(L),
    isHost()
      ? h(
          "div",
          {},
          h(
            "button",
            { id: "start", class: "play", disabled: open > 0, onclick: () => send({ type: "start", token: T.token }) },
            t("Start"),
          ),
          open
            ? h(
                "button",
                { id: "start-bots", onclick: () => send({ type: "start", token: T.token, fill: true }) },
                tn("Start, bots in the {n} open seat", "Start, bots in the {n} open seats", open),
              )
            : null,
        )
      : h("p", {}, t("Waiting for the host to start…")),
  );
}

function sidePanel() {
  const input = h("input", { id: "chat-input", maxlength: 300, "aria-label": t("chat") });
  const sound = h("input", {
    type: "checkbox",
    id: "sound",
    checked: soundOn(),
    onchange: (e) => setSound(e.target.checked),
  });
  return h(
    "aside",
    { class: "panel side" },
    h("div", { id: "people-slot" }),
    h("h3", {}, t("What happened")),
    h("ul", { class: "log", id: "log", "aria-live": "polite" }),
    h("h3", {}, t("Chat")),
    h("ul", { class: "chat", id: "chat" }),
    h(
      "form",
      {
        onsubmit: (e) => {
          e.preventDefault();
          if (input.value.trim()) send({ type: "chat", token: T.token, text: input.value });
          input.value = "";
        },
      },
      input,
    ),
    h("label", { class: "sound" }, sound, " ", t("Sounds")),
  );
}

// -- keys: digits select a card, Enter plays it, d/p/u/c the buttons ------------------------------
document.addEventListener("keydown", (e) => {
  if (!T?.view || e.target.tagName === "INPUT") return;
  if (e.key === "Escape") return closeDialog();
  if (dialogOpen()) return; // a question is open: only its buttons answer it
  const v = T.view;
  const actions = offered(v);
  const n = v.hand.length;
  const at = v.hand.indexOf(T.selected);
  const first = (test) => actions.find(test);
  const key = {
    d: (a) => a.type === "draw",
    p: (a) => a.type === "pass",
    u: (a) => a.type === "uno",
    c: (a) => a.type === "catch",
  };
  if (/^[0-9]$/.test(e.key)) {
    const i = e.key === "0" ? 9 : Number(e.key) - 1;
    if (i < n) T.selected = v.hand[i];
    render();
  } else if (e.key === "ArrowRight") {
    T.selected = v.hand[Math.min(n - 1, at + 1)];
    render();
  } else if (e.key === "ArrowLeft") {
    T.selected = v.hand[Math.max(0, at - 1)];
    render();
  } else if (e.key === "Enter" && T.selected && e.target.tagName !== "BUTTON") {
    e.preventDefault(); // the same keystroke must not answer the question it opens
    pick(T.selected);
  } else if (e.key === "j") {
    const a = first((x) => x.group === "react" && x.type === "play");
    if (a) pick(a.card);
  } else if (key[e.key]) {
    const a = first(key[e.key]);
    if (a) act(a.action);
  }
});

// -- the reader's language: a picker in the header of every page ---------------------------------
// A new language reloads the page's words at once: the page is drawn again, and a table's connection
// opens again with the new `lang` in its `hello`, so that the server says its words in it too.
const langSel = h(
  "select",
  { id: "lang", class: "lang", "aria-label": "Language" },
  Object.entries(LANGUAGES).map(([code, name]) => h("option", { value: code, lang: code }, name)),
);
langSel.addEventListener("change", async () => {
  await useLanguage(langSel.value, true);
  pageWords();
  route();
});
document.querySelector("header").append(langSel);

// The words of the page's frame (the rest is drawn by the route).
function pageWords() {
  langSel.value = language();
  // TRANSLATORS: the label of the language picker (each language's own name is its option)
  langSel.setAttribute("aria-label", t("Language"));
  langSel.title = t("Language");
}

useLanguage(preferred()).then(() => {
  pageWords();
  route();
});
