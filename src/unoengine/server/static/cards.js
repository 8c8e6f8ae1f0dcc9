// Cards as cards: colours, F-5 colour-blind markers, both sides of Flex cards. Presentation only.
export const COLORS = { R: "red", Y: "yellow", G: "green", B: "blue" };
export const MARKERS = { Y: "▲", G: "▲▲", B: "▲▲▲", R: "▲▲▲▲" };
const SYMBOLS = { S: "⊘", R: "⇄", "+2": "+2" };
const WILDS = { W: "Wild", "W+4": "Wild +4", WAF: "Wild All Flip", "FW+2": "Flex Wild +2", FWA: "Flex Wild All Draw", "FW+4": "Flex Wild +4" };
const RANK_WORDS = { S: "Skip", R: "Reverse", "+2": "Draw Two" };

export function parseCard(text) {
  if (!text) return null;
  if (WILDS[text]) return { text, wild: true, rank: text, color: null, flex: null };
  const m = /^([RYGB])([0-9]!?|S|R|\+2)(?:\|([RYGB]))?$/.exec(text);
  if (!m) return { text, wild: false, rank: text, color: null, flex: null };
  return { text, wild: false, color: m[1], rank: m[2], flex: m[3] || null };
}

export function cardWords(text) {
  const c = parseCard(text);
  if (!c) return "";
  if (c.wild) return WILDS[c.rank];
  let base = `${COLORS[c.color]} ${RANK_WORDS[c.rank] || c.rank.replace("!", " with flip symbol")}`;
  if (c.flex) base += `, flex side ${COLORS[c.flex]}`;
  return base;
}

function face(rank) {
  if (WILDS[rank]) return rank.startsWith("FW") ? rank.slice(2) || "A" : rank === "W" ? "W" : rank.replace("W", "");
  return SYMBOLS[rank] || rank;
}

// A card element; `size` is "" or "small".
export function cardElement(text, { legal = false, size = "", markers = true } = {}) {
  const c = parseCard(text);
  const el = document.createElement("span");
  el.className = `card ${size}`;
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", cardWords(text));
  el.title = `${text} — ${cardWords(text)}`;
  el.dataset.card = text;
  if (!c) { el.classList.add("back"); return el; }
  if (legal) el.classList.add("legal");
  if (c.wild) {
    el.classList.add("wild");
    if (c.rank.startsWith("FW")) el.classList.add("flexwild");
  } else {
    el.classList.add(COLORS[c.color] || "unknown");
  }
  const main = document.createElement("span");
  main.className = "face";
  main.textContent = c.wild ? face(c.rank) : face(c.rank);
  el.append(main);
  if (markers && c.color) {
    const mk = document.createElement("span");
    mk.className = "markers";
    mk.textContent = MARKERS[c.color];
    el.append(mk);
  }
  if (c.flex) {
    const side = document.createElement("span");
    side.className = `flexside ${COLORS[c.flex]}`;
    side.textContent = `flex ${markers ? MARKERS[c.flex] : c.flex}`;
    side.title = `flex side: ${COLORS[c.flex]} (played with a green Power Card)`;
    el.append(side);
  }
  return el;
}

export function backElement(count) {
  const el = document.createElement("span");
  el.className = "card back small";
  el.textContent = count === undefined ? "UNO" : String(count);
  return el;
}
