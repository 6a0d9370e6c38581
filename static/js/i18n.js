// Every visible string, one dictionary per language. Bahasa Indonesia first, English second.
// t("key", {name: "x"}) fills {name}; a missing key shows as ⟦key⟧ so tests can catch it.

import id from "./lang/id.js";
import en from "./lang/en.js";

export const DICTS = { id, en };
export const LANGS = [["id", "Bahasa Indonesia"], ["en", "English"]];
const KEY = "meja.lang";

let lang = DICTS[localStorage.getItem(KEY)] ? localStorage.getItem(KEY) : "id";
const listeners = new Set();
document.documentElement.lang = lang;

export function getLang() { return lang; }

export function setLang(next) {
  if (!DICTS[next] || next === lang) return;
  lang = next;
  localStorage.setItem(KEY, next);
  document.documentElement.lang = next;
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
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in params ? fmt(params[k]) : m));
}

export function has(key) { return key in DICTS[lang]; }
