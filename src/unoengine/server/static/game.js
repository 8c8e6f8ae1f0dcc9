// The game on screen, one part per function: the people at the table, the pile, the player's hand,
// the buttons, the round summary and the final screen. Each renders the view's `actions` and `words`
// and decides nothing: what may be played, and what it does, is the server's.
import { backElement, COLORS, cardElement, MARKERS } from "./cards.js";
import { countdown, TIMERS } from "./clock.js";
import { h, plural, spaced } from "./dom.js";
import { rulesPanel } from "./lobby.js";

export const offered = (v) => v.actions || [];
const sidesOf = (v, card) => v.sides?.[card] || null;
const wordsOf = (v, card) => {
  const sides = sidesOf(v, card);
  return sides ? sides.filter(Boolean).join(" — flex side: ") : null;
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

// -- the people at the table ------------------------------------------------------------------
function powerBadge(v, seat) {
  if (!v.power.length) return null;
  const green = v.power[seat] === "green";
  return h(
    "span",
    {
      class: `power ${green ? "green" : "red"}`,
      title: green ? "Power Card green: flex sides may be played" : "Power Card red: only normal sides",
    },
    green ? "Power ● green" : "Power ○ red",
  );
}

function hostControls(s, ui) {
  const T = ui.T;
  if (!ui.managed() || !ui.isHost() || s.seat === T.seat || s.bot || s.open) return [];
  const absent = s.away || s.connected === false;
  const send = (type) => ui.send({ type, token: T.token, seat: s.seat });
  return [
    h("button", { class: "small", "data-host": "handover", onclick: () => send("handover") }, "Make host"),
    absent ? h("button", { class: "small", "data-host": "kick", onclick: () => send("kick") }, "Remove") : null,
    absent
      ? h("button", { class: "small", "data-host": "replace", onclick: () => send("replace") }, "Replace with a bot")
      : null,
  ];
}

// A seat's words: its name, "(you)", host, bot, presence.
function seatTags(s, T, L) {
  const host = s.host ?? L.host === s.seat;
  return [
    s.seat === T.seat ? " (you)" : "",
    host ? h("span", { class: "tag host" }, "host") : null,
    s.bot ? h("span", { class: "tag" }, "bot") : null,
    s.away ? h("span", { class: "tag away" }, "a bot plays for them") : null,
    s.connected === false && !s.away ? h("span", { class: "tag away" }, "offline") : null,
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
          s.open ? h("em", {}, "open seat") : s.name || ui.names.Seat(s.seat),
          s.open ? null : seatTags(s, T, L),
          hostControls(s, ui),
        ),
      ),
    ),
    typeof watching === "number"
      ? h("p", { id: "watching" }, watching ? `${plural(watching, "spectator")} watching` : "Nobody is watching")
      : null,
    T.seat !== null && T.seat !== undefined && ui.managed()
      ? h("button", { id: "leave", class: "small", onclick: ui.leave }, "Leave the table")
      : null,
  );
}

// H-11: partners sit opposite (the options are public): "partner", or the seat's team.
function teamTag(v, s, me) {
  if (v.options?.teams !== "pairs") return null;
  const half = v.seats / 2;
  const mine = me !== null && me !== undefined && (me + half) % v.seats === s;
  return h("span", { class: "tag" }, mine ? "partner" : `Team ${"ABC"[s % half]}`);
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
    boxes.push(
      h(
        "div",
        { class: `opponent ${v.to_act === s ? "acting" : ""}`, "data-seat": s, id: `seat-${s}` },
        h(
          "div",
          { class: "who" },
          ui.names.seat(s),
          info.bot ? h("span", { class: "tag" }, "bot") : null,
          info.away || info.connected === false ? h("span", { class: "tag away" }, "away") : null,
          teamTag(v, s, me),
        ),
        h(
          "div",
          { class: "count" },
          backElement(v.hand_sizes[s]),
          h("span", { class: "n" }, plural(v.hand_sizes[s], "card")),
        ),
        h("div", { class: "score" }, `${v.scores[s]} pts `, powerBadge(v, s)),
        v.unsafe === s ? h("div", { class: "unsafe" }, "one card, no UNO!") : null,
        aimed.map((a) => actionButton(a, ui, `catch ${a.type}`)),
      ),
    );
  }
  return h("div", { class: `opponents ${v.seats > 4 ? "many" : ""}`, id: "opponents" }, boxes);
}

