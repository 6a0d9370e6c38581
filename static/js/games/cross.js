// Domino Cross table: the spinner in the middle and its four arms (north, east, south, west).

import { h, s } from "../dom.js";
import { about, count, t } from "../i18n.js";
import { U, tileGroup } from "../tiles.js";
import { bbox, dropTarget, fitSvg, handTiles, lastPlayed, pieceSize, pointsResult, scoresTable,
  seatRows } from "./common.js";

const ARMS = ["n", "e", "s", "w"];

/**
 * Where the k-th piece of an arm goes, and how its two numbers face. An arm runs straight for
 * `len` pieces, then turns clockwise (north turns east, east south ...): a pinwheel, so the
 * turned parts never meet and a long round still fits the board.
 */
export function place(arm, k, inner, outer, len) {
  const j = k - len; // pieces after the turn
  switch (arm) {
    case "e":
      if (j < 0) return { x: U / 2 + 2 * U * k, y: -U / 2, a: inner, b: outer };
      return { x: U / 2 + 2 * U * len - U, y: U / 2 + 2 * U * j, a: inner, b: outer, vertical: true };
    case "w":
      if (j < 0) return { x: -U / 2 - 2 * U * (k + 1), y: -U / 2, a: outer, b: inner };
      return { x: -U / 2 - 2 * U * len, y: -U / 2 - 2 * U * (j + 1), a: outer, b: inner, vertical: true };
    case "n":
      if (j < 0) return { x: -U / 2, y: -U - 2 * U * (k + 1), a: outer, b: inner, vertical: true };
      return { x: U / 2 + 2 * U * j, y: -U - 2 * U * len, a: inner, b: outer };
    default:
      if (j < 0) return { x: -U / 2, y: U + 2 * U * k, a: inner, b: outer, vertical: true };
      return { x: -U / 2 - 2 * U * (j + 1), y: 2 * U * len, a: outer, b: inner };
  }
}

function board(v, ctx, container) {
  const cross = v.cross;
  const wide = (container.clientWidth || 600) >= (container.clientHeight || 400);
  const straight = (arm) => ((arm === "n" || arm === "s") ? (wide ? 3 : 4) : (wide ? 6 : 3));
  if (!cross.spinner) return h("div", { class: "board-empty" }, t("table.empty_line"));
  const sp = cross.spinner.tile;
  const g = s("g", {});
  const items = [{ x: -U / 2, y: -U, vertical: true }];
  g.append(tileGroup(sp[0], sp[1], -U / 2, -U, { vertical: true, cls: "spinner" }));
  const sel = ctx.selected ? ctx.tileActions(ctx.selected) : [];
  const last = lastPlayed(ctx.log);
  for (const arm of ARMS) {
    const info = cross.arms[arm];
    const isLast = last && last.arm === arm;
    info.tiles.forEach(([inner, outer], k) => {
      const p = place(arm, k, inner, outer, straight(arm));
      items.push(p);
      g.append(tileGroup(p.a, p.b, p.x, p.y, {
        vertical: p.vertical, data: { arm }, cls: isLast && k === info.tiles.length - 1 ? "last" : "",
      }));
    });
    const next = place(arm, info.tiles.length, 0, 0, straight(arm));
    items.push(next);
    const act = sel.length > 1 ? sel.find((a) => a.arm === arm) : null;
    if (act || (!cross.complete && !info.tiles.length)) {
      g.append(dropTarget({
        x: next.x, y: next.y, ...pieceSize(next), cls: act ? "drop" : "slot", data: { arm },
        label: t(`table.arm.${arm}`).slice(0, act ? 8 : 1), onclick: act ? () => ctx.choose(act) : null,
      }));
    }
  }
  return fitSvg(g, bbox(items), "cross-svg", container, 1.1);
}

function roundBlock(ev, v, ctx) {
  return h("div", {},
    h("p", { class: "result-ending" }, t(`result.ending.${ev.ending}`)),
    ev.winner === null || ev.winner === undefined ? null
      : h("p", { class: "result-winner" }, about("result.round_won", ev.winner === ctx.mySeat(),
        { name: ctx.seatName(ev.winner), points: ev.points })),
    scoresTable(seatRows([t("result.pips_left"), t("result.total")], ev.scores.length,
      (i) => [ev.pips ? ev.pips[i] : "", ev.scores[i]]), ctx),
    handTiles(ev.hands, ctx));
}

export default {
  cardTile: [5, 5],
  board,
  result(v, ctx, ev) { return pointsResult(v, ctx, ev, roundBlock); },
  seatInfo(v, seat) { return { lines: [count("table.score", v.scores[seat])] }; },
  subtitle(v) {
    return `${t("round.n", { n: v.round })} · ${t("short.target", { n: v.target })} · ${t("table.boneyard", { n: v.boneyard })}`;
  },
  highlightOf(v) { return v.drawn ? [v.drawn.tile] : null; },
  actionLabel(a) { return a.kind === "draw" ? t("table.draw") : t("table.pass"); },
  choiceQuestion() { return t("table.choose_arm"); },
  choiceLabel(a) { return a.arm ? t(`table.arm.${a.arm}`) : t("table.spinner"); },
  choiceKey(a) { return a.arm || "spinner"; },
};
