// Meja in the browser: signing in (account.js), header (chips, account, language), hash routes
// for the lobby (#/) and a table (#/t/<id>).

import { h, clear } from "./dom.js";
import { t, LANGS, getLang, setLang, onLang, fmt } from "./i18n.js";
import { api, ApiError } from "./api.js";
import { accountMenu, welcome } from "./account.js";
import { mountLobby } from "./lobby.js";
import { mountTable } from "./table.js";
import { errorText } from "./errors.js";

const main = document.getElementById("main");
let screen = null;
let me = null;

export function toast(text, kind = "info") {
  const box = document.getElementById("toasts");
  const el = h("div", { class: `toast toast-${kind}`, role: "status" }, text);
  box.append(el);
  setTimeout(() => el.remove(), 4500);
}


/** Who is signed in (the cookies say; null: nobody), with the wallet's balance. */
async function refreshMe() {
  try {
    me = await api.me();
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) me = null;
    else return; // the server is down: keep what we knew
  }
  header();
}

function header() {
  const chips = document.getElementById("chips");
  const who = document.getElementById("who");
  chips.hidden = !me || me.balance === undefined;
  who.hidden = !me;
  if (me) {
    const n = me.balance ?? 0;
    // a phone shows the number alone, so the language names fit beside it
    chips.replaceChildren(h("span", { class: "chips-long" }, `● ${t("chips.n", { n })}`),
      h("span", { class: "chips-short", "aria-hidden": "true" }, `● ${fmt(n)}`));
    chips.title = t("chips");
    who.replaceChildren(accountMenu(me, { changed: signedInOrOut, toast }));
  }
  document.getElementById("lang-label").textContent = t("lang.label");
  const sel = document.getElementById("lang");
  if (!sel.options.length) {
    for (const [code, name] of LANGS) sel.append(h("option", { value: code }, name));
    sel.addEventListener("change", () => setLang(sel.value));
  }
  sel.value = getLang();
  document.title = `Meja · ${t("app.tagline")}`;
}

/** After signing in, out, or saving the guest: ask the server who we are, then draw. */
async function signedInOrOut() {
  await refreshMe();
  route();
}

function route() {
  screen?.destroy();
  screen = null;
  clear(main);
  header();
  if (!me) { screen = welcome(main, signedInOrOut); return; }
  const m = location.hash.match(/^#\/t\/([^/?]+)/);
  if (m) {
    screen = mountTable(main, {
      tableId: decodeURIComponent(m[1]),
      onLeave: () => { location.hash = "#/"; },
      onChips: refreshMe,
      onAuthFail: () => { me = null; route(); },
    });
  } else {
    screen = mountLobby(main, {
      open: (id) => { location.hash = `#/t/${encodeURIComponent(id)}`; },
      toast, errorText, refreshMe,
    });
  }
}

window.addEventListener("hashchange", route);
onLang(() => {
  header();
  if (!screen?.rerender) route();
  else screen.rerender();
});
window.meja = Object.assign(window.meja || {}, { fmt, setLang });
signedInOrOut();
