// The game on screen, one part per function: the people at the table, the pile, the player's hand,
// the buttons, the round summary and the final screen. Each renders the view's `actions` and `words`
// and decides nothing: what may be played, and what it does, is the server's.
import { backElement, COLORS, cardElement, colourWord, MARKERS } from "./cards.js";
import { countdown, TIMERS } from "./clock.js";
import { h, parts, spaced } from "./dom.js";
import { t, tn } from "./i18n.js";
import { rulesPanel } from "./lobby.js";

export const offered = (v) => v.actions || [];
const sidesOf = (v, card) => v.sides?.[card] || null;
const wordsOf = (v, card) => {
  const sides = sidesOf(v, card);
  if (!sides) return null;
  const [normal, flex] = sides;
  // TRANSLATORS: a card's words: {normal} is what it does, {flex} what its flex side does (the server's words)
  return normal && flex ? t("{normal} — flex side: {flex}", { normal, flex }) : normal || flex || null;
};

// Every decision button's text: the action's label with its colour's markers (F-5), seats named.
export function label(a, names) {
  const text = names.inText(a.label);
  return a.color ? `${text} ${MARKERS[a.color.toUpperCase()]}` : text;
}

// The buttons of actions made at once; reactions (UNO, catch) count down the people's window.
export function actionButton(a, ui, cls = "") {
  const colour = a.color ? `choice ${COLORS[a.color.toUpperCase()]}` : "";
  const timed = a.type === "uno" || a.type === "catch" || a.out_of_turn;
  return h(
    "button",
    {
      "data-action": a.action,
      class: `${cls} ${colour}`.trim(),
      title: ui.names.inText(a.words),
      onclick: () => ui.act(a.action),
    },
    label(a, ui.names),
    timed ? countdown(TIMERS.react) : null,
  );
}

// A score: "12 pts".
// TRANSLATORS: a score in points, abbreviated
const points = (n) => t("{n} pts", { n });

// -- the people at the table ------------------------------------------------------------------
// No Mercy's Mercy Rule (N-21, N-22): a seat holding 25 cards or more is out of the round (the view's `in_round`).
export const knockedOut = (v, seat) => Array.isArray(v.in_round) && v.in_round[seat] === false;
export function outBadge() {
  return h(
    "span",
    {
      class: "tag out",
      // TRANSLATORS: the title of the "out" badge of a seat knocked out of the round (UNO Show 'Em No Mercy's Mercy Rule)
      title: t("Out of the round: 25 cards or more in hand (the Mercy Rule)"),
    },
    // TRANSLATORS: a short badge on a seat knocked out of the round (UNO Show 'Em No Mercy): keep it short
    t("out"),
  );
}

function powerBadge(v, seat) {
  if (!v.power.length) return null;
  const green = v.power[seat] === "green";
  return h(
    "span",
    {
      class: `power ${green ? "green" : "red"}`,
      title: green ? t("Power Card green: flex sides may be played") : t("Power Card red: only normal sides"),
    },
    green ? t("Power ● green") : t("Power ○ red"),
  );
}

function hostControls(s, ui) {
  const T = ui.T;
  if (!ui.managed() || !ui.isHost() || s.seat === T.seat || s.bot || s.open) return [];
  const absent = s.away || s.connected === false;
  const send = (type) => ui.send({ type, token: T.token, seat: s.seat });
  return [
    h("button", { class: "small", "data-host": "handover", onclick: () => send("handover") }, t("Make host")),
    absent ? h("button", { class: "small", "data-host": "kick", onclick: () => send("kick") }, t("Remove")) : null,
    absent
      ? h("button", { class: "small", "data-host": "replace", onclick: () => send("replace") }, t("Replace with a bot"))
      : null,
  ];
}

