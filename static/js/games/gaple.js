// Gaple table: the line of play as a snake that bends to stay inside the board, stacks of
// chips per seat, Lewat (pass) and the round result with its multiplier and payments.

import { h, s } from "../dom.js";
import { count, t } from "../i18n.js";
import { U, tileGroup } from "../tiles.js";
import { bbox, dropTarget, fitSvg, handTiles, lastPlayed, paymentsTable } from "./common.js";

/**
 * Lay the line out in rows of `cols` units, alternating direction; the tile that does not fit
 * turns the corner standing up. Returns placed pieces and where each open end continues.
 */
export function snake(line, cols) {
  const W = cols * U;
  const out = [];
  let row = 0, dir = 1, cursor = 0, firstInRow = true;
  for (const [l, r] of line) {
    const dbl = l === r;
    const yc = row * 2 * U;
    const len = dbl && !firstInRow ? U : 2 * U;
    const fits = dir === 1 ? cursor + len <= W - U : cursor - len >= U;
    if (!fits && !firstInRow) { // the corner piece, standing, then the next row turns back
      const x = dir === 1 ? cursor : cursor - U;
      out.push({ a: l, b: r, x, y: yc - U / 2, vertical: true });
      row += 1;
      cursor = dir === 1 ? x + U : x;
      dir = -dir;
      firstInRow = true;
      continue;
    }
    if (len === U) { // a double across the line
      const x = dir === 1 ? cursor : cursor - U;
      out.push({ a: l, b: r, x, y: yc - U, vertical: true });
      cursor += dir * U;
    } else {
      const x = dir === 1 ? cursor : cursor - 2 * U;
      out.push(dir === 1 ? { a: l, b: r, x, y: yc - U / 2 } : { a: r, b: l, x, y: yc - U / 2 });
      cursor += dir * 2 * U;
    }
    firstInRow = false;
  }
  const lastY = row * 2 * U - U / 2;
  const left = { x: -2 * U - U / 4, y: -U / 2 };
  const right = { x: dir === 1 ? cursor + U / 4 : cursor - 2 * U - U / 4, y: lastY };
  return { pieces: out, left, right };
}

const COMFORT = 0.9; // tiles this big (and bigger) are easy to read: then prefer fewer bends

/** The row width that shows the line big enough with the fewest bends in a w x h box. */
export function bestLayout(line, w, hgt) {
  let best = null;
  for (let cols = 31; cols >= 7; cols -= 1) {
    const lay = snake(line, cols);
    const box = bbox([...lay.pieces, lay.left, lay.right]);
    const scale = Math.min(w / (box.x1 - box.x0 + U), hgt / (box.y1 - box.y0 + U), COMFORT);
    if (!best || scale > best.scale + 1e-6) best = { lay, box, scale };
  }
  return best;
}

function board(v, ctx, container) {
  const w = container.clientWidth || 600, hgt = container.clientHeight || 300;
  if (!v.line.length) return h("div", { class: "board-empty" }, t("table.empty_line"));
  const { lay, box } = bestLayout(v.line, w, hgt);
  const root = s("g", {});
  const last = lastPlayed(ctx.log);
  const fresh = !last ? -1 : last.end === "right" ? lay.pieces.length - 1 : 0;
  lay.pieces.forEach((p, i) => root.append(tileGroup(p.a, p.b, p.x, p.y, {
    vertical: p.vertical, data: { i }, cls: i === fresh ? "last" : "",
  })));
  const sel = ctx.selected ? ctx.tileActions(ctx.selected) : [];
  for (const end of ["left", "right"]) {
    const act = sel.find((a) => a.end === end);
    if (!act || sel.length < 2) continue;
    const at = lay[end];
    root.append(dropTarget({
      x: at.x, y: at.y, label: t(`table.end.${end}`), onclick: () => ctx.choose(act),
      data: { end },
    }));
  }
  return fitSvg(root, box, "line-svg", container, 1.1);
}

/** What the round's payments (Lewat and settlement) came to for the seats `mine(seat)` picks. */
export function netOf(payments, mine) {
  let net = 0;
  for (const p of payments || []) {
    if (mine(p.payee)) net += p.amount;
    if (mine(p.payer)) net -= p.amount;
  }
  return net;
}

/** The viewer's own net for the round, first thing in the result (a spectator has none). */
function ownNet(r, ctx) {
  if (ctx.myTableSeat() === null) return null;
  const net = netOf(r.payments, ctx.isMe);
  const key = net > 0 ? "result.net.won" : net < 0 ? "result.net.paid" : "result.net.even";
  return h("p", { class: `result-net ${net > 0 ? "net-won" : net < 0 ? "net-paid" : ""}`,
    "data-testid": "net", "data-net": net }, t(key, { n: Math.abs(net) }));
}

function result(v, ctx) {
  const r = v.result;
  const mult = r.multiplier;
  return h("div", { class: "result-body" },
    h("h3", {}, t("result.title")),
    ownNet(r, ctx),
    h("p", { class: "result-winner", "data-winner": r.winner }, t("result.winner", { name: ctx.seatName(r.winner) })),
    h("p", { class: "result-ending" }, t(`result.ending.${r.ending}`)),
    h("div", { class: `multiplier mult-${mult.value}`, "data-testid": "multiplier", "data-value": mult.value },
      h("span", { class: "mult-label" }, t("result.multiplier")),
      h("strong", {}, t(`mult.${mult.name}`))),
    paymentsTable(r.payments, ctx),
    handTiles(r.hands, ctx));
}

export default {
  cardTile: [6, 6],
  board,
  result,
  seatInfo(v, seat) {
    return { lines: [count("table.stack", v.stacks[seat])] };
  },
  subtitle(v) {
    return `${t("table.stake", { n: v.stake })} · ${t(v.field === "bet" ? "short.field.bet" : "short.field.normal")}`;
  },
  actionLabel(a) { return a.kind === "pass" ? t("table.pass") : a.kind; },
  choiceQuestion() { return t("table.choose_end"); },
  choiceLabel(a) { return t(`table.end.${a.end}`); },
  choiceKey(a) { return a.end; },
};
