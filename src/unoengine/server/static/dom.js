// Small DOM helpers shared by the page's modules. Presentation only.

// An element: h("button", { class: "x", onclick: f }, "text", child…).
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") el.className = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (v === true) el.setAttribute(k, "");
    else if (v !== false && v !== null && v !== undefined) el.setAttribute(k, v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) el.append(c instanceof Node ? c : String(c));
  return el;
}

// Words for a name written with underscores ("single_round" → "single round").
export const spaced = (name) => name.replaceAll("_", " ");

// A translated text with elements in its placeholders: parts(t("see {link}"), { link: a }) → ["see ", a].
export const parts = (text, nodes) =>
  text.split(/\{(\w+)\}/).map((piece, i) => (i % 2 ? (nodes[piece] ?? `{${piece}}`) : piece));

export const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;