// A seat's words: its name, "(you)", host, bot, presence.
function seatTags(s, T, L) {
  const host = s.host ?? L.host === s.seat;
  const you = t("(you)");
  return [
    s.seat === T.seat ? ` ${you}` : "",
    host ? h("span", { class: "tag host" }, t("host")) : null,
    s.bot ? h("span", { class: "tag" }, t("bot")) : null,
    s.away ? h("span", { class: "tag away" }, t("a bot plays for them")) : null,
    s.connected === false && !s.away ? h("span", { class: "tag away" }, t("offline")) : null,
  ];
}

export function peoplePanel(L, ui) {
  const T = ui.T;
  const watching = L.spectators;
  return h(
    "div",
    { class: "people", id: "people" },
    h(
      "ol",
      { class: "seats" },
      L.seats.map((s) =>
        h(
          "li",
          { "data-seat": s.seat },
          s.open ? h("em", {}, t("open seat")) : s.name || ui.names.Seat(s.seat),
          s.open ? null : seatTags(s, T, L),
          hostControls(s, ui),
        ),
      ),
    ),
    typeof watching === "number"
      ? h(
          "p",
          { id: "watching" },
          watching ? tn("{n} spectator watching", "{n} spectators watching", watching) : t("Nobody is watching"),
        )
      : null,
    T.seat !== null && T.seat !== undefined && ui.managed()
      ? h("button", { id: "leave", class: "small", onclick: ui.leave }, t("Leave the table"))
      : null,
  );
}

// H-11: partners sit opposite (the options are public): "partner", or the seat's team.
function teamTag(v, s, me) {
  if (v.options?.teams !== "pairs") return null;
  const half = v.seats / 2;
  const mine = me !== null && me !== undefined && (me + half) % v.seats === s;
  // TRANSLATORS: {team} is a team's letter (A, B, C)
  return h("span", { class: "tag" }, mine ? t("partner") : t("Team {team}", { team: "ABC"[s % half] }));
}

function opponents(L, v, ui) {
  const T = ui.T;
  const me = T.seat;
  const actions = offered(v);
  const boxes = [];
  for (let i = 1; i <= v.seats; i++) {
    const s = me === null ? i - 1 : (me + i) % v.seats;
    if (s === me) continue;
    const info = L.seats[s] || {};
    const aimed = actions.filter((a) => a.group === "react" && a.seat === s);
    const out = knockedOut(v, s);
    const state = out ? "out" : v.to_act === s ? "acting" : "";
    boxes.push(
      h(
        "div",
        { class: `opponent ${state}`.trim(), "data-seat": s, id: `seat-${s}` },
        h(
          "div",
          { class: "who" },
          ui.names.seat(s),
          info.bot ? h("span", { class: "tag" }, t("bot")) : null,
          info.away || info.connected === false ? h("span", { class: "tag away" }, t("away")) : null,
          teamTag(v, s, me),
        ),
        h(
          "div",
          { class: "count" },
          out ? outBadge() : backElement(v.hand_sizes[s]),
          out ? null : h("span", { class: "n" }, tn("{n} card", "{n} cards", v.hand_sizes[s])),
        ),
        h("div", { class: "score" }, points(v.scores[s]), " ", powerBadge(v, s)),
        v.unsafe === s ? h("div", { class: "unsafe" }, t("one card, no UNO!")) : null,
        aimed.map((a) => actionButton(a, ui, `catch ${a.type}`)),
      ),
    );
  }
  return h("div", { class: `opponents ${v.seats > 4 ? "many" : ""}`, id: "opponents" }, boxes);
}

// -- the pile and what is known of the draw pile -----------------------------------------------------
function whoseLine(v, ui) {
  const words = v.words || { title: v.pending, prompt: "" };
  if (v.outcome !== null) return t("Game over");
  if (v.to_act === ui.T.seat) return t("Your turn");
  return ui.names.inText(words.prompt) || t("Waiting for {name}", { name: ui.names.seat(v.to_act) });
}

