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
const SYMBOLS = { S: "⊘", R: "⇄", "+2": "+2" };
// A wild's face: its short name on the card and the line under it.
const WILD_FACES = {
  W: ["W", "wild"],
  "W+4": ["+4", "wild"],
  WAF: ["⟲", "all flip"],
  "FW+2": ["+2", "flex wild"],
  FWA: ["All", "all draw"],
  "FW+4": ["+4", "flex wild"],
};
// The line under a wild's face, in the reader's words.
function wildWords(key) {
  const words = {
    // TRANSLATORS: printed small on a wild card's face, under its symbol: keep it short (one or two words)
    wild: t("wild"),
    // TRANSLATORS: printed small on a card's face (UNO Flex!'s Wild All Flip): keep it short
    "all flip": t("all flip"),
    // TRANSLATORS: printed small on a card's face (UNO Flex!'s flex wilds): keep it short
    "flex wild": t("flex wild"),
    // TRANSLATORS: printed small on a card's face (UNO Flex!'s Wild All Draw): keep it short
    "all draw": t("all draw"),
  };
  return words[key] ?? key;
}

// The parts of a card's notation the face needs: its colour, rank, flip symbol and flex side.
function faceParts(text) {
  if (WILD_FACES[text]) return { wild: true, face: WILD_FACES[text], flexwild: text.startsWith("FW") };
  const m = /^([RYGB])([0-9]|S|R|\+2)(!?)(?:\|([RYGB]))?$/.exec(text || "");
  if (!m) return null;
  return { wild: false, color: m[1], face: [SYMBOLS[m[2]] || m[2], null], flip: m[3] === "!", flex: m[4] || null };
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
  el.append(span("face", c.face[0]));
  if (c.face[1]) el.append(span("sub", wildWords(c.face[1])));
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
