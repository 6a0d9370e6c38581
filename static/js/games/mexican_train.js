// Mexican Train table: the engine in the hub, one row per personal train plus the Mexican
// Train, markers on open trains, and the double that must be covered.

import { h, s } from "../dom.js";
import { count, t } from "../i18n.js";
import { U, tileGroup } from "../tiles.js";
import { dropTarget, handTiles, lastPlayed, pointsResult, scoresTable, seatRows } from "./common.js";
import { trainName } from "../events.js";

/**
 * Row geometries. Wide boards put each train's name left of its tiles; narrow (phone) boards
 * put it above them and shrink the hub, so more of every train stays in view. With many
 * trains the rows are tighter (a phone's names go back beside the tiles), so that every
 * train still fits the board's height at a size whose pips can be read.
 */
const GEOMETRIES = {
  wide: [
    { row: 1.5 * U, hub: 2.6 * U, gap: U, label: 3.6 * U, tileDy: 0, engine: 1, floor: 0.8 },
    { row: 1.2 * U, hub: 2.4 * U, gap: U, label: 3.6 * U, tileDy: 0, engine: 0.9, floor: 0.8 },
  ],
  narrow: [
    { row: 1.9 * U, hub: 1.9 * U, gap: U / 2, label: U / 4, tileDy: 0.35 * U, engine: 0.8, floor: 0.7, above: true },
    { row: 1.2 * U, hub: 1.3 * U, gap: U / 4, label: 1.9 * U, tileDy: 0, engine: 0.6, floor: 0.75 },
  ],
};
const LINE = 1.15 * U; // a row's further line of tiles, when the board has the height for it

/**
 * Where the rows go in a board of wpx x hpx pixels: `rows` trains, the longest `longest`
 * tiles, in the size class's first geometry whose rows fit the height at its floor scale
 * (else its tightest). A tall board gives each row up to three `lines` of tiles, when that
 * draws them bigger. The scale (pixels per unit) fits the rows' height, and the longest
 * train unless that would go below the floor: then older tiles give way to "+k" and each row
 * shows its `visible` newest.
 */
export function trainLayout(rows, longest, wpx, hpx) {
  const narrow = wpx < 500;
  const all = GEOMETRIES[narrow ? "narrow" : "wide"];
  const G = all.find((g) => hpx / (rows * g.row) >= g.floor) || all[all.length - 1];
  return { narrow, ...rowsIn(G, rows, longest, wpx, hpx) };
}

function rowsIn(G, rows, longest, wpx, hpx) {
  const x0 = G.hub + G.gap; // where rows begin
  const tilesX = x0 + G.label;
  let best = null;
  for (let lines = 1; lines <= 3; lines++) {
    const row = G.row + (lines - 1) * LINE;
    const height = rows * row;
    // room for "+k" (half a tile) and the drop target after the newest tile
    const spare = lines > 1 ? 2 : 1;
    const need = tilesX + 2 * U * Math.ceil((longest + spare) / lines) + U / 2;
    const scale = Math.min(1.2, hpx / height, Math.max(G.floor, wpx / need));
    const width = Math.max(wpx / scale, tilesX + 6 * U);
    const perLine = Math.floor((width - tilesX - U / 2) / (2 * U));
    const visible = Math.max(2, perLine * lines - spare);
    const lay = { G, row, lines, height, x0, tilesX, scale, width, visible };
    if (!best || lay.scale > best.scale * 1.05) best = lay; // a further line: when clearly bigger
  }
  return best;
}

