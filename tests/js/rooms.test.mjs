// Whether a wallet opens a stake room (static/js/rooms.js), as the server decides it
// (app/services/table/rooms.py pick_room).
import { test } from "node:test";
import assert from "node:assert/strict";
import { opens } from "../../static/js/rooms.js";

test("a room opens from its minimum wallet on, and never for a wallet not known", () => {
  const room = { stake: 50, min_wallet: 2500 };
  assert.equal(opens(room, 2500), true);
  assert.equal(opens(room, 2499), false);
  assert.equal(opens(room, null), false);
});
