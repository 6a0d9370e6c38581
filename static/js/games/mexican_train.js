// Mexican Train table: the engine in the hub, one row per personal train plus the Mexican
// Train, markers on open trains, and the double that must be covered.

import { h, s } from "../dom.js";
import { t } from "../i18n.js";
import { U, tileGroup } from "../tiles.js";
import { handTiles, lastPlayed, scoresTable } from "./common.js";
import { trainName } from "../events.js";

const ROW = 1.5 * U;
const LABEL = 3.6 * U;
const HUB = 2.6 * U;

/** Trains as rows fanning out of the hub; each row keeps its newest tiles in view. */
function board(v, ctx, container) {
  const wpx = container.clientWidth || 600, hpx = container.clientHeight || 400;
  const rows = [...v.trains.map((tr) => ({ key: tr.seat, ...tr })), { key: "mexican", ...v.mexican, marker: false }];
  const height = rows.length * ROW;
  const x0 = HUB + U; // where rows begin
  const tilesX = x0 + LABEL;
  const longest = Math.max(...rows.map((r) => r.tiles.length)) + 1;
  const floor = wpx < 500 ? 0.55 : 0.8; // below this, older tiles give way to "+k"
  const scale = Math.max(floor, Math.min(1.2, hpx / height, wpx / (tilesX + 2 * U * longest + U / 2)));
  const width = Math.max(wpx / scale, tilesX + 6 * U);
  const visible = Math.max(2, Math.floor((width - tilesX - U / 2) / (2 * U)) - 1);
  const sel = ctx.selected ? ctx.tileActions(ctx.selected) : [];
  const must = v.must_cover?.train;
  const last = lastPlayed(v);
  const g = s("g", {});
  const [e] = v.hub.tile;
  const midY = height / 2;
  rows.forEach((row, i) => {
    const y = i * ROW + ROW / 2;
    g.append(s("path", { class: "spoke", d: `M${HUB / 2} ${midY} C${HUB} ${midY}, ${HUB / 2} ${y}, ${x0} ${y}` }));
  });
  g.append(s("circle", { class: "hub", cx: HUB / 2, cy: midY, r: HUB / 2 }));
  g.append(tileGroup(e, e, HUB / 2 - U / 2, midY - U, { vertical: true, cls: "engine" }));
  rows.forEach((row, i) => {
    const y = i * ROW + ROW / 2;
    const act = sel.length > 1 ? sel.find((a) => a.train === row.key) : null;
    const isMust = must !== undefined && must !== null && String(must) === String(row.key);
    const mine = row.key === ctx.mySeat();
    const rg = s("g", {
      class: `train ${row.key === "mexican" ? "mexican" : ""} ${mine ? "mine" : ""} ${act ? "drop-row" : ""} ${isMust ? "must" : ""}`,
      "data-train": row.key, onclick: act ? () => ctx.choose(act) : null,
    });
    rg.append(s("rect", { class: "train-bg", x: x0, y: y - ROW / 2 + 3, width: width - x0, height: ROW - 6, rx: 8 }));
    const label = row.key === "mexican" ? t("train.mexican") : ctx.seatName(row.key);
    rg.append(s("text", { class: "train-label", x: x0 + 8, y: y + 6 }, label.length > 9 ? `${label.slice(0, 8)}…` : label));
    if (row.marker) {
      rg.append(s("g", { class: "marker", transform: `translate(${tilesX - U * 0.75} ${y - U * 0.3})` },
        s("title", { text: t("train.marker") }),
        s("path", { d: `M0 ${U * 0.6} L${U * 0.3} 0 L${U * 0.6} ${U * 0.6} Z` })));
    }
    const tiles = row.tiles;
    const from = Math.max(0, tiles.length - visible);
    let x = tilesX;
    if (from > 0) {
      rg.append(s("text", { class: "more", x: x + U / 2, y: y + 5, "text-anchor": "middle" }, `+${from}`));
      x += U;
    }
    const isLast = last && String(last.train) === String(row.key);
    tiles.slice(from).forEach(([a, b], k) => {
      const cls = isLast && from + k === tiles.length - 1 ? "last" : "";
      rg.append(tileGroup(a, b, x, y - U / 2, { vertical: false, cls }));
      x += 2 * U;
    });
    if (act) {
      rg.append(s("g", { class: "drop", transform: `translate(${x} ${y - U / 2})` },
        s("rect", { width: 2 * U, height: U, rx: 6 }),
        s("text", { x: U, y: U * 0.65, "text-anchor": "middle" }, "+")));
    }
    g.append(rg);
  });
  return s("svg", {
    class: "board-svg trains-svg", viewBox: `0 0 ${width} ${height}`,
    preserveAspectRatio: "xMidYMid meet",
  }, g);
}

function roundBlock(ev, ctx) {
  return h("div", {},
    h("p", { class: "result-ending" }, t(`result.ending.${ev.ending === "out" ? "out" : "blocked"}`),
      ev.out?.length ? ` · ${ev.out.map((x) => ctx.seatName(x)).join(", ")}` : ""),
    scoresTable({
      cols: [t("result.round_score"), t("result.total")],
      seats: ev.scores.map((_, i) => i),
      cells: ev.scores.map((sc, i) => [sc, ev.totals[i]]),
    }, ctx),
    handTiles(ev.hands, ctx));
}

export default {
  board,
  result(v, ctx, ev) {
    return h("div", { class: "result-body" },
      h("h3", {}, v.over ? t("result.match_title") : t("result.title")),
      v.over ? h("p", { class: "result-winner" },
        t("result.winners", { names: v.result.winners.map((x) => ctx.seatName(x)).join(", ") })) : null,
      ev ? roundBlock(ev, ctx) : null);
  },
  seatInfo(v, seat) {
    return { lines: [t("table.score", { n: v.totals[seat] })] };
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
