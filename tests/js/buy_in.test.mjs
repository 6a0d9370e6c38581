// The sit dialog's bounds (static/js/buy_in.js): the stake's buy-in range capped by the wallet,
// as the server derives it (app/services/table/stakes.py).
import { test } from "node:test";
import assert from "node:assert/strict";
import { buyInRange } from "../../static/js/buy_in.js";

const BOUNDS = { min_stakes: 10, max_stakes: 100 };

test("the default is the most the table allows, capped by the wallet", () => {
  assert.deepEqual(buyInRange(10, BOUNDS, 5000), { low: 100, high: 1000, cap: 1000, def: 1000, short: false });
  assert.deepEqual(buyInRange(50, BOUNDS, 1000), { low: 500, high: 5000, cap: 1000, def: 1000, short: false });
});

test("a wallet below the minimum cannot sit", () => {
  const r = buyInRange(20000, BOUNDS, 1000);
  assert.equal(r.low, 200000);
  assert.equal(r.short, true);
});

test("the last choice, remembered in stakes, is offered within the bounds and the wallet", () => {
  assert.equal(buyInRange(10, BOUNDS, 5000, 40).def, 400);
  assert.equal(buyInRange(50, BOUNDS, 1000, 40).def, 1000); // 2,000 asked: the wallet caps it
  assert.equal(buyInRange(10, BOUNDS, 5000, 2).def, 100); // below the least: the least
  assert.equal(buyInRange(10, BOUNDS, 5000, null).def, 1000); // nothing remembered: the most
});
