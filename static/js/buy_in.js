// The sit dialog of a chips table: how many chips to bring. The bounds follow the stake
// (the catalog's `buy_in`, in stakes: app/services/table/stakes.py) and the wallet caps them; the
// server checks the same bounds and refuses by code, so this only saves a refused request.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { api } from "./api.js";

/**
 * Pure: what a player with `wallet` chips may bring to a table at `stake` ({min_stakes,
 * max_stakes}: the catalog's `buy_in`). `def` is the server's default, the most allowed
 * capped by the wallet; `short`: the wallet cannot pay the minimum.
 */
export function buyInRange(stake, bounds, wallet) {
  const low = stake * bounds.min_stakes;
  const high = stake * bounds.max_stakes;
  const cap = Math.min(high, wallet);
  return { low, high, cap, def: Math.max(low, cap), short: cap < low };
}

/**
 * Ask how many chips to bring to a table at `stake`: the amount, or null when the player
 * cancels or cannot pay the minimum (the dialog says so). The wallet is read afresh.
 */
export async function askBuyIn(stake, bounds) {
  const chips = await api.chips();
  const r = buyInRange(stake, bounds, chips.balance);
  return new Promise((resolve) => {
    const box = h("dialog", { class: "account-dialog buy-in-dialog card", "data-testid": "buy-in" });
    let answer = null;
    const done = (value) => { answer = value; box.close(); };
    box.addEventListener("close", () => { box.remove(); resolve(answer); });
    const head = [h("h2", {}, t("buyin.title")), h("p", { class: "muted" }, t("buyin.stake", { n: stake }))];
    if (r.short) {
      box.append(...head,
        h("p", { class: "error", role: "alert" }, t("buyin.short", { min: r.low, wallet: chips.balance })),
        h("button", { class: "btn", type: "button", onclick: () => done(null) }, t("buyin.cancel")));
    } else {
      const input = h("input", { name: "buy_in", type: "number", min: r.low, max: r.cap, step: 1,
        value: r.def, required: true, inputmode: "numeric", "aria-label": t("buyin.amount") });
      const slider = h("input", { type: "range", min: r.low, max: r.cap, step: 1, value: r.def,
        "aria-label": t("buyin.amount"), oninput: () => { input.value = slider.value; } });
      input.addEventListener("input", () => { slider.value = input.value; });
      const err = h("p", { class: "error", role: "alert" });
      const form = h("form", {
        class: "dialog-form", novalidate: true, onsubmit: (e) => {
          e.preventDefault();
          const n = Number(input.value);
          if (!Number.isInteger(n) || n < r.low || n > r.cap) {
            err.textContent = t(n > chips.balance ? "err.insufficient_chips" : "buyin.out_of_range");
            return;
          }
          done(n);
        },
      },
      h("label", { class: "field" }, h("span", { class: "field-label" }, t("buyin.amount")), input),
      slider,
      h("p", { class: "hint" }, t("buyin.range", { min: r.low, max: r.high, wallet: chips.balance })),
      err,
      h("div", { class: "row" },
        h("button", { class: "btn btn-primary", type: "submit", "data-action": "buy-in" }, t("buyin.sit")),
        h("button", { class: "btn btn-ghost", type: "button", onclick: () => done(null) }, t("buyin.cancel"))));
      box.append(...head, form);
    }
    document.body.append(box);
    box.showModal();
    box.querySelector("input")?.focus();
  });
}