// A pending draw stack's total (H-1, No Mercy's N-15): the cards the player facing it takes unless they
// add a draw card (the decision's detail of that name, which the view has only while a stack is pending).
function stackTotal(v) {
  const total = v.details?.stack;
  if (typeof total !== "number") return null;
  return h(
    "div",
    {
      class: "stack-total",
      id: "stack-total",
      // TRANSLATORS: the title of the draw stack's total, shown beside the top card
      title: t("Draw stack: the player facing it takes these cards unless they add a draw card"),
    },
    // TRANSLATORS: a pending draw stack's total, shown beside the top card ("+14 to draw")
    t("+{n} to draw", { n: total }),
  );
}

function pile(v, ui) {
  const color = v.color ? v.color.toUpperCase() : null;
  const known = v.draw_pile_known || [];
  const top = v.top ? cardElement(v.top, { words: wordsOf(v, v.top) }) : h("span", { class: "card back" }, "—");
  top.id = "top-card";
  if (ui.T.lastPlayed === v.top) top.classList.add("just-played");
  const words = v.words || { prompt: "" };
  return h(
    "div",
    { class: "pile", id: "pile" },
    h("div", { class: "top" }, top),
    h(
      "div",
      { class: "state" },
      stackTotal(v),
      color
        ? h(
            "div",
            {},
            t("Colour to match:"),
            " ",
            h("span", { class: `swatch ${COLORS[color]}` }, `${colourWord(color)} ${MARKERS[color]}`),
          )
        : null,
      h(
        "div",
        { class: "table-facts" },
        // TRANSLATORS: {n} is the number of cards in the draw pile
        h("span", { class: "draw-pile", id: "draw-pile" }, t("Draw pile {n}", { n: v.draw_pile })),
        // With two seats the direction changes nothing (a Reverse acts as a Skip): it is not shown.
        v.seats > 2 ? " · " : "",
        v.seats > 2 ? (v.direction === 1 ? t("↻ clockwise") : t("↺ counter-clockwise")) : "",
        " · ",
        t("round {n}", { n: v.round }),
      ),
      known.length
        ? h(
            "div",
            { class: "known", id: "draw-known" },
            h(
              "div",
              { class: "known-words" },
              t("Bottom of the draw pile, seen by both ({n}, bottom first):", { n: known.length }),
            ),
            h(
              "div",
              { class: "strip" },
              known.map((c) => cardElement(c, { size: "mini" })),
            ),
          )
        : null,
      h(
        "div",
        { class: `whose ${v.to_act === ui.T.seat ? "mine" : ""}`, id: "whose" },
        whoseLine(v, ui),
        v.outcome === null ? countdown(TIMERS.turn) : null,
      ),
      v.outcome === null && v.to_act === ui.T.seat && words.prompt
        ? h("div", { class: "prompt", id: "prompt" }, ui.names.inText(words.prompt))
        : null,
    ),
  );
}

// A detail's name in words (a detail this page does not know: its name, spaced).
function detailWord(key) {
  const words = { draft_card: t("draft card"), drawn_card: t("drawn card") };
  return words[key] ?? spaced(key);
}

// Cards the viewer may see that belong to the decision (Duo's drawn draft card …), with the detail's
// own name.
function shownCards(v) {
  const cards = Object.entries(v.details || {}).filter(
    ([, value]) => typeof value === "string" && /^[A-Z]/.test(value),
  );
  if (!cards.length) return null;
  return h(
    "div",
    { class: "shown-cards", id: "shown-cards" },
    cards.map(([key, card]) =>
      h(
        "figure",
        { class: "shown" },
        cardElement(card, { words: wordsOf(v, card) }),
        h("figcaption", {}, detailWord(key)),
      ),
    ),
  );
}

