// Moon table: bidding, naming trumps, the current trick in the middle, tricks won per team
// and the scores towards 21.

import { h, s } from "../dom.js";
import { about, t } from "../i18n.js";
import { U, tileGroup } from "../tiles.js";
import { bbox, fitSvg, pointsResult, scoresTable, seatRows } from "./common.js";
import { objectName, suitName } from "../events.js";

function sideName(v, side, ctx) {
  if (v.players === 4) {
    const seats = v.side_of.map((x, i) => [x, i]).filter(([x]) => x === side).map(([, i]) => i);
    const mine = seats.includes(ctx.mySeat());
    const [a, b] = mine && seats[1] === ctx.mySeat() ? [seats[1], seats[0]] : seats;
    return about("moon.team_of", mine, { a: ctx.seatName(a), b: ctx.seatName(b) });
  }
  return ctx.seatName(side);
}

/** A bid bubble's width in board units: its words (15 px bold, about .62 em a letter) and ends. */
export function bubbleWidth(text) { return Math.max(3.2 * U, String(text).length * 15 * 0.62 + U); }

/** Offsets of the trick tiles by seat, counted clockwise from the viewer (bottom, left, top, right). */
const SPOTS4 = [[0, 1.3], [-2.4, 0], [0, -1.3], [2.4, 0]];
const SPOTS3 = [[0, 1.3], [-1.8, -0.9], [1.8, -0.9]];

function board(v, ctx, container) {
  const n = v.players;
  const me = v.seat ?? 0;
  const spots = n === 4 ? SPOTS4 : SPOTS3;
  const g = s("g", {});
  const items = [];
  if (v.phase === "bidding" || v.phase === "trump") {
    // The bids so far, each near its seat.
    for (let seat = 0; seat < n; seat++) {
      const [dx, dy] = spots[(seat - me + n) % n];
      const bid = v.bids.find((b) => b.seat === seat);
      const said = bid ? (bid.value === null ? t("moon.passed") : t("moon.bid.value", { v: bid.value }))
        : t("moon.no_bid");
      // who said it: a phone seats every plate in one row, so the place alone does not tell
      const text = t("moon.bid.by", { name: ctx.seatName(seat), bid: said });
      const w = bubbleWidth(text);
      const x = dx * U * 1.6, y = dy * U * (w > 3.2 * U ? 1.9 : 1.6);
      g.append(s("g", { class: `bid-bubble ${bid && bid.value !== null ? "has-bid" : ""}`, "data-seat": seat },
        s("rect", { x: x - w / 2, y: y - 0.5 * U, width: w, height: U, rx: U / 2 }),
        s("text", { x, y: y + 6, "text-anchor": "middle" }, text)));
      items.push({ x: x - w / 2, y: y - 0.5 * U, w, h: U });
    }
  } else {
    // Between tricks the finished one stays in view, its winning tile marked.
    const lt = v.last_trick;
    const showLast = !v.trick.length && lt;
    const plays = showLast
      ? lt.tiles.map((tile, i) => ({ seat: (lt.leader + i) % n, tile }))
      : v.trick;
    for (const play of plays) {
      const [dx, dy] = spots[(play.seat - me + n) % n];
      const x = dx * U - U / 2, y = dy * U - U;
      const cls = showLast ? (play.seat === lt.winner ? "won" : "past") : play.seat === v.leader ? "led" : "";
      g.append(tileGroup(play.tile[0], play.tile[1], x, y, {
        vertical: true, cls, data: { seat: play.seat },
      }));
      items.push({ x, y, w: U, h: 2 * U });
    }
    if (!plays.length) {
      for (const [dx, dy] of spots) items.push({ x: dx * U - U / 2, y: dy * U - U, w: U, h: 2 * U });
      g.append(s("circle", { class: "trick-spot", cx: 0, cy: 0, r: U * 0.8 }));
    }
  }
  const svg = fitSvg(g, bbox(items), "trick-svg", container, 1.1);
  const info = h("div", { class: "moon-info" },
    h("div", { class: "moon-phase" }, t(`moon.phase.${v.phase}`)),
    v.contract !== null && v.contract !== undefined
      ? h("div", {}, t("moon.contract", { name: objectName(v.bidder, ctx), bid: v.contract })) : null,
    v.trump !== null && v.trump !== undefined && v.phase !== "trump"
      ? h("div", { class: "trump", "data-trump": v.trump }, t("moon.trump", { suit: suitName(v.trump) })) : null,
    v.widow_count ? h("div", {}, t("moon.widow", { n: v.widow_count })) : null,
    h("div", { class: "moon-sides" }, v.tricks_won.map((n2, side) => h("div", { class: "side-line" },
      h("span", {}, sideName(v, side, ctx)),
      h("span", { class: "num" }, `${t("moon.tricks", { n: n2 })} · ${t("moon.score", { n: v.scores[side] })}`)))));
  return h("div", { class: "moon-board" }, svg, info);
}

function roundBlock(ev, v, ctx) {
  return h("div", {},
    h("p", { class: "result-ending" }, t("moon.contract", { name: objectName(ev.bidder, ctx), bid: ev.contract }),
      " · ", t("moon.trump", { suit: suitName(ev.trump) })),
    scoresTable(seatRows([t("result.tricks"), t("result.round_score"), t("result.total")],
      ev.tricks.length, (i) => [ev.tricks[i], ev.deltas[i], ev.scores[i]]),
    { ...ctx, seatName: (side) => sideName(v, side, ctx) }));
}

export default {
  cardTile: [4, 1],
  /** Moon's seat count is its variant (M-1, M-13): four in two teams, or three each alone. */
  seatLabel(n) { return t(`moon.seats.${n}`); },
  board,
  result(v, ctx, ev) { return pointsResult(v, ctx, ev, roundBlock); },
  seatInfo(v, seat) {
    const lines = [t("moon.tricks", { n: v.tricks_by_seat[seat] })];
    if (v.players === 4) lines.push(t("moon.team", { n: v.side_of[seat] + 1 }));
    return { lines, cls: v.players === 4 ? `team-${v.side_of[seat]}` : "" };
  },
  subtitle(v) {
    return `${t("round.n", { n: v.round })} · ${v.scores.join(" : ")}`;
  },
  handNote(v) {
    if (v.phase === "discard" && v.legal.length) return h("span", { class: "note" }, t("moon.discard"));
    if (v.phase === "trump" && v.legal.length) return h("span", { class: "note" }, t("moon.choose_trump"));
    return null;
  },
  actionLabel(a) {
    if (a.kind === "bid") return t("moon.bid.value", { v: a.value });
    if (a.kind === "pass") return t("moon.pass");
    if (a.kind === "trump") return suitName(a.suit);
    return a.kind;
  },
  choiceQuestion() { return ""; },
  choiceLabel() { return ""; },
  choiceKey(a) { return a.kind; },
};
