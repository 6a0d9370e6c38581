// Leaving asks first only when the server would hand the seat to the bot (docs/rules.md O-3):
// the player is in the round being played.

import assert from "node:assert/strict";
import test from "node:test";

import { leavesMidRound } from "../../static/js/leave.js";

test("leaving hands the seat to the bot only while the player's round is played", () => {
  const table = { you: 1, status: "playing", players: [0, 1, 2, 3] };
  assert.equal(leavesMidRound(table), true);
  assert.equal(leavesMidRound({ ...table, status: "over" }), false); // between Gaple rounds
  assert.equal(leavesMidRound({ ...table, status: "waiting", players: [] }), false);
  assert.equal(leavesMidRound({ ...table, players: [0, 2] }), false); // sitting this one out
  assert.equal(leavesMidRound({ ...table, you: null }), false); // a spectator
});
