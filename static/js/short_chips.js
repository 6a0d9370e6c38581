// Too few chips to sit (the sit dialog's own check, or the server's 409 `insufficient_chips` /
// `room_locked`): a dialog that says so and where more chips are: today's daily bonus or a
// refill, claimed here with one tap, and the chips sitting at the player's other tables, each
// named with a way back to it (docs/players.md "Stake rooms").

import { h } from "./dom.js";
import { t, getLang } from "./i18n.js";
import { api } from "./api.js";

/** The codes of a refusal for too few chips. */
export const SHORT_CODES = ["insufficient_chips", "room_locked"];

/** Tell the page's header that the wallet changed (app.js reads it again). */
function chipsChanged() { window.dispatchEvent(new CustomEvent("meja:chips")); }

/** The bonus line: a claim button when the bonus (or, when bust, a refill) is open now. */
function claimLine(chips) {
  const kind = chips?.daily?.claimable ? "daily" : chips?.refill?.claimable ? "refill" : null;
  if (!kind) {
    if (!chips?.daily?.next_at) return null;
    const at = new Intl.DateTimeFormat(getLang(), { timeStyle: "short" }).format(new Date(chips.daily.next_at));
    return h("p", { class: "muted", "data-help": "bonus-later" }, t("short.bonus_later", { time: at }));
  }
  const amount = kind === "daily" ? chips.daily.amount : chips.refill.amount;
  const line = h("p", { "data-help": "bonus" }, t(`short.${kind}`, { n: amount }), " ");
  const btn = h("button", { class: "btn btn-primary", type: "button", "data-action": "claim-bonus",
    onclick: async () => {
      btn.disabled = true;
      try {
        const res = await (kind === "daily" ? api.claimDaily() : api.claimRefill());
        line.replaceChildren(t(`claim.got.${kind}`, { n: res.claim.amount }));
        chipsChanged();
      } catch { btn.disabled = false; }
    } }, t(`short.claim.${kind}`));
  line.append(btn);
  return line;
}

/** The player's other tables holding chips: "Gaple · taruhan 10: 1.000 chip" and the way back. */
function heldLines(tables, me, close) {
  const held = tables.map((x) => ({ x, seat: (x.seats || []).find((p) => p && p.player_id === me.id) }))
    .filter(({ seat }) => seat?.stack > 0);
  if (!held.length) return [];
  return [h("p", {}, t("short.held")), h("ul", { class: "short-held" }, held.map(({ x, seat }) =>
    h("li", { "data-table": x.id },
      h("span", {}, t("short.held.table", { game: t(`game.${x.game}`), stake: x.stake, n: seat.stack })),
      h("a", { class: "btn btn-ghost", href: `#/t/${encodeURIComponent(x.id)}`, "data-action": "back",
        onclick: close }, t("lobby.back")))))];
}

/**
 * Say that the wallet is too short (`message`) and where more chips are; resolves when closed.
 * `me`: api.me()'s answer (read afresh when not given).
 */
export async function shortOfChips(me, message) {
  me ??= await api.me();
  const tables = await api.myTables().catch(() => []);
  return new Promise((resolve) => {
    const box = h("dialog", { class: "account-dialog short-dialog card", "data-testid": "short-chips" });
    box.addEventListener("close", () => { box.remove(); resolve(); });
    const close = () => box.close();
    const settling = me.chips?.chips_settling > 0
      ? h("p", { class: "muted" }, t("short.settling", { n: me.chips.chips_settling })) : null;
    box.append(...[h("h2", {}, t("short.title")),
      h("p", { class: "error", role: "alert" }, message),
      claimLine(me.chips), ...heldLines(tables, me, close), settling,
      h("div", { class: "row" }, h("button", { class: "btn", type: "button", "data-action": "close", onclick: close },
        t("short.close")))].filter(Boolean));
    document.body.append(box);
    box.showModal();
  });
}

/** A refused sit: a refusal for too few chips opens the dialog (true), and the header reads
 * the wallet again (it moved elsewhere); anything else is the caller's to show (false). */
export async function explainRefusal(err, errorText) {
  if (!SHORT_CODES.includes(err?.code)) return false;
  chipsChanged();
  await shortOfChips(null, errorText(err));
  return true;
}
