// Cards as cards: colours, F-5 colour-blind markers, both sides of Flex cards. Presentation only:
// what a card does, in words, is the view's `sides` (the server's words); this draws its face.
import { t } from "./i18n.js";

export const COLORS = { R: "red", Y: "yellow", G: "green", B: "blue" };
export const MARKERS = { Y: "▲", G: "▲▲", B: "▲▲▲", R: "▲▲▲▲" };
// A colour's word for people (COLORS are the page's class names).
export function colourWord(letter) {
  const words = { R: t("red"), Y: t("yellow"), G: t("green"), B: t("blue") };
  return words[String(letter).toUpperCase()] ?? letter;
}
// A coloured card's symbol and (for No Mercy's Skip Everyone and Discard All, N-1) the line under it.
const SYMBOLS = { S: "⊘", R: "⇄", "+2": "+2", "+4": "+4", SE: "⊘", DA: "⇊" };
const COLOURED_SUBS = { SE: "skip all", DA: "discard all" };
// A wild's face: its short name on the card and the line under it.
const WILD_FACES = {
  W: ["W", "wild"],
  "W+4": ["+4", "wild"],
  WAF: ["⟲", "all flip"],
  "FW+2": ["+2", "flex wild"],
  FWA: ["All", "all draw"],
  "FW+4": ["+4", "flex wild"],
  // UNO Show 'Em No Mercy (N-1): Wild Reverse Draw Four, Wild Draw Six, Wild Draw Ten, Wild Color Roulette
  "WR+4": ["+4", "reverse"],
  "W+6": ["+6", "wild"],
  "W+10": ["+10", "wild", "long"], // three characters: a smaller face (style.css)
  WCR: ["?", "color roulette"],
};
// The line under a face (a wild's, or No Mercy's Skip Everyone and Discard All), in the reader's words.
function subWords(key) {
  const words = {
    // TRANSLATORS: printed small on a wild card's face, under its symbol: keep it short (one or two words)
    wild: t("wild"),
    // TRANSLATORS: printed small on a card's face (UNO Flex!'s Wild All Flip): keep it short
    "all flip": t("all flip"),
    // TRANSLATORS: printed small on a card's face (UNO Flex!'s flex wilds): keep it short
    "flex wild": t("flex wild"),
    // TRANSLATORS: printed small on a card's face (UNO Flex!'s Wild All Draw): keep it short
    "all draw": t("all draw"),
    // TRANSLATORS: printed small on a card's face (UNO Show 'Em No Mercy's Wild Reverse Draw Four): keep it short
    reverse: t("reverse"),
    // TRANSLATORS: printed small on a card's face (UNO Show 'Em No Mercy's Wild Color Roulette): keep it short
    "color roulette": t("roulette"),
    // TRANSLATORS: printed small on a card's face (UNO Show 'Em No Mercy's Skip Everyone): keep it short
    "skip all": t("skip all"),
    // TRANSLATORS: printed small on a card's face (UNO Show 'Em No Mercy's Discard All): keep it short
    "discard all": t("discard all"),
  };
  return words[key] ?? key;
}

// The parts of a card's notation the face needs: its colour, rank, flip symbol and flex side (a card's
// notation, as the view's cards are: never a play's).
function faceParts(text) {
  const card = String(text || "");
  if (WILD_FACES[card]) {
    const face = WILD_FACES[card];
    return { wild: true, face, flexwild: card.startsWith("FW"), long: face[2] === "long" };
  }
  const m = /^([RYGB])([0-9]|S|R|\+2|\+4|SE|DA)(!?)(?:\|([RYGB]))?$/.exec(card);
  if (!m) return null;
  const face = [SYMBOLS[m[2]] || m[2], COLOURED_SUBS[m[2]] || null];
  return { wild: false, color: m[1], face, flip: m[3] === "!", flex: m[4] || null };
}

const span = (cls, text, title) => {
  const el = document.createElement("span");
  el.className = cls;
  el.textContent = text;
  if (title) el.title = title;
  return el;
};

// A card element; `size` is "" or "small"; `words` is what the card does (the view's `sides`), for its label.
export function cardElement(text, { legal = false, size = "", words = null } = {}) {
  const c = faceParts(text);
  const el = document.createElement("span");
  el.className = `card ${size}`.trim();
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", words ? `${text}: ${words}` : text);
  el.title = words ? `${text} — ${words}` : text;
  el.dataset.card = text;
  if (!c) {
    el.classList.add("back");
    return el;
  }
  if (legal) el.classList.add("legal");
  if (c.wild) {
    el.classList.add("wild");
    if (c.flexwild) el.classList.add("flexwild");
  } else el.classList.add(COLORS[c.color]);
  el.append(span(c.long ? "face long" : "face", c.face[0]));
  if (c.face[1]) {
    const words = subWords(c.face[1]);
    el.append(span(words.length > 7 && !words.includes(" ") ? "sub long" : "sub", words));
  }
  if (c.color) el.append(span("markers", MARKERS[c.color]));
  if (c.flip) el.append(span("flip", "⟲", t("flip symbol: playing it flips your own Power Card (F-16)")));
  if (c.flex) {
    el.classList.add("has-flex");
    const title = t("flex side: {colour}", { colour: colourWord(c.flex) });
    el.append(span(`flexside ${COLORS[c.flex]}`, MARKERS[c.flex], title));
  }
  return el;
}

export function backElement(count) {
  return span("card back small", count === undefined ? "UNO" : String(count));
}
