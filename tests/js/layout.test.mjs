// The pure geometry of the board (static/js/games/*.js, static/js/seating.js): boxes, the
// viewBox that fits them, the Gaple snake, the Cross pinwheel, the Mexican Train rows.

import assert from "node:assert/strict";
import test from "node:test";

import { U } from "../../static/js/tiles.js";
import { bbox, fitViewBox, labelFit, lastPlayed, pieceSize } from "../../static/js/games/common.js";
import { bestLayout, snake } from "../../static/js/games/gaple.js";
import { bestCross, crossPieces, distinctPlays, place } from "../../static/js/games/cross.js";
import { trainLayout } from "../../static/js/games/mexican_train.js";
import { platePosition, relativeSeat } from "../../static/js/seating.js";

function rect(p) {
  const { w, h } = pieceSize(p);
  return { x0: p.x, y0: p.y, x1: p.x + w, y1: p.y + h };
}

function overlap(a, b) {
  const r = rect(a), q = rect(b);
  return r.x0 < q.x1 - 1e-9 && q.x0 < r.x1 - 1e-9 && r.y0 < q.y1 - 1e-9 && q.y0 < r.y1 - 1e-9;
}

function noOverlaps(pieces, what) {
  for (let i = 0; i < pieces.length; i++) {
    for (let j = i + 1; j < pieces.length; j++) {
      assert.ok(!overlap(pieces[i], pieces[j]), `${what}: pieces ${i} and ${j} overlap`);
    }
  }
}

/** A line of play of n tiles, doubles now and then, each matching the one before. */
function line(n) {
  const out = [];
  let end = 6;
  for (let i = 0; i < n; i++) {
    const next = i % 4 === 2 ? end : (end + 3) % 7;
    out.push([end, next]);
    end = next;
  }
  return out;
}

test("a box holds every piece, flat, standing or sized", () => {
  const box = bbox([{ x: 0, y: 0 }, { x: 3 * U, y: -U, vertical: true }, { x: -10, y: 5, w: 4, h: 100 }]);
  assert.deepEqual(box, { x0: -10, y0: -U, x1: 4 * U, y1: 105 });
  assert.deepEqual(pieceSize({ vertical: true }), { w: U, h: 2 * U });
});

test("the viewBox is centred on the box, with a margin, never drawn bigger than maxScale", () => {
  const box = { x0: 0, y0: 0, x1: 2 * U, y1: U };
  const [x, y, w, h] = fitViewBox(box, 0, 0);
  assert.deepEqual([x, y, w, h], [-U / 2, -U / 2, 3 * U, 2 * U]);
  // a 600 x 300 container at most 1.5 px a unit: the viewBox is at least 400 x 200 units
  const big = fitViewBox(box, 600, 300, 1.5);
  assert.deepEqual(big.slice(2), [400, 200]);
  assert.equal(big[0] + big[2] / 2, U, "centred on the box");
  assert.equal(big[1] + big[3] / 2, U / 2);
});

test("the Gaple snake keeps every tile apart and inside its rows", () => {
  for (const cols of [7, 12, 20, 31]) {
    const lay = snake(line(28), cols);
    assert.equal(lay.pieces.length, 28);
    noOverlaps(lay.pieces, `${cols} columns`);
    for (const p of lay.pieces) {
      assert.ok(p.x >= -1e-9 && rect(p).x1 <= cols * U + 1e-9, `${cols} columns: a tile leaves its row`);
    }
  }
  const first = snake([[6, 6]], 20).pieces[0];
  assert.ok(!first.vertical, "the first double lies along the line");
  const across = snake([[6, 3], [3, 3]], 20).pieces[1];
  assert.ok(across.vertical, "a later double stands across the line");
});

test("the Gaple layout picks a scale that fits the board, no bigger than comfortable", () => {
  for (const [w, h] of [[900, 420], [360, 300], [1200, 200]]) {
    const best = bestLayout(line(28), w, h);
    const box = best.box;
    assert.ok(best.scale <= 0.9 + 1e-9);
    assert.ok((box.x1 - box.x0 + U) * best.scale <= w + 1e-6, `${w}x${h}: too wide`);
    assert.ok((box.y1 - box.y0 + U) * best.scale <= h + 1e-6, `${w}x${h}: too tall`);
  }
  assert.equal(bestLayout(line(3), 900, 420).lay.pieces.length, 3);
});

