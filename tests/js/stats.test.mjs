// The profile's and the leaderboards' numbers read as the client formats them (fmt).

import assert from "node:assert/strict";
import test from "node:test";

import { setLang } from "../../static/js/i18n.js";
import { boardValue, pageCount, winRate } from "../../static/js/stats.js";

test("a board's value reads as its metric, in both languages", () => {
  setLang("id");
  assert.equal(boardValue("net_chips", -1250), "-1.250 chip");
  assert.equal(boardValue("average_score", 32.5), "32,5");
  assert.equal(boardValue("wins", 1200), "1.200");
  setLang("en");
  assert.equal(boardValue("net_chips", 1250), "1,250 chips");
  assert.equal(boardValue("average_score", 32.5), "32.5");
  setLang("id");
});

test("pages and win rates", () => {
  assert.deepEqual([0, 1, 10, 11, 25].map((n) => pageCount(n, 10)), [1, 1, 1, 2, 3]);
  assert.equal(winRate(0, 0), "—");
  assert.equal(winRate(3, 1), "33%");
});
