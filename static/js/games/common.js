// What several game renderers draw alike: the box around board pieces and the viewBox that
// fits it, drop targets, the newest tile played, and the result panel's parts (winners,
// payments, scores, tiles left). The geometry functions are pure (tested by node --test).

import { h, s } from "../dom.js";
import { count, t } from "../i18n.js";
import { U, tileSvg } from "../tiles.js";

/** A piece's size in board units: {w, h} when given, else a tile lying flat or standing. */
export function pieceSize(p) {
  if (p.w !== undefined) return { w: p.w, h: p.h };
  return p.vertical ? { w: U, h: 2 * U } : { w: 2 * U, h: U };
}

/** The bounding box {x0, y0, x1, y1} of pieces placed at their top-left corner (x, y). */
export function bbox(pieces) {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const p of pieces) {
    const { w, h: hh } = pieceSize(p);
    x0 = Math.min(x0, p.x); y0 = Math.min(y0, p.y);
    x1 = Math.max(x1, p.x + w); y1 = Math.max(y1, p.y + hh);
  }
  return { x0, y0, x1, y1 };
}

/**
 * The viewBox [x, y, w, h] showing box with a margin of half a unit, centred, in a container
 * of width x height pixels drawn at most `maxScale` pixels per unit, so a few tiles are not
 * blown up to fill the table.
 */
export function fitViewBox(box, width, height, maxScale = 1) {
  const m = U / 2;
  const w = Math.max(box.x1 - box.x0 + 2 * m, (width || 0) / maxScale);
  const hh = Math.max(box.y1 - box.y0 + 2 * m, (height || 0) / maxScale);
  const cx = (box.x0 + box.x1) / 2, cy = (box.y0 + box.y1) / 2;
  return [cx - w / 2, cy - hh / 2, w, hh];
}

/** Board content in an <svg> fitted to its container (see fitViewBox). */
export function fitSvg(content, box, cls, container, maxScale = 1) {
  const vb = fitViewBox(box, container?.clientWidth, container?.clientHeight, maxScale);
  return s("svg", {
    class: `board-svg ${cls || ""}`, viewBox: vb.join(" "), preserveAspectRatio: "xMidYMid meet",
  }, content);
}

const LABEL_EM = 0.62; // a bold label's average letter width, in font sizes (15 px: .drop text)

/**
 * How a target's label fits its w x h place: along the long side (turned up in a standing
 * place), squeezed to `length` units when its letters would run past the edge ("Selatan" in
 * a tile's width).
 */
export function labelFit(label, w, hgt, font = 15) {
  const turned = hgt > w;
  const room = (turned ? hgt : w) - 8;
  const natural = String(label).length * font * LABEL_EM;
  return { turned, length: natural > room ? room : null };
}

/**
 * A place on the board to click: where the selected tile may go ("drop", gold) or an empty
 * place to come ("slot"). x, y: top-left corner; w, h: its size (a flat tile by default).
 */
export function dropTarget({ x, y, w = 2 * U, h: hh = U, label, onclick, cls = "drop", data }) {
  const fit = labelFit(label, w, hh);
  const g = s("g", { class: cls, transform: `translate(${x} ${y})`, onclick: onclick || null },
    s("rect", { width: w, height: hh, rx: 6 }),
    s("text", {
      x: w / 2, y: hh / 2 + 5, "text-anchor": "middle",
      transform: fit.turned ? `rotate(-90 ${w / 2} ${hh / 2})` : null,
      textLength: fit.length, lengthAdjust: fit.length ? "spacingAndGlyphs" : null,
    }, label));
  for (const [k, v] of Object.entries(data || {})) g.setAttribute(`data-${k}`, v);
  return g;
}

const ROUND_START = new Set(["round_over", "dealt", "round_started"]);

/**
 * The newest "played" event of the current round in the page's event log (the history it was
 * sent with its first state, then every event since), to mark that tile on the board.
 */
export function lastPlayed(log) {
  for (let i = (log?.length || 0) - 1; i >= 0; i--) {
    if (log[i].type === "played") return log[i];
    if (ROUND_START.has(log[i].type)) return null;
  }
  return null;
}

/** The result panel of a points game: the match's winners once over, then the round's block. */
export function pointsResult(v, ctx, ev, roundBlock) {
  const r = v.result;
  const winners = r ? r.winners ?? [r.winner] : [];
  return h("div", { class: "result-body" },
    h("h3", {}, v.over ? t("result.match_title") : t("result.title")),
    v.over ? h("p", { class: "result-winner" },
      t("result.winners", { names: winners.map((x) => ctx.seatName(x)).join(", ") })) : null,
    ev ? roundBlock(ev, v, ctx) : null);
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
        p.pips !== undefined && p.pips !== null ? count("result.pips", p.pips) : "",
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

/** A score table: one row per seat (or side), `cols` headings, `cells[i]` the row's numbers. */
export function scoresTable(rows, ctx) {
  return h("table", { class: "scores", "data-testid": "scores" },
    h("thead", {}, h("tr", {}, h("th", {}, ""), rows.cols.map((c) => h("th", {}, c)))),
    h("tbody", {}, rows.seats.map((seat, i) => h("tr", {},
      h("td", {}, ctx.seatName(seat)), rows.cells[i].map((c) => h("td", { class: "num" }, ctx.fmt(c)))))));
}

/** Rows of scoresTable for every seat of a round, `cells(i)` giving seat i's numbers. */
export function seatRows(cols, n, cells) {
  const seats = Array.from({ length: n }, (_, i) => i);
  return { cols, seats, cells: seats.map(cells) };
}
