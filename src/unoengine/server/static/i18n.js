// Words in the reader's language (docs/LANGUAGES.md). `t("Start the game")` and
// `tn("{n} seat", "{n} seats", n)` look a message up in the catalog the server compiles from the
// same gettext catalogs as the Python side (GET /i18n/{lang}.json); a message the catalog lacks
// stays English. Placeholders are `{name}`, filled from `args`. Call t() and tn() with literal
// strings only, and never inside a template literal's `${}` with an object argument: the message
// extractor (Babel) reads the calls from this source.

// The languages the server speaks, each by its own name (the picker's list): the page's <html
// data-languages>, written by the server from unoengine.i18n.LANGUAGES.
const listed = document.documentElement.dataset.languages;
export const LANGUAGES = listed ? JSON.parse(listed) : { en: "English" };
const KEY = "uno.lang";
let catalog = { lang: "en", plurals: 2, one: [1], messages: {} };

const fill = (text, args) =>
  args ? text.replace(/\{(\w+)\}/g, (whole, name) => (name in args ? String(args[name]) : whole)) : text;

export function t(message, args) {
  const found = catalog.messages[message];
  return fill(typeof found === "string" ? found : message, args);
}

export function tn(singular, plural, n, args) {
  const all = { n, ...(args || {}) };
  const found = catalog.messages[singular];
  if (Array.isArray(found)) {
    const index = catalog.plurals === 1 ? 0 : catalog.one.includes(n) ? 0 : 1;
    return fill(found[Math.min(index, found.length - 1)], all);
  }
  return fill(n === 1 ? singular : plural, all);
}

export const language = () => catalog.lang;

// The reader's language: the one chosen on this device before, else the browser's first that we speak.
export function preferred() {
  const saved = localStorage.getItem(KEY);
  if (saved && saved in LANGUAGES) return saved;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const code = String(tag).toLowerCase().split(/[-_]/)[0];
    if (code in LANGUAGES) return code;
  }
  return "en";
}

// Load a language's catalog (English needs none), mark the page with it, and remember the choice.
// A catalog that cannot be loaded leaves the page in English words, still marked with the language
// asked for (the server speaks it on its side).
export async function useLanguage(lang, remember = false) {
  const code = lang in LANGUAGES ? lang : "en";
  if (remember) localStorage.setItem(KEY, code);
  let next = { lang: code, plurals: 2, one: [1], messages: {} };
  if (code !== "en") {
    try {
      const answer = await fetch(`/i18n/${code}.json`);
      if (answer.ok) next = { ...next, ...(await answer.json()), lang: code };
    } catch {
      // no catalog: English words
    }
  }
  catalog = next;
  document.documentElement.lang = code;
  return code;
}

// A server path with the reader's language as its `lang` query parameter (the server's words in it).
export const withLang = (path) => `${path}${path.includes("?") ? "&" : "?"}lang=${catalog.lang}`;
