// Meja in the browser: guest sign-in, header (chips, the daily bonus or a refill, language),
// hash routes for the lobby (#/), a table (#/t/<id>) and a player's profile (#/p/<id>, the own
// one from the name).

import { h, s, clear } from "./dom.js";
import { t, LANGS, getLang, setLang, onLang, fmt } from "./i18n.js";
import { api, auth, ApiError } from "./api.js";
import { mountLobby } from "./lobby.js";
import { mountTable } from "./table.js";
import { mountProfile } from "./profile.js";
import { errorText } from "./errors.js";

const main = document.getElementById("main");
let screen = null;
let me = null;
let reopen = null; // refreshes the header when the next daily bonus opens

export function toast(text, kind = "info") {
  const box = document.getElementById("toasts");
  const el = h("div", { class: `toast toast-${kind}`, role: "status" }, text);
  box.append(el);
  setTimeout(() => el.remove(), 4500);
}


async function refreshMe() {
  if (!auth.token) return;
  try {
    me = await api.me();
  } catch (err) {
    if (err instanceof ApiError && (err.status === 401 || err.status === 403)) {
      auth.token = null;
      me = null;
      route();
    }
    return;
  }
  header();
}

/** The phone's header shows this instead of the name. */
function personIcon() {
  return s("svg", { viewBox: "0 0 20 20", width: 20, height: 20, "aria-hidden": "true" },
    s("circle", { cx: 10, cy: 6.5, r: 4, fill: "currentColor" }),
    s("path", { d: "M2 19c0-4.4 3.6-7.5 8-7.5s8 3.1 8 7.5z", fill: "currentColor" }));
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
    who.href = `#/p/${encodeURIComponent(me.id)}`;
    who.title = t("profile.mine");
    who.replaceChildren(h("span", { class: "who-long" }, me.name),
      h("span", { class: "who-short", "aria-label": me.name }, personIcon()));
  }
  claimButton();
  document.getElementById("lang-label").textContent = t("lang.label");
  const sel = document.getElementById("lang");
  if (!sel.options.length) {
    for (const [code, name] of LANGS) sel.append(h("option", { value: code }, name));
    sel.addEventListener("change", () => setLang(sel.value));
  }
  sel.value = getLang();
  document.title = `Meja · ${t("app.tagline")}`;
}

/** What the chip claims offer now (README "Economy"): today's bonus, else a refill while bust,
 * else today's bonus as claimed (disabled, saying when the next one opens). */
function offer(c) {
  if (!c) return null;
  if (c.daily.claimable) return "daily";
  if (c.refill.claimable) return "refill";
  return c.daily.next_at ? "done" : null;
}

function claimButton() {
  const btn = document.getElementById("claim");
  const c = me?.chips;
  const kind = offer(c);
  btn.hidden = !kind;
  clearTimeout(reopen);
  if (!kind) return;
  const amount = kind === "refill" ? c.refill.amount : c.daily.amount;
  const long = kind === "daily" ? t("claim.daily", { n: amount, day: c.daily.streak })
    : kind === "refill" ? t("claim.refill", { n: amount })
      : t("claim.daily.done", { day: c.daily.streak });
  // a phone shows the amount alone (the label stays in aria-label and the tooltip)
  btn.replaceChildren(h("span", { class: "chips-long" }, long),
    h("span", { class: "chips-short", "aria-hidden": "true" }, kind === "done" ? "✓" : `+${fmt(amount)}`));
  btn.dataset.kind = kind;
  btn.disabled = kind === "done";
  btn.setAttribute("aria-label", long);
  btn.title = long;
  if (kind === "done") {
    const at = new Date(c.daily.next_at);
    btn.title = t("claim.next", { time: new Intl.DateTimeFormat(getLang(), { timeStyle: "short" }).format(at) });
    reopen = setTimeout(refreshMe, Math.min(Math.max(at - Date.now(), 0) + 1000, 2 ** 31 - 1));
  }
}

async function claim() {
  const btn = document.getElementById("claim");
  const kind = btn.dataset.kind;
  if (kind !== "daily" && kind !== "refill") return;
  btn.disabled = true;
  try {
    const res = await (kind === "daily" ? api.claimDaily() : api.claimRefill());
    me = { ...me, balance: res.chips.balance, chips: res.chips };
    toast(t(`claim.got.${kind}`, { n: res.claim.amount }));
    header();
  } catch (err) {
    toast(errorText(err), "error");
    await refreshMe();
  }
}

function welcome() {
  const err = h("p", { class: "error", role: "alert" });
  const input = h("input", {
    name: "name", minlength: 2, maxlength: 24, required: true, autocomplete: "nickname",
    placeholder: t("welcome.name"), "aria-label": t("welcome.name"),
  });
  const form = h("form", {
    class: "welcome card", onsubmit: async (e) => {
      e.preventDefault();
      const name = input.value.trim();
      if (name.length < 2 || name.length > 24) { err.textContent = t("welcome.bad_name"); return; }
      try {
        const res = await api.register(name);
        auth.token = res.token;
        me = res.player || null;
        await refreshMe();
        route();
      } catch (ex) { err.textContent = errorText(ex); }
    },
  },
  h("h1", {}, t("welcome.title")),
  h("p", { class: "tagline" }, t("app.tagline")),
  h("p", {}, t("welcome.text")), input,
  h("button", { class: "btn btn-primary", type: "submit" }, t("welcome.go")), err);
  main.append(form);
  input.focus();
  return { destroy() { form.remove(); } };
}

function route() {
  screen?.destroy();
  screen = null;
  clear(main);
  header();
  if (!auth.token) { screen = welcome(); return; }
  const m = location.hash.match(/^#\/t\/([^/?]+)/);
  const p = location.hash.match(/^#\/p\/(\d+)$/);
  if (p) {
    screen = mountProfile(main, { playerId: p[1], errorText });
  } else if (m) {
    screen = mountTable(main, {
      tableId: decodeURIComponent(m[1]), token: auth.token,
      onLeave: () => { location.hash = "#/"; },
      onChips: refreshMe,
      onAuthFail: () => { auth.token = null; me = null; route(); },
    });
  } else {
    screen = mountLobby(main, {
      open: (id) => { location.hash = `#/t/${encodeURIComponent(id)}`; },
      toast, errorText, refreshMe,
    });
  }
}

window.addEventListener("hashchange", route);
document.getElementById("claim").addEventListener("click", claim);
onLang(() => {
  header();
  if (!screen?.rerender) route();
  else screen.rerender();
});
window.meja = Object.assign(window.meja || {}, { fmt, setLang });
route();
refreshMe();
