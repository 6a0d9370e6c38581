// Pieces shared by the game renderers: fitting a board into its box, payments, hands.

import { h, s } from "../dom.js";
import { t } from "../i18n.js";
import { U, tileSvg } from "../tiles.js";

/**
 * Wrap board content in an <svg> whose viewBox fits box (board units) with a margin, drawn at
 * most `maxScale` pixels per unit in its container, so a few tiles are not blown up to fill
 * the table.
 */
export function fitSvg(content, box, cls, container, maxScale = 1) {
  const m = U / 2;
  const minW = (container?.clientWidth || 0) / maxScale;
  const minH = (container?.clientHeight || 0) / maxScale;
  const w = Math.max(box.x1 - box.x0 + 2 * m, minW), hh = Math.max(box.y1 - box.y0 + 2 * m, minH);
  const cx = (box.x0 + box.x1) / 2, cy = (box.y0 + box.y1) / 2;
  const vb = [cx - w / 2, cy - hh / 2, w, hh];
  return s("svg", {
    class: `board-svg ${cls || ""}`, viewBox: vb.join(" "), preserveAspectRatio: "xMidYMid meet",
  }, content);
}

export function paymentsTable(payments, ctx) {
  if (!payments || !payments.length) return null;
  return h("div", { class: "payments" },
    h("h4", {}, t("result.payments")),
    h("table", { "data-testid": "payments" },
      h("tbody", {}, payments.map((p) => h("tr", {
        class: `pay pay-${p.kind}`, "data-payer": p.payer, "data-payee": p.payee, "data-amount": p.amount,
      },
      h("td", {}, t(`result.pay.${p.kind}`)),
      h("td", {}, `${ctx.seatName(p.payer)} → ${ctx.seatName(p.payee)}`),
      h("td", { class: "num" }, ctx.fmt(p.amount)),
      h("td", { class: "muted" }, [
        p.pips !== undefined && p.pips !== null ? t("result.pips", { n: p.pips }) : "",
        p.shortfall ? ` · ${t("result.shortfall", { n: p.shortfall })}` : "",
      ]))))));
}

export function handTiles(hands, ctx) {
  if (!hands) return null;
  return h("div", { class: "hands-left" },
    h("h4", {}, t("result.hands")),
    hands.map((hand, seat) => h("div", { class: "hand-left" },
      h("span", { class: "hand-left-name" }, ctx.seatName(seat)),
      h("span", { class: "mini-tiles" }, hand.map((x) => tileSvg(x[0], x[1], { cls: "mini" }))))));
}

export function scoresTable(rows, ctx) {
  return h("table", { class: "scores", "data-testid": "scores" },
    h("thead", {}, h("tr", {}, h("th", {}, ""), rows.cols.map((c) => h("th", {}, c)))),
    h("tbody", {}, rows.seats.map((seat, i) => h("tr", {},
      h("td", {}, ctx.seatName(seat)), rows.cells[i].map((c) => h("td", { class: "num" }, ctx.fmt(c)))))));
}

/** The newest "played" event still in the view's recent events (to mark that tile). */
export function lastPlayed(v) {
  const evs = v.last_events || [];
  for (let i = evs.length - 1; i >= 0; i--) {
    if (evs[i].type === "played") return evs[i];
    if (evs[i].type === "round_over" || evs[i].type === "dealt" || evs[i].type === "round_started") return null;
  }
  return null;
}