/** Trains as rows fanning out of the hub; each row keeps its newest tiles in view. */
function board(v, ctx, container) {
  const rows = [...v.trains.map((tr) => ({ key: tr.seat, ...tr })), { key: "mexican", ...v.mexican, marker: false }];
  const { G, row: rowH, lines, height, x0, tilesX, width, visible } = trainLayout(rows.length,
    Math.max(...rows.map((r) => r.tiles.length)), container.clientWidth || 600,
    container.clientHeight || 400);
  const sel = ctx.selected ? ctx.tileActions(ctx.selected) : [];
  const must = v.must_cover?.train;
  const last = lastPlayed(ctx.log);
  const g = s("g", {});
  const [e] = v.hub.tile;
  const midY = height / 2;
  rows.forEach((row, i) => {
    const y = i * rowH + rowH / 2;
    g.append(s("path", { class: "spoke", d: `M${G.hub / 2} ${midY} C${G.hub} ${midY}, ${G.hub / 2} ${y}, ${x0} ${y}` }));
  });
  g.append(s("circle", { class: "hub", cx: G.hub / 2, cy: midY, r: G.hub / 2 }));
  g.append(s("g", { transform: `translate(${G.hub / 2} ${midY}) scale(${G.engine})` },
    tileGroup(e, e, -U / 2, -U, { vertical: true, cls: "engine" })));
  rows.forEach((row, i) => {
    const y = i * rowH + rowH / 2;
    const act = sel.length > 1 ? sel.find((a) => a.train === row.key) : null;
    const isMust = must !== undefined && must !== null && String(must) === String(row.key);
    const mine = row.key === ctx.mySeat();
    const rg = s("g", {
      class: `train ${row.key === "mexican" ? "mexican" : ""} ${mine ? "mine" : ""} ${act ? "drop-row" : ""} ${isMust ? "must" : ""}`,
      "data-train": row.key, onclick: act ? () => ctx.choose(act) : null,
    });
    rg.append(s("rect", { class: "train-bg", x: x0, y: y - rowH / 2 + 3, width: width - x0, height: rowH - 6, rx: 8 }));
    const ty = y - (U + (lines - 1) * LINE) / 2 + G.tileDy; // the first line's top
    const label = row.key === "mexican" ? t("train.mexican") : ctx.seatName(row.key);
    const short = label.length > 9 && !G.above ? `${label.slice(0, 8)}…` : label;
    rg.append(G.above
      ? s("text", { class: "train-label small", x: x0 + 8, y: ty - 0.3 * U }, short)
      : s("text", { class: `train-label ${G.label < 3 * U ? "small" : ""}`, x: x0 + 8, y: ty + U / 2 + 6 }, short));
    if (row.marker) {
      const mx = G.above ? width - U : tilesX - U * 0.75, my = G.above ? ty - 0.7 * U : ty + 0.2 * U;
      rg.append(s("g", { class: "marker", transform: `translate(${mx} ${my})` },
        s("title", { text: t("train.marker") }),
        s("path", { d: `M0 ${U * 0.6} L${U * 0.3} 0 L${U * 0.6} ${U * 0.6} Z` })));
    }
    const tiles = row.tiles;
    const from = Math.max(0, tiles.length - visible);
    let x = tilesX, line = 0;
    const next = (w) => { // the place of the next piece, w wide: on, or the row's next line
      if (x + w > width && x > tilesX) { line += 1; x = tilesX; }
      const at = { x, y: ty + line * LINE };
      x += w;
      return at;
    };
    if (from > 0) {
      const at = next(U);
      rg.append(s("text", { class: "more", x: at.x + U / 2, y: at.y + U / 2 + 5, "text-anchor": "middle" }, `+${from}`));
    }
    const isLast = last && String(last.train) === String(row.key);
    tiles.slice(from).forEach(([a, b], k) => {
      const cls = isLast && from + k === tiles.length - 1 ? "last" : "";
      const at = next(2 * U);
      rg.append(tileGroup(a, b, at.x, at.y, { vertical: false, cls }));
    });
    if (act) rg.append(dropTarget({ ...next(2 * U), label: "+" }));
    g.append(rg);
  });
  return s("svg", {
    class: "board-svg trains-svg", viewBox: `0 0 ${width} ${height}`,
    preserveAspectRatio: "xMidYMid meet",
  }, g);
}

function roundBlock(ev, v, ctx) {
  return h("div", {},
    h("p", { class: "result-ending" }, t(`result.ending.${ev.ending === "out" ? "out" : "blocked"}`),
      ev.out?.length ? ` · ${ev.out.map((x) => ctx.seatName(x)).join(", ")}` : ""),
    scoresTable(seatRows([t("result.round_score"), t("result.total")], ev.scores.length,
      (i) => [ev.scores[i], ev.totals[i]]), ctx),
    handTiles(ev.hands, ctx));
}

export default {
  cardTile: [12, 12],
  board,
  result(v, ctx, ev) { return pointsResult(v, ctx, ev, roundBlock); },
  seatInfo(v, seat) {
    return { lines: [count("table.score", v.totals[seat])] };
  },
  subtitle(v) {
    return `${t("round.n_of", { n: v.round, m: v.rounds })} · ${t("table.boneyard", { n: v.boneyard })}`;
  },
  handNote(v) {
    return v.must_cover ? h("span", { class: "note warn" }, t("train.must_cover")) : null;
  },
  highlightOf(v) { return v.drawn ? [v.drawn.tile] : null; },
  actionLabel(a) {
    return { draw: t("table.draw"), pass: t("table.pass"), end_turn: t("table.end_turn") }[a.kind] || a.kind;
  },
  choiceQuestion() { return t("table.choose_train"); },
  choiceLabel(a, ctx) { return trainName(a.train, ctx); },
  choiceKey(a) { return String(a.train); },
};
