// Meja in the browser: signing in (account.js), header (chips, the daily bonus or a refill,
// account, language), hash routes for the lobby (#/), a table (#/t/<id>, also a private table's
// invite link), a private table by its join code (#/join/<code>: sits at its first open seat),
// a game's rules (#/rules/<game>, rules.js), a player's profile (#/p/<id>, the own one from the
// account menu), the player's finished matches (#/history, history.js) and a match's replay
// (#/replay/<id>, replay.js), and the operators' console (#/admin/..., admin.js; /admin
// redirects there).

import { h, clear } from "./dom.js";
import { t, count, LANGS, getLang, setLang, onLang, fmt } from "./i18n.js";
import { api, ApiError } from "./api.js";
import { accountMenu } from "./account.js";
import { mountLanding } from "./landing.js";
import { mountLobby } from "./lobby.js";
import { mountTable } from "./table.js";
import { mountProfile } from "./profile.js";
import { mountHistory } from "./history.js";
import { mountReplay } from "./replay.js";
import { mountRules } from "./rules.js";
import { mountAdmin } from "./admin.js";
import { errorText } from "./errors.js";
import { muteButton } from "./sound.js";
import { loadCatalog } from "./catalog.js";
import { askBuyIn } from "./buy_in.js";
import { explainRefusal } from "./short_chips.js";

const main = document.getElementById("main");
let screen = null;
let me = null;
let reopen = null; // refreshes the header when the next daily bonus opens
let settle = null; // asks again while chips are on their way back to the wallet
let stackHere = null; // the player's stack at the table open now (its socket says), else null
const SETTLE_MS = 1000;
let leftTable = null; // a chips table just left: {name, midRound, from (the wallet then), done}
const SETTLED_SHOWN_MS = 10000;
const PHONE = matchMedia("(max-width: 700px)"); // as the stylesheet's phone layout

export function toast(text, kind = "info") {
  const box = document.getElementById("toasts");
  const el = h("div", { class: `toast toast-${kind}`, role: "status" }, text);
  box.append(el);
  setTimeout(() => el.remove(), 4500);
}


/**
 * Who is signed in (the cookies say; null: nobody), with the wallet and the chip claims. The
 * wallet changes only when a seat is taken or given back (or a claim), and is read again then
 * and on every page change; a cash-out still on its way (`chips_settling`) is asked for again
 * shortly. A stack at the open table comes live from its socket (`showStack`).
 */
async function refreshMe() {
  clearTimeout(settle);
  try {
    me = await api.me();
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) me = null;
    else return; // the server is down: keep what we knew
  }
  if (me?.chips?.chips_settling > 0) settle = setTimeout(refreshMe, SETTLE_MS);
  header();
  settling();
}

/** After leaving a chips table: its chips on their way (the bot finishing the round first,
 * docs/rules.md O-3), then what came back to the wallet, for a few seconds. */
function settling() {
  const box = document.getElementById("notice");
  const left = leftTable;
  if (!left || !me?.chips) { box.hidden = true; return; }
  if (!left.done && me.chips.chips_settling === 0) {
    left.done = true;
    left.back = Math.max(0, me.balance - left.from);
    setTimeout(() => { if (leftTable === left) { leftTable = null; settling(); } }, SETTLED_SHOWN_MS);
  }
  const text = !left.done
    ? t(left.midRound ? "leave.settling.round" : "leave.settling", { name: left.name })
    : left.back > 0 ? count("leave.settled", left.back, { name: left.name })
      : t("leave.settled.none", { name: left.name });
  box.hidden = false;
  box.dataset.state = left.done ? "settled" : "settling";
  box.replaceChildren(h("span", {}, text),
    h("button", { class: "btn btn-ghost", type: "button", "aria-label": t("leave.dismiss"), title: t("leave.dismiss"),
      onclick: () => { leftTable = null; settling(); } }, "×"));
}

function onLeft({ name, midRound }) {
  leftTable = { name, midRound, from: me?.balance ?? 0, done: false };
}

function showStack(n) {
  if (n === stackHere) return;
  stackHere = n;
  header();
}

function header() {
  const chips = document.getElementById("chips");
  const who = document.getElementById("who");
  chips.hidden = !me || me.balance === undefined;
  who.hidden = !me;
  if (me) {
    const n = me.balance ?? 0;
    // at a table, the stack there; elsewhere the chips on tables, when there are any
    const away = stackHere ?? (me.chips?.chips_at_tables || null);
    const where = stackHere !== null ? "chips.here" : "chips.tables";
    // a phone stacks the wallet over the chips on tables ("● 600" / "+400 di meja"), whole,
    // never cut: the number that matters is the sum of both
    chips.replaceChildren(
      h("span", { class: "chips-long" }, `● ${t("chips.wallet", { n })}`,
        away !== null ? h("span", { class: "chips-table" }, ` · ${t(where, { n: away })}`) : null),
      h("span", { class: "chips-short", "aria-hidden": "true" }, h("span", {}, `● ${fmt(n)}`),
        away !== null ? h("span", { class: "chips-table" }, t(`${where}.short`, { n: away })) : null));
    chips.dataset.wallet = n;
    chips.dataset.table = away ?? "";
    chips.title = t("chips.help");
    // drawn again only when what it shows changed: the chips are re-read every second while
    // they settle, and a menu drawn anew under the player's pointer would close
    const shown = JSON.stringify([me.id, me.kind, me.name, me.username, me.role, getLang()]);
    if (who.dataset.shown !== shown) {
      who.dataset.shown = shown;
      who.replaceChildren(accountMenu(me, { changed: signedInOrOut, toast }));
    }
  }
  claimButton();
  muteButton(document.getElementById("mute"));
  document.getElementById("lang-label").textContent = t("lang.label");
  const sel = document.getElementById("lang");
  if (!sel.options.length) {
    for (const [code, name] of LANGS) sel.append(h("option", { value: code, title: name }, name));
    sel.addEventListener("change", () => setLang(sel.value));
  }
  // the menu names each language in full; a phone shows the chosen one's code in its place
  // (the full names do not fit beside the chips, the bonus and the account), the select
  // itself lying unseen over it, so a tap still opens the whole menu
  document.getElementById("lang-code").textContent = getLang().toUpperCase();
  sel.value = getLang();
  document.title = `Meja · ${t("app.tagline")}`;
}