test("the Cross arms turn like a pinwheel and never meet", () => {
  for (const [ns, ew] of [[3, 6], [4, 3]]) {
    const pieces = [{ x: -U / 2, y: -U, vertical: true }]; // the spinner
    for (const arm of ["n", "e", "s", "w"]) {
      for (let k = 0; k < 9; k++) pieces.push(place(arm, k, 1, 2, arm === "n" || arm === "s" ? ns : ew));
    }
    noOverlaps(pieces, `straight ${ns}/${ew}`);
  }
  // the inner number always touches the piece before it: east runs inner-first
  assert.deepEqual([place("e", 0, 5, 2, 6).a, place("w", 0, 5, 2, 6).b], [5, 5]);
});

test("Mexican Train rows shrink to a floor, then show only the newest tiles", () => {
  const wide = trainLayout(5, 3, 900, 400);
  assert.equal(wide.narrow, false);
  assert.ok(wide.scale <= 1.2 && wide.scale >= 0.8);
  assert.ok(wide.visible >= 3, "a short train is shown whole");
  const phone = trainLayout(9, 20, 360, 300);
  assert.equal(phone.narrow, true);
  assert.ok(phone.visible >= 2 && phone.visible < 20, "older tiles give way to +k");
  assert.ok(phone.tilesX + 2 * U * phone.visible <= phone.width, "the shown tiles fit the row");
  assert.ok(phone.height * phone.scale <= 300 + 1e-6, "every train fits the board's height");
});

test("eight players' trains are drawn big enough to read on a phone and on a desktop", () => {
  // nine rows (eight trains and the Mexican Train) in the boards a phone and a desktop give
  for (const [w, hgt, px] of [[359, 350, 0.7], [672, 392, 0.8]]) {
    const lay = trainLayout(9, 6, w, hgt);
    assert.ok(lay.scale >= px, `${w}x${hgt}: ${lay.scale} px per unit`);
    assert.ok(lay.height * lay.scale <= hgt + 1e-6, "every train fits the height");
    assert.ok(lay.visible >= 3, "each train shows its newest tiles");
  }
  const few = trainLayout(3, 4, 359, 350); // two players on a phone keep their names above
  assert.equal(few.G.above, true);
});

test("seat plates sit around the board counted clockwise from the viewer", () => {
  assert.deepEqual([0, 1, 2, 3].map((s) => platePosition(relativeSeat(s, 2, 4), 4)),
    ["top", "right", "bottom", "left"]);
  assert.deepEqual([0, 1, 2].map((s) => platePosition(s, 3)), ["bottom", "left", "right"]);
  assert.equal(platePosition(1, 2), "top");
  assert.deepEqual([1, 4, 7].map((s) => platePosition(s, 8)), ["top", "top", "top"]);
  // a wide felt seats five or more on its sides: up the left, then down the right
  assert.deepEqual([1, 2, 3, 4, 5, 6, 7].map((s) => platePosition(s, 8, true)),
    ["left", "left", "left", "left", "right", "right", "right"]);
  assert.deepEqual([1, 2, 3, 4].map((s) => platePosition(s, 5, true)), ["left", "left", "right", "right"]);
  assert.equal(relativeSeat(1, null, 4), 1, "a spectator sees from seat 0");
});

test("the newest tile played is the last 'played' of the current round in the log", () => {
  const played = (tile) => ({ type: "played", seat: 0, tile });
  assert.equal(lastPlayed([]), null);
  assert.equal(lastPlayed(undefined), null);
  assert.deepEqual(lastPlayed([played([1, 1]), { type: "passed" }, played([1, 2]), { type: "seated" }]).tile,
    [1, 2]);
  assert.equal(lastPlayed([played([1, 1]), { type: "round_over" }, { type: "dealt" }]), null);
});

