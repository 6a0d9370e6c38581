// Every visible string, one dictionary per language. Bahasa Indonesia first, English second.
// t("key", {name: "x"}) fills {name}; a missing key shows as ⟦key⟧ so tests can catch it.
// Sentences that depend on number or person have a form per case under the same key, in both
// languages: "<key>.one" for exactly one ("1 tile"), "<key>.you" when the subject is the viewer
// ("You pay", against "Budi pays"); count() and about() pick the form.

import id from "./lang/id.js";
import en from "./lang/en.js";

export const DICTS = { id, en };
export const LANGS = [["id", "Bahasa Indonesia"], ["en", "English"]];
const KEY = "meja.lang";

// Outside a browser (node --test) there is no saved choice and no page to label.
function saved() {
  try { return globalThis.localStorage?.getItem(KEY); } catch { return null; }
}

let lang = DICTS[saved()] ? saved() : "id";
const listeners = new Set();
if (globalThis.document) document.documentElement.lang = lang;

export function getLang() { return lang; }

export function setLang(next) {
  if (!DICTS[next] || next === lang) return;
  lang = next;
  try { globalThis.localStorage?.setItem(KEY, next); } catch { /* not kept: no storage */ }
  if (globalThis.document) document.documentElement.lang = next;
  for (const f of listeners) f(next);
}

export function onLang(f) { listeners.add(f); return () => listeners.delete(f); }

export function fmt(n) {
  return typeof n === "number" ? new Intl.NumberFormat(lang).format(n) : String(n);
}

export function t(key, params) {
  const text = DICTS[lang][key];
  if (text === undefined) return `⟦${key}⟧`;
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (m, k) => (params[k] !== undefined ? fmt(params[k]) : m));
}

export function has(key) { return key in DICTS[lang]; }

/** A sentence about a number `n`: the key's ".one" form for exactly one, else the key. */
export function count(key, n, params) {
  return t(n === 1 && has(`${key}.one`) ? `${key}.one` : key, { ...params, n });
}

/** A sentence about a player: the key's ".you" form when `you` (the viewer), else the key. */
export function about(key, you, params) {
  return t(you && has(`${key}.you`) ? `${key}.you` : key, params);
}