// -- the pile and what is known of the draw pile -----------------------------------------------------
function whoseLine(v, ui) {
  const words = v.words || { title: v.pending, prompt: "" };
  if (v.outcome !== null) return "Game over";
  if (v.to_act === ui.T.seat) return "Your turn";
  return ui.names.inText(words.prompt) || `Waiting for ${ui.names.seat(v.to_act)}`;
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
      color
        ? h(
            "div",
            {},
            "Colour to match: ",
            h("span", { class: `swatch ${COLORS[color]}` }, `${COLORS[color]} ${MARKERS[color]}`),
          )
        : null,
      h(
        "div",
        { class: "table-facts" },
        h("span", { class: "draw-pile", id: "draw-pile" }, `Draw pile ${v.draw_pile}`),
        // With two seats the direction changes nothing (a Reverse acts as a Skip): it is not shown.
        v.seats > 2 ? ` · ${v.direction === 1 ? "↻ clockwise" : "↺ counter-clockwise"}` : "",
        ` · round ${v.round}`,
      ),
      known.length
        ? h(
            "div",
            { class: "known", id: "draw-known" },
            h(
              "div",
              { class: "known-words" },
              `Bottom of the draw pile, seen by both (${known.length}, bottom first):`,
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
      h("figure", { class: "shown" }, cardElement(card, { words: wordsOf(v, card) }), h("figcaption", {}, spaced(key))),
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
    { class: "draft-discards", id: "discards", "aria-label": "Draft discards (face up)" },
    h("h3", {}, "Draft discards (face up)", h("span", { class: "muted" }, ` · ${plural(discards.length, "card")}`)),
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
    sides?.[1] ? h("div", { class: "flex-info" }, `Flex side (with a green Power Card): ${sides[1]}`) : null,
    plays.length
      ? h("button", { id: "play-selected", class: "play", onclick: () => ui.pick(card) }, "Play it")
      : h("div", { class: "muted" }, "It cannot be played now."),
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
    "The countdown is how long bots wait before they catch you",
    people.length ? "; other players can catch you at once." : ".",
  );
}

// Out of turn (C-18's window, a jump-in): a visible window with its buttons and its countdown.
function jumpIns(v, ui) {
  const jumps = offered(v).filter((a) => a.group === "react" && a.type === "play");
  if (!jumps.length) return null;
  return h(
    "div",
    { class: "react", id: "react", role: "alert" },
    h("strong", {}, "Out of turn! "),
    "press j, or: ",
    jumps.map((a) => actionButton(a, ui, "jump")),
  );
}

function mine(v, ui) {
  const me = ui.T.seat;
  if (me === null) return h("p", { class: "me" }, "You are watching: spectators see no hand.");
  return h(
    "div",
    { class: `me ${v.to_act === me && v.outcome === null ? "acting" : ""}`, id: "me" },
    h(
      "div",
      { class: "who" },
      `You — ${v.scores[me]} pts `,
      powerBadge(v, me),
      v.unsafe === me ? h("strong", { class: "unsafe" }, " Call UNO!") : null,
    ),
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
      { class: "summary box", id: "summary", role: "dialog", "aria-label": `Round ${ev.round}` },
      h(
        "h3",
        {},
        ev.winner === null ? `Round ${ev.round}: blocked` : `Round ${ev.round}: ${ui.names.Seat(ev.winner)} won`,
      ),
      h(
        "table",
        {},
        h("tr", {}, h("th", {}, "Player"), h("th", {}, "Cards left"), h("th", {}, "Points")),
        ev.hands.map((cards, s) =>
          h(
            "tr",
            {},
            h("td", {}, ui.names.Seat(s)),
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
      h("p", {}, "Scores: ", v.scores.map((score, s) => `${ui.names.Seat(s)} ${score}`).join(" · ")),
      others.length && !over
        ? h("p", { id: "waiting" }, "Waiting for ", others.map((s) => ui.names.seat(s)).join(", "))
        : null,
      h(
        "button",
        { id: "next-round", class: "play", disabled: held, onclick: ui.ready },
        over ? "See the final scores" : held ? "Waiting for the others…" : "Next round",
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
      check.textContent = hex === game.commitment ? " ✓ matches the commitment" : " ✗ does NOT match the commitment";
    });
  }
  return h(
    "details",
    { class: "fair", id: "verify" },
    h("summary", {}, "Verify this game"),
    h(
      "p",
      {},
      "Before the deal the server committed to its shuffle: SHA-256 of salt and seed is ",
      h("code", { id: "commitment" }, game.commitment),
      ". When the game ends it reveals both, so anyone can check that nothing was changed.",
    ),
    game.seed !== undefined
      ? h(
          "p",
          {},
          `Seed ${game.seed}, salt ${game.salt}`,
          check,
          " · ",
          h("a", { href: game.record, download: "", id: "record" }, "download the record"),
          " (replay it with uno replay) · ",
          h("a", { href: reviewHref(code, game), "data-link": true, id: "review-record" }, "review this game"),
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
    h("h2", {}, winner === null ? "The game is over" : winner === T.seat ? "You won!" : `${ui.names.Seat(winner)} won`),
    h(
      "ol",
      { class: "ranking", id: "ranking" },
      ranked.map((r) =>
        h("li", { "data-seat": r.seat }, h("span", {}, ui.names.Seat(r.seat)), h("b", {}, `${r.score} pts`)),
      ),
    ),
    ui.isHost()
      ? h("button", { id: "again", class: "play", onclick: ui.again }, "Play again")
      : h("p", { id: "waiting-host" }, "Waiting for the host to start a new game…"),
    game?.over
      ? h(
          "a",
          { href: reviewHref(code, game), "data-link": true, class: "button", id: "review-game" },
          "Review this game",
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
    h("summary", {}, `Earlier games at this table (${done.length})`),
    h(
      "ul",
      {},
      done.map((g) =>
        h(
          "li",
          { "data-game": g.game },
          `Game ${g.game}: `,
          h("a", { href: reviewHref(L.code, g), "data-link": true, class: "review-earlier" }, "review this game"),
          " · ",
          h("a", { href: g.record, download: "" }, "record"),
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