/** What the chip claims offer now (docs/players.md "Free chips"): today's bonus, else a refill
 * while bust, else today's bonus as claimed (disabled, saying when the next one opens). */
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
  // a phone shows a short label over the amount (the whole sentence in aria-label and tooltip)
  btn.replaceChildren(h("span", { class: "chips-long" }, long),
    h("span", { class: "chips-short", "aria-hidden": "true" }, kind === "done" ? "✓"
      : [h("span", { class: "claim-what" }, t(`claim.${kind}.short`)), h("span", {}, `+${fmt(amount)}`)]));
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

/** After signing in, out, or saving the guest: ask the server who we are, then draw. */
async function signedInOrOut() {
  await refreshMe();
  route();
}

let cameFrom = "#/"; // where a rules page goes back to: the table or lobby it was opened from

function route() {
  if (!location.hash.startsWith("#/rules/")) cameFrom = location.hash || "#/";
  screen?.destroy();
  screen = null;
  stackHere = null;
  clear(main);
  header();
  const rules = location.hash.match(/^#\/rules\/(\w+)$/);
  if (rules) { screen = mountRules(main, { game: rules[1], back: cameFrom }); return; } // signed in or not
  if (!me) { screen = mountLanding(main, signedInOrOut); return; }
  const m = location.hash.match(/^#\/t\/([^/?]+)/);
  const p = location.hash.match(/^#\/p\/(\d+)$/);
  const a = location.hash.match(/^#\/admin(?:\/(\w+)(?:\/([^/?]+))?)?$/);
  const r = location.hash.match(/^#\/replay\/([\w-]+)$/); // a match's public id
  const j = location.hash.match(/^#\/join\/([^/?]+)$/);
  if (location.hash === "#/history") {
    screen = mountHistory(main, { errorText });
  } else if (r) {
    screen = mountReplay(main, { matchId: r[1], errorText, onBack: () => { location.hash = "#/history"; } });
  } else if (j) {
    screen = joinLink(decodeURIComponent(j[1]));
  } else if (a) {
    screen = mountAdmin(main, { section: a[1] || "summary", id: a[2] && decodeURIComponent(a[2]), toast, errorText });
  } else if (p) {
    screen = mountProfile(main, { playerId: p[1], errorText, mine: Number(p[1]) === me.id,
      onAvatar: refreshMe, me, toast });
  } else if (m) {
    screen = mountTable(main, {
      tableId: decodeURIComponent(m[1]),
      onLeave: () => { location.hash = "#/"; },
      onLeft,
      onChips: refreshMe,
      onStack: showStack,
      onAuthFail: () => { me = null; route(); },
      toast,
    });
  } else {
    screen = mountLobby(main, {
      open: (id) => { location.hash = `#/t/${encodeURIComponent(id)}`; },
      toast, errorText, refreshMe,
    });
  }
}

/** An invite link (#/join/<code>): the first open seat of that private table (a chips table
 * asks the buy-in; cancelled, the player watches), or watch it when it is full or the player
 * already sits there; a wrong code goes to the lobby, saying why. */
function joinLink(code) {
  let dead = false;
  (async () => {
    let table = null;
    try {
      table = await api.byCode(code);
      const seat = table.seats.findIndex((p) => !p.name && !p.bot);
      const seated = table.seats.some((p) => p.player_id === me.id);
      if (seat >= 0 && !seated) {
        const catalog = await loadCatalog();
        const chips = catalog.games.find((g) => g.name === table.game)?.chips;
        const buyIn = chips ? await askBuyIn(table.stake, catalog.buy_in) : null;
        if (!chips || buyIn !== null) { await api.sit(table.id, seat, buyIn); refreshMe(); }
      }
      if (!dead) location.replace(`#/t/${encodeURIComponent(table.id)}`);
    } catch (err) {
      if (!(await explainRefusal(err, errorText))) toast(errorText(err), "error");
      if (!dead) location.replace(table ? `#/t/${encodeURIComponent(table.id)}` : "#/");
    }
  })();
  return { destroy() { dead = true; } };
}

window.addEventListener("hashchange", () => { route(); refreshMe(); });
window.addEventListener("meja:chips", refreshMe); // chips claimed outside the header (short_chips.js)
document.getElementById("claim").addEventListener("click", claim);
onLang(() => {
  header();
  if (!screen?.rerender) route();
  else screen.rerender();
});
window.meja = Object.assign(window.meja || {}, { fmt, setLang });
signedInOrOut();