// Before the first card is turned (Duo's draft), the face-up discard pile: a box of its own, titled,
// on the table between the pile and the hand, never inside the hand's box (they are nobody's cards).
function draftDiscards(v) {
  const discards = v.top ? [] : v.discard_pile || [];
  if (!discards.length) return null;
  return h(
    "section",
    { class: "draft-discards", id: "discards", "aria-label": t("Draft discards (face up)") },
    h(
      "h3",
      {},
      t("Draft discards (face up)"),
      h("span", { class: "muted" }, " · ", tn("{n} card", "{n} cards", discards.length)),
    ),
    h(
      "div",
      { class: "fan" },
      discards.map((c) => cardElement(c, { size: "small" })),
    ),
  );
}

// -- the player's hand ---------------------------------------------------------------------
function hand(v, ui) {
  const T = ui.T;
  const playable = new Set(
    offered(v)
      .filter((a) => a.type === "play")
      .map((a) => a.card),
  );
  const arriving = [...(T.arriving || [])];
  return h(
    "div",
    { class: `hand ${playable.size ? "" : "waiting"}`, id: "hand", role: "list" },
    v.hand.map((c) => {
      const el = cardElement(c, { legal: playable.has(c), words: wordsOf(v, c) });
      el.setAttribute("role", "listitem");
      el.tabIndex = 0;
      if (c === T.selected) el.classList.add("selected");
      if (c === v.drawn_card) el.classList.add("just-drawn");
      const at = arriving.indexOf(c);
      if (at >= 0) {
        arriving.splice(at, 1);
        el.classList.add("arriving");
      }
      el.addEventListener("click", () => ui.tapCard(c));
      el.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          e.stopPropagation();
          ui.pick(c);
        }
      });
      return el;
    }),
  );
}

// What the selected card does, on each side; on a phone, its Play button.
function cardInfo(v, ui) {
  const card = ui.T.selected;
  if (!card || !v.hand.includes(card)) return null;
  const sides = sidesOf(v, card);
  const plays = offered(v).filter((a) => a.type === "play" && a.card === card);
  return h(
    "div",
    { class: "card-info", id: "card-info" },
    cardElement(card, { size: "small", words: wordsOf(v, card) }),
    " ",
    sides ? sides[0] : card,
    sides?.[1]
      ? h("div", { class: "flex-info" }, t("Flex side (with a green Power Card): {words}", { words: sides[1] }))
      : null,
    plays.length
      ? h("button", { id: "play-selected", class: "play", onclick: () => ui.pick(card) }, t("Play it"))
      : h("div", { class: "muted" }, t("It cannot be played now.")),
  );
}

function buttons(v, ui) {
  const actions = offered(v).filter(
    (a) =>
      a.group === "decision" || a.group === "choice" || (a.group === "react" && a.seat === null && a.type !== "play"),
  );
  return h(
    "div",
    { class: "actions", id: "actions" },
    actions.map((a) => actionButton(a, ui, a.type === "uno" ? "uno" : "")),
    actions.some((a) => a.type === "uno") ? unoNote(ui) : null,
  );
}

// What UNO's countdown means: it holds the bots back; another person may catch at once.
function unoNote(ui) {
  const T = ui.T;
  const people = (T.lobby?.seats || []).filter(
    (s) => s.seat !== T.seat && !s.open && !s.bot && !s.away && s.connected !== false,
  );
  return h(
    "p",
    { class: "react-note", id: "uno-note" },
    people.length
      ? t("The countdown is how long bots wait before they catch you; other players can catch you at once.")
      : t("The countdown is how long bots wait before they catch you."),
  );
}

// Out of turn (C-18's window, a jump-in): a visible window with its buttons and its countdown.
function jumpIns(v, ui) {
  const jumps = offered(v).filter((a) => a.group === "react" && a.type === "play");
  if (!jumps.length) return null;
  return h(
    "div",
    { class: "react", id: "react", role: "alert" },
    h("strong", {}, t("Out of turn!"), " "),
    t("press j, or:"),
    " ",
    jumps.map((a) => actionButton(a, ui, "jump")),
  );
}

