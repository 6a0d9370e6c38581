// The page store and its region scheduler (static/js/store.js): what a change marks, and that
// each dirty region is drawn once per frame, in order.

import assert from "node:assert/strict";
import test from "node:test";

import { createStore, regionScheduler } from "../../static/js/store.js";

function fakeFrames() {
  const queue = [];
  return { frame: (f) => queue.push(f), run() { const fs = queue.splice(0); for (const f of fs) f(); },
    get waiting() { return queue.length; } };
}

test("set marks the regions that show the changed keys, and only for real changes", () => {
  const store = createStore({ a: 1, b: [], c: 0 }, { a: ["x"], b: ["x", "y"], c: [] });
  const seen = [];
  store.subscribe((regions) => seen.push(regions));
  store.set({ a: 2 });
  store.set({ a: 2 }); // the same value: nothing to draw
  store.set({ b: [1], a: 3 });
  store.set({ c: 5 }); // shown nowhere
  store.set({ other: 1 }); // not named: every region
  store.touch("y");
  store.touch();
  assert.deepEqual(seen, [["x"], ["x", "y"], null, ["y"], null]);
  assert.equal(store.state.c, 5);
  assert.equal(store.state.other, 1);
});

test("the scheduler draws each dirty region once per frame, in its order", () => {
  const frames = fakeFrames();
  const drawn = [];
  const draw = regionScheduler({
    first: () => drawn.push("first"), second: () => drawn.push("second"), third: () => drawn.push("third"),
  }, frames.frame);
  draw.mark(["third"]);
  draw.mark(["first", "third"]);
  draw.mark(["nowhere"]);
  assert.equal(frames.waiting, 1, "one frame asked for, however many marks");
  assert.deepEqual(drawn, [], "nothing is drawn before the frame");
  frames.run();
  assert.deepEqual(drawn, ["first", "third"]);
  frames.run();
  assert.deepEqual(drawn, ["first", "third"], "a frame with nothing dirty draws nothing");
  draw.mark(null);
  frames.run();
  assert.deepEqual(drawn.slice(2), ["first", "second", "third"]);
});

test("a region marked while drawing is drawn in the same frame when it comes later", () => {
  const frames = fakeFrames();
  const drawn = [];
  const draw = regionScheduler({
    layout: () => { drawn.push("layout"); draw.mark(["board", "layout"]); },
    board: () => drawn.push("board"),
  }, frames.frame);
  draw.mark(["layout"]);
  frames.run();
  assert.deepEqual(drawn, ["layout", "board"]);
  assert.equal(frames.waiting, 1, "layout marked itself again: the next frame");
  draw.stop();
  frames.run();
  assert.deepEqual(drawn, ["layout", "board"], "a stopped page draws no more");
});

test("a store wired to a scheduler draws a burst of changes once", () => {
  const frames = fakeFrames();
  let boards = 0, sides = 0;
  const store = createStore({ view: null, log: [] }, { view: ["board"], log: ["side", "board"] });
  const draw = regionScheduler({ board: () => boards++, side: () => sides++ }, frames.frame);
  store.subscribe(draw.mark);
  for (let v = 1; v <= 15; v++) store.set({ view: { v }, log: [...store.state.log, v] });
  frames.run();
  assert.deepEqual([boards, sides], [1, 1]);
  assert.equal(store.state.log.length, 15);
});
