// Domino Cross table: the spinner in the middle and its four arms (north, east, south, west).

import { h, s } from "../dom.js";
import { about, count, t } from "../i18n.js";
import { U, tileGroup } from "../tiles.js";
import { bbox, dropTarget, fitSvg, handTiles, lastPlayed, pieceSize, pointsResult, scoresTable,
  seatRows } from "./common.js";

const ARMS = ["n", "e", "s", "w"];
const MAX_SCALE = 1.35; // pixels per unit: the board's tiles as big as the hand's, no bigger

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

/** Every piece of the cross (the spinner, each arm's tiles and its next place) for straight
 * runs of `ns` (north, south) and `ew` (east, west) pieces before an arm turns. */
export function crossPieces(lengths, ns, ew) {
  const items = [{ x: -U / 2, y: -U, vertical: true }];
  for (const arm of ARMS) {
    const len = arm === "n" || arm === "s" ? ns : ew;
    for (let k = 0; k <= lengths[arm]; k++) items.push(place(arm, k, 0, 0, len));
  }
  return items;
}

/**
 * The straight runs that draw a cross biggest in a w x h box (its arms' `lengths` in tiles),
 * up to `maxScale` pixels per unit: a long round turns its arms sooner on a narrow board,
 * later on a wide one, and arms turn only when that draws the cross bigger. The pinwheel's
 * turned parts never meet (place), so every choice is a valid picture.
 */
export function bestCross(lengths, w, hgt, maxScale = Infinity) {
  let best = null; // on a tie, the longer straight runs: a cross more than a pinwheel
  for (let ns = 8; ns >= 1; ns--) {
    for (let ew = 12; ew >= 1; ew--) {
      const box = bbox(crossPieces(lengths, ns, ew));
      const scale = Math.min(maxScale, w / (box.x1 - box.x0 + U), hgt / (box.y1 - box.y0 + U));
      if (!best || scale > best.scale + 1e-6) best = { ns, ew, scale };
    }
  }
  return best;
}

/**
 * The choices for a tile that fits several arms, one per board they lead to: the arms are
 * alike in the rules (C-4, C-9 count ends and pips, never which arm), so two plays that leave
 * the same open ends (an empty arm during the cross, or two arms ending in the same number)
 * are one choice, and the page plays it on the shorter arm without asking.
 */
export function distinctPlays(acts, arms) {
  const seen = new Map();
  for (const a of acts) {
    if (!a.arm) return acts; // the opening spinner: nothing to choose
    const ends = ARMS.map((arm) => (arm === a.arm
      ? `${a.tile[0] === arms[arm].end ? a.tile[1] : a.tile[0]}+`
      : `${arms[arm].end}${arms[arm].tiles.length ? "+" : ""}`)).sort().join(",");
    const kept = seen.get(ends);
    if (!kept || arms[a.arm].tiles.length < arms[kept.arm].tiles.length) seen.set(ends, a);
  }
  return [...seen.values()];
}

function board(v, ctx, container) {
  const cross = v.cross;
  if (!cross.spinner) return h("div", { class: "board-empty" }, t("table.empty_line"));
  const lengths = Object.fromEntries(ARMS.map((arm) => [arm, cross.arms[arm].tiles.length]));
  const { ns, ew } = bestCross(lengths, container.clientWidth || 600, container.clientHeight || 400,
    MAX_SCALE);
  const straight = (arm) => (arm === "n" || arm === "s" ? ns : ew);
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
        label: act ? t(`table.arm.${arm}`) : t(`table.arm.${arm}`).slice(0, 1),
        onclick: act ? () => ctx.choose(act) : null,
      }));
    }
  }
  return fitSvg(g, bbox(items), "cross-svg", container, MAX_SCALE);
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
  choices(acts, v) { return distinctPlays(acts, v.cross.arms); },
};
