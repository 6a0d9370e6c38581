// Which sounds a table's messages make (static/js/cues.js): tiles and Lewat for everyone, the
// turn and a won round only for the seat they belong to, no turn in a replay.

import assert from "node:assert/strict";
import test from "node:test";

import { cuesFor, wonRound } from "../../static/js/cues.js";

const view = (over) => ({ game: "gaple", seat: 0, to_act: 1, over: false, ...over });

test("a tile placed and a Lewat sound for players and spectators", () => {
  const events = [{ type: "played", seat: 1, tile: [3, 4] }, { type: "lewat", payer: 2, payee: 1, amount: 10 }];
  assert.deepEqual(cuesFor({ events, before: view(), after: view({ to_act: 2 }) }), ["tile", "lewat"]);
  assert.deepEqual(cuesFor({ events, before: view({ seat: null }), after: view({ seat: null, to_act: 0 }) }),
    ["tile", "lewat"]);
  assert.deepEqual(cuesFor({ events: [{ type: "engine_placed", seat: 0, tile: [12, 12] }], before: view(),
    after: view() }), ["tile"]);
});

test("your turn sounds when the turn comes to you, not while it stays, nor in a replay", () => {
  const events = [{ type: "played", seat: 3, tile: [1, 1] }];
  assert.deepEqual(cuesFor({ events, before: view({ to_act: 3 }), after: view({ to_act: 0 }) }), ["tile", "turn"]);
  assert.deepEqual(cuesFor({ events: [], before: view({ to_act: 0 }), after: view({ to_act: 0 }) }), []);
  assert.deepEqual(cuesFor({ events, before: view({ to_act: 3 }), after: view({ to_act: 0 }), replay: true }), ["tile"]);
  assert.deepEqual(cuesFor({ events: [], before: view({ seat: null, to_act: 3 }), after: view({ seat: null, to_act: null }) }), []);
});

test("a round won sounds for its winner only, in every game", () => {
  const over = (detail) => [{ type: "round_over", ...detail }];
  assert.deepEqual(cuesFor({ events: over({ winner: 0 }), before: view(), after: view({ over: true }) }), ["win"]);
  assert.deepEqual(cuesFor({ events: over({ winner: 2 }), before: view(), after: view({ over: true }) }), []);
  assert.deepEqual(cuesFor({ events: over({ winner: 0 }), before: view(), after: view({ seat: null }) }), []);
  const moon = { game: "moon", side_of: [0, 1, 0, 1] };
  assert.equal(wonRound({ deltas: [0, 2] }, moon, 1), true);
  assert.equal(wonRound({ deltas: [0, 2] }, moon, 2), false);
  const train = { game: "mexican_train" };
  assert.equal(wonRound({ scores: [12, 0, 30] }, train, 1), true);
  assert.equal(wonRound({ scores: [12, 0, 30] }, train, 0), false);
  assert.equal(wonRound({ winner: null, scores: [10, 90] }, { game: "cross" }, 0), false);
});