function mine(v, ui) {
  const me = ui.T.seat;
  if (me === null) return h("p", { class: "me" }, t("You are watching: spectators see no hand."));
  const out = knockedOut(v, me);
  const state = out ? "out" : v.to_act === me && v.outcome === null ? "acting" : "";
  return h(
    "div",
    { class: `me ${state}`.trim(), id: "me" },
    h(
      "div",
      { class: "who" },
      // TRANSLATORS: the reader's own line at the table: "You — 12 pts"
      t("You — {n} pts", { n: v.scores[me] }),
      " ",
      powerBadge(v, me),
      out ? outBadge() : null,
      v.unsafe === me ? h("strong", { class: "unsafe" }, " ", t("Call UNO!")) : null,
    ),
    out && v.outcome === null
      ? h(
          "p",
          { class: "out-note", id: "out-note" },
          t("You are out of this round: you reached 25 cards (the Mercy Rule). The others play on."),
        )
      : null,
    shownCards(v),
    jumpIns(v, ui),
    hand(v, ui),
    cardInfo(v, ui),
    buttons(v, ui),
  );
}

// -- between rounds and after the game ---------------------------------------------------------
export function summaryPanel(ev, L, v, ui) {
  const T = ui.T;
  const over = v.outcome !== null;
  const waiting = L.waiting || [];
  const others = waiting.filter((s) => s !== T.seat);
  const held = T.readySent && others.length > 0 && !over;
  return h(
    "div",
    { class: "overlay", id: "summary-overlay" },
    h(
      "div",
      { class: "summary box", id: "summary", role: "dialog", "aria-label": t("Round {n}", { n: ev.round }) },
      h(
        "h3",
        {},
        ev.winner === null
          ? t("Round {n}: blocked", { n: ev.round })
          : // TRANSLATORS: {name} is a player's name or "You"
            t("Round {n}: {name} won", { n: ev.round, name: ui.names.Seat(ev.winner) }),
      ),
      h(
        "table",
        {},
        h("tr", {}, h("th", {}, t("Player")), h("th", {}, t("Cards left")), h("th", {}, t("Points"))),
        ev.hands.map((cards, s) =>
          h(
            "tr",
            { class: (ev.out || []).includes(s) ? "out" : "", "data-seat": s },
            h("td", {}, ui.names.Seat(s), (ev.out || []).includes(s) ? [" ", outBadge()] : null),
            // The cell stays a table cell (its rule in line with the row's); its cards wrap inside it.
            h(
              "td",
              { class: "cards" },
              cards?.length
                ? h(
                    "div",
                    { class: "scored-cards" },
                    cards.map((c, i) =>
                      h(
                        "span",
                        { class: "scored" },
                        cardElement(c, { size: "small" }),
                        h("small", {}, String(((ev.points || [])[s] || [])[i] ?? "")),
                      ),
                    ),
                  )
                : h("span", { class: "muted" }, "—"),
            ),
            h("td", {}, ev.deltas[s] > 0 ? `+${ev.deltas[s]}` : String(ev.deltas[s])),
          ),
        ),
      ),
      h("p", {}, t("Scores:"), " ", v.scores.map((score, s) => `${ui.names.Seat(s)} ${score}`).join(" · ")),
      others.length && !over
        ? h(
            "p",
            { id: "waiting" },
            // TRANSLATORS: {name} is a list of players' names, separated by commas
            t("Waiting for {name}", { name: others.map((s) => ui.names.seat(s)).join(", ") }),
          )
        : null,
      h(
        "button",
        { id: "next-round", class: "play", disabled: held, onclick: ui.ready },
        over ? t("See the final scores") : held ? t("Waiting for the others…") : t("Next round"),
        !over && waiting.length ? countdown(TIMERS.round) : null,
      ),
    ),
  );
}

// The review screen of a finished game (review.js): /t/{code}/games/{n}/review.
const reviewHref = (code, game) => `/t/${code}/games/${game.game}/review`;

