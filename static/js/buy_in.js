// The sit dialog of a chips table: how many chips to bring. Every way of sitting at a chips
// table asks it (the lobby's buttons, a table's seat, an invite link, sitting again). The bounds
// follow the stake (the catalog's `buy_in`, in stakes: app/services/table/stakes.py) and the
// wallet caps them; the server checks the same bounds and refuses by code, so this only saves a
// refused request. The last choice is remembered (in stakes, so it fits any table), and one tap
// on "Duduk" confirms it. A wallet too short for the table says where more chips are (short_chips.js).

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { api } from "./api.js";
import { shortOfChips } from "./short_chips.js";

const REMEMBER = "meja.buy_in.stakes"; // localStorage: the last buy-in, in stakes

/**
 * Pure: what a player with `wallet` chips may bring to a table at `stake` ({min_stakes,
 * max_stakes}: the catalog's `buy_in`). `def` is the server's default, the most allowed
 * capped by the wallet, or `remembered` stakes when given (kept within the bounds and the
 * wallet); `short`: the wallet cannot pay the minimum.
 */
export function buyInRange(stake, bounds, wallet, remembered = null) {
  const low = stake * bounds.min_stakes;
  const high = stake * bounds.max_stakes;
  const cap = Math.min(high, wallet);
  const want = remembered > 0 ? remembered * stake : cap;
  return { low, high, cap, def: Math.max(low, Math.min(want, cap)), short: cap < low };
}

function remembered() {
  try { return Number(localStorage.getItem(REMEMBER)) || null; } catch { return null; }
}

function remember(amount, stake) {
  try { localStorage.setItem(REMEMBER, String(amount / stake)); } catch { /* private mode */ }
}

/**
 * Ask how many chips to bring to a table at `stake`: the amount, or null when the player
 * cancels or cannot pay the minimum (the dialog says so, and where more chips are). The wallet
 * is read afresh. `room`: the stake room a quick join sits in (its title says so).
 */
export async function askBuyIn(stake, bounds, { room = false } = {}) {
  const me = await api.me();
  const wallet = me.balance ?? 0;
  const r = buyInRange(stake, bounds, wallet, remembered());
  if (r.short) {
    await shortOfChips(me, t("buyin.short", { min: r.low, wallet }));
    return null;
  }
  return new Promise((resolve) => {
    const box = h("dialog", { class: "account-dialog buy-in-dialog card", "data-testid": "buy-in" });
    let answer = null;
    const done = (value) => { answer = value; box.close(); };
    box.addEventListener("close", () => { box.remove(); resolve(answer); });
    const input = h("input", { name: "buy_in", type: "number", min: r.low, max: r.cap, step: 1,
      value: r.def, required: true, inputmode: "numeric", "aria-label": t("buyin.amount") });
    const slider = h("input", { type: "range", min: r.low, max: r.cap, step: 1, value: r.def,
      "aria-label": t("buyin.amount"), oninput: () => { input.value = slider.value; } });
    input.addEventListener("input", () => { slider.value = input.value; });
    const set = (n) => { input.value = n; slider.value = n; };
    const err = h("p", { class: "error", role: "alert" });
    const sitBtn = h("button", { class: "btn btn-primary", type: "submit", "data-action": "buy-in" }, t("buyin.sit"));
    const form = h("form", {
      class: "dialog-form", novalidate: true, onsubmit: (e) => {
        e.preventDefault();
        const n = Number(input.value);
        if (!Number.isInteger(n) || n < r.low || n > r.cap) {
          err.textContent = t(n > wallet ? "err.insufficient_chips" : "buyin.out_of_range");
          return;
        }
        remember(n, stake);
        done(n);
      },
    },
    h("label", { class: "field" }, h("span", { class: "field-label" }, t("buyin.amount")), input),
    slider,
    h("div", { class: "row buy-in-picks" },
      h("button", { class: "btn btn-ghost", type: "button", "data-pick": "min", onclick: () => set(r.low) },
        t("buyin.pick.min", { n: r.low })),
      h("button", { class: "btn btn-ghost", type: "button", "data-pick": "max", onclick: () => set(r.cap) },
        t("buyin.pick.max", { n: r.cap }))),
    h("p", { class: "hint" }, t("buyin.range", { min: r.low, max: r.high, wallet })),
    err,
    h("div", { class: "row" }, sitBtn,
      h("button", { class: "btn btn-ghost", type: "button", onclick: () => done(null) }, t("buyin.cancel"))));
    box.append(h("h2", {}, t("buyin.title")),
      h("p", { class: "muted" }, t(room ? "buyin.room" : "buyin.stake", { n: stake })), form);
    document.body.append(box);
    box.showModal();
    sitBtn.focus(); // one tap (or Enter) sits with the amount shown
  });
}