test("a long Cross round turns its arms to fit the board: drawn big on wide and narrow boards", () => {
  const lengths = { n: 4, e: 7, s: 5, w: 6 };
  for (const [w, hgt] of [[990, 560], [359, 330]]) {
    const best = bestCross(lengths, w, hgt);
    const box = bbox(crossPieces(lengths, best.ns, best.ew));
    const share = ((box.x1 - box.x0) * best.scale * (box.y1 - box.y0) * best.scale) / (w * hgt);
    assert.ok(share >= 0.45, `${w}x${hgt}: the cross covers ${share.toFixed(2)} of the board`);
    // the fixed runs drawn before (3 and 6 on a wide board, 4 and 3 on a tall one) were smaller
    const fixed = w >= hgt ? [3, 6] : [4, 3];
    const old = bbox(crossPieces(lengths, ...fixed));
    const oldScale = Math.min(w / (old.x1 - old.x0 + U), hgt / (old.y1 - old.y0 + U));
    assert.ok(best.scale > oldScale * 1.15, `${w}x${hgt}: ${best.scale} against ${oldScale}`);
    noOverlaps(crossPieces(lengths, best.ns, best.ew), `${w}x${hgt}`);
  }
});

test("Cross asks which arm only when the arms lead to different boards", () => {
  const arm = (end, n) => ({ end, tiles: Array.from({ length: n }, () => [end, end]) });
  const play = (a, tile) => ({ kind: "play", tile, arm: a });
  // the cross: every empty side shows the spinner's 5; [5|2] on any of them is the same board
  const empty = { n: arm(5, 0), e: arm(5, 0), s: arm(5, 0), w: arm(5, 0) };
  const acts = ["n", "e", "s", "w"].map((a) => play(a, [2, 5]));
  assert.deepEqual(distinctPlays(acts, empty).map((a) => a.arm), ["n"]);
  // later: two arms end in 3, one in 4; [3|4] on a 3-arm leaves 4,4; on the 4-arm 3,3
  const later = { n: arm(3, 2), e: arm(3, 1), s: arm(4, 3), w: arm(6, 1) };
  const plays = [play("n", [3, 4]), play("e", [3, 4]), play("s", [3, 4])];
  assert.deepEqual(distinctPlays(plays, later).map((a) => a.arm).sort(), ["e", "s"],
    "one question, two answers: the shorter of the alike arms, and the other board");
  assert.deepEqual(distinctPlays([{ kind: "play", tile: [6, 6] }], empty).length, 1);
});

test("a target's label stays inside its place: turned up in a standing one, squeezed if long", () => {
  assert.deepEqual(labelFit("Kiri", 2 * U, U), { turned: false, length: null });
  const south = labelFit("Selatan", U, 2 * U); // a tile's width: the words go along its length
  assert.equal(south.turned, true);
  assert.ok(south.length === null || south.length <= 2 * U - 8);
  const long = labelFit("Pasang di sini sekarang", 2 * U, U);
  assert.equal(long.length, 2 * U - 8);
});

test("a tall board gives each train more lines rather than hiding its older tiles", () => {
  const phone = trainLayout(3, 8, 359, 400); // two players on a phone: three rows
  assert.ok(phone.lines >= 2, `${phone.lines} lines`);
  assert.ok(phone.visible >= 6, `${phone.visible} tiles shown`);
  assert.ok(phone.height * phone.scale <= 400 + 1e-6);
  assert.equal(trainLayout(9, 6, 359, 350).lines, 1, "eight players: one line each");
});

test("a long hand shrinks its tiles to fit its room; a short one keeps the full size", async () => {
  const { handFit, handRoom } = await import("../../static/js/hand_fit.js");
  // Mexican Train at 1366x800: 24 tiles in a hand 988 px wide, the felt 660 px tall
  const room = handRoom(660, 54);
  const long = handFit(24, 988, room, { max: 54, gap: 5.6 });
  assert.ok(long.height <= room, `${long.height} > ${room}`);
  assert.ok(long.tile >= 36, `${long.tile} px: still readable`);
  assert.ok(long.tile < 54);
  assert.equal(long.rows, Math.ceil(24 / long.perRow));
  assert.ok(long.perRow * (long.tile + 5.6) - 5.6 <= 988, "a row fits the width");
  // seven Gaple tiles keep the stylesheet's size, in one row
  assert.deepEqual([handFit(7, 988, room, { max: 54 }).tile, handFit(7, 988, room, { max: 54 }).rows], [54, 1]);
  // a phone: 15 tiles at 38 px in 361 px, the felt 720 px tall
  const phone = handFit(15, 361, handRoom(720, 38), { max: 38, gap: 4 });
  assert.equal(phone.tile, 38);
  // too many for any size: the floor, never smaller
  assert.equal(handFit(80, 300, 100, { max: 40, min: 24 }).tile, 24);
});