function verifyPanel(game, code) {
  if (!game) return null;
  const check = h("span", { id: "check" });
  if (game.seed !== undefined && crypto.subtle) {
    crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${game.salt}:${game.seed}`)).then((d) => {
      const hex = [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join("");
      const words = hex === game.commitment ? t("✓ matches the commitment") : t("✗ does NOT match the commitment");
      check.textContent = ` ${words}`;
    });
  }
  return h(
    "details",
    { class: "fair", id: "verify" },
    h("summary", {}, t("Verify this game")),
    h(
      "p",
      {},
      parts(
        // TRANSLATORS: {commitment} is a long hexadecimal number (a SHA-256 hash)
        t(
          "Before the deal the server committed to its shuffle: SHA-256 of salt and seed is {commitment}. When the game ends it reveals both, so anyone can check that nothing was changed.",
        ),
        { commitment: h("code", { id: "commitment" }, game.commitment) },
      ),
    ),
    game.seed !== undefined
      ? h(
          "p",
          {},
          t("Seed {seed}, salt {salt}", { seed: game.seed, salt: game.salt }),
          check,
          " · ",
          h("a", { href: game.record, download: "", id: "record" }, t("download the record")),
          " ",
          t("(replay it with uno replay)"),
          " · ",
          h("a", { href: reviewHref(code, game), "data-link": true, id: "review-record" }, t("review this game")),
        )
      : null,
  );
}

function finalPanel(v, game, ui, code) {
  const T = ui.T;
  const winner = v.outcome.winner;
  const ranked = v.scores.map((score, seat) => ({ score, seat })).sort((a, b) => b.score - a.score || a.seat - b.seat);
  return h(
    "div",
    { class: "final", id: "final" },
    h(
      "h2",
      {},
      winner === null
        ? t("The game is over")
        : winner === T.seat
          ? t("You won!")
          : // TRANSLATORS: {name} is a player's name
            t("{name} won", { name: ui.names.Seat(winner) }),
    ),
    h(
      "ol",
      { class: "ranking", id: "ranking" },
      ranked.map((r) =>
        h("li", { "data-seat": r.seat }, h("span", {}, ui.names.Seat(r.seat)), h("b", {}, points(r.score))),
      ),
    ),
    ui.isHost()
      ? h("button", { id: "again", class: "play", onclick: ui.again }, t("Play again"))
      : h("p", { id: "waiting-host" }, t("Waiting for the host to start a new game…")),
    game?.over
      ? h(
          "a",
          { href: reviewHref(code, game), "data-link": true, class: "button", id: "review-game" },
          t("Review this game"),
        )
      : null,
    verifyPanel(game, code),
  );
}

// The table's earlier games, once over: each one's review and record (the current game's are on its final screen).
function earlierGames(L) {
  const done = L.games.slice(0, -1).filter((g) => g.over);
  if (!done.length) return null;
  return h(
    "details",
    { class: "fair", id: "earlier-games" },
    h("summary", {}, t("Earlier games at this table ({n})", { n: done.length })),
    h(
      "ul",
      {},
      done.map((g) =>
        h(
          "li",
          { "data-game": g.game },
          t("Game {n}:", { n: g.game }),
          " ",
          h("a", { href: reviewHref(L.code, g), "data-link": true, class: "review-earlier" }, t("review this game")),
          " · ",
          h("a", { href: g.record, download: "" }, t("record")),
        ),
      ),
    ),
  );
}

export function gamePanel(L, v, ui) {
  const game = L.games[L.games.length - 1];
  return h(
    "section",
    { class: "panel game" },
    opponents(L, v, ui),
    pile(v, ui),
    draftDiscards(v),
    mine(v, ui),
    v.outcome !== null ? finalPanel(v, game, ui, L.code) : null,
    v.outcome === null ? verifyPanel(game, L.code) : null,
    earlierGames(L),
    rulesPanel(L),
  );
}
