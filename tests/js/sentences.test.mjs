// The history panel's sentences (static/js/events.js) and the dictionaries behind them.

import assert from "node:assert/strict";
import test from "node:test";

import { DICTS, about, count, setLang, t } from "../../static/js/i18n.js";
import { describeEvent, suitName, tileText, trainName } from "../../static/js/events.js";

const NAMES = ["Anda", "Budi", "Siti", "Dewi"];
const ctx = { seatName: (s) => NAMES[s], tableSeatName: (s) => `Kursi ${s + 1}`, mySeat: () => 0 };

test("both languages have the same keys and the same {placeholders}", () => {
  assert.deepEqual(Object.keys(DICTS.id).sort(), Object.keys(DICTS.en).sort());
  const holes = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
  for (const [key, text] of Object.entries(DICTS.id)) {
    assert.deepEqual(holes(text), holes(DICTS.en[key]), key);
  }
});

test("moves read as sentences, in Bahasa Indonesia first", () => {
  setLang("id");
  assert.equal(describeEvent({ type: "played", seat: 1, tile: [6, 4], end: "left" }, ctx),
    "Budi memasang [6|4] di kiri");
  assert.equal(describeEvent({ type: "played", seat: 2, tile: [5, 5], arm: "n" }, ctx),
    "Siti memasang [5|5] di lengan Utara");
  assert.equal(describeEvent({ type: "played", seat: 3, tile: [12, 3], train: "mexican" }, ctx),
    "Dewi memasang [12|3] di Kereta Meksiko");
  assert.equal(describeEvent({ type: "lewat", payer: 0, payee: 3, amount: 1000 }, ctx),
    "LEWAT! Anda bayar 1.000 ke Dewi");
  assert.equal(describeEvent({ type: "lewat", payer: 1, payee: 0, amount: 10 }, ctx),
    "LEWAT! Budi bayar 10 ke Anda");
  assert.equal(describeEvent({ type: "timeout", table_seat: 2 }, ctx), "Waktu Kursi 3 habis");
  assert.equal(describeEvent({ type: "something_new", seat: 1 }, ctx), "Budi: something_new");
  setLang("en");
  assert.equal(describeEvent({ type: "passed", seat: 2, marker: true }, ctx),
    "Siti passed · Siti put out a marker");
  setLang("id");
});

test("every kind of event has words in both languages", () => {
  const kinds = ["played", "passed", "lewat", "drew", "bid", "trump", "contract", "widow_taken",
    "discarded", "trick_won", "all_passed", "dealt", "round_started", "engine_placed", "ended_turn",
    "round_over", "match_over", "timeout", "seated", "leaving", "left", "match_started",
    "away", "back", "rematch", "created"];
  for (const lang of ["id", "en"]) {
    setLang(lang);
    for (const type of kinds) {
      const text = describeEvent({ type, seat: 1, payer: 1, payee: 2, amount: 5, value: 30, suit: 3,
        table_seat: 1, match_no: 2, round: 2, tile: [1, 2] }, ctx);
      assert.ok(text && !text.includes("⟦") && !text.includes("undefined"), `${lang} ${type}: ${text}`);
    }
  }
  setLang("id");
});

test("tiles, suits and trains have short names", () => {
  setLang("id");
  assert.equal(tileText([3, 5]), "[3|5]");
  assert.equal(tileText(null), "");
  assert.deepEqual([suitName("doubles"), suitName(null), suitName(4)], ["Balak", "Tanpa truf", "4"]);
  assert.deepEqual([trainName(0, ctx), trainName(2, ctx), trainName("mexican", ctx)],
    ["Kereta Anda", "Kereta Siti", "Kereta Meksiko"]);
});

test("a sentence about the viewer takes its own form: You pay, not You pays", () => {
  const me = { ...ctx, seatName: (s) => (s === 0 ? "You" : NAMES[s]), myTableSeat: () => 0 };
  setLang("en");
  assert.equal(describeEvent({ type: "lewat", payer: 0, payee: 3, amount: 10 }, me),
    "PASS! You pay 10 to Dewi");
  assert.equal(describeEvent({ type: "lewat", payer: 1, payee: 0, amount: 10 }, me),
    "PASS! Budi pays 10 to you");
  assert.equal(describeEvent({ type: "contract", seat: 0, value: 30 }, me), "You win the contract: 30");
  assert.equal(describeEvent({ type: "contract", seat: 2, value: 30 }, me), "Siti wins the contract: 30");
  assert.equal(describeEvent({ type: "rematch", table_seat: 0 }, me), "You want to play again");
  assert.equal(describeEvent({ type: "away", table_seat: 0 }, me), "You are away; a bot plays for you");
  setLang("id");
  assert.equal(describeEvent({ type: "away", table_seat: 0 }, ctx), "Kursi 1 tidak aktif; bot bermain untuknya");
  assert.equal(describeEvent({ type: "away", table_seat: 0 }, { ...ctx, myTableSeat: () => 0 }),
    "Anda tidak aktif; bot bermain untuk Anda");
  assert.equal(describeEvent({ type: "contract", seat: 0, value: 30 }, ctx), "Kontrak untuk Anda: 30");
});

test("numbers agree: 1 tile, 2 tiles; Indonesian nouns do not change", () => {
  setLang("en");
  assert.deepEqual([count("table.tiles", 1), count("table.tiles", 2), count("table.tiles", 0)],
    ["1 tile", "2 tiles", "0 tiles"]);
  assert.deepEqual([count("table.score", 1), count("result.pips", 1), count("short.rounds", 1)],
    ["1 point", "1 pip", "1 round"]);
  setLang("id");
  assert.deepEqual([count("table.tiles", 1), count("table.tiles", 7)], ["1 kartu", "7 kartu"]);
  assert.equal(about("moon.team_of", true, { a: "Anda", b: "Bot 3" }), "Tim Anda, dengan Bot 3");
  assert.equal(about("moon.team_of", false, { a: "Budi", b: "Bot 3" }), "Tim Budi & Bot 3");
});

test("Moon's bidding pass reads as its button (Pas); a match's end is said once", () => {
  setLang("id");
  assert.equal(describeEvent({ type: "passed", seat: 1 }, { ...ctx, game: () => "moon" }), "Budi pas");
  assert.equal(describeEvent({ type: "passed", seat: 1 }, { ...ctx, game: () => "gaple" }), "Budi lewat");
  // the game's own match_over (or Gaple's round_over) says it; the table's end adds nothing
  assert.equal(describeEvent({ type: "table_over" }, { ...ctx, chips: () => true }), "");
  assert.equal(describeEvent({ type: "table_over" }, { ...ctx, chips: () => false }), "");
  assert.equal(describeEvent({ type: "match_started", match_no: 3 }, { ...ctx, chips: () => true }),
    "Ronde 3 dimulai");
  assert.equal(describeEvent({ type: "match_started", match_no: 2 }, ctx), "Pertandingan 2 dimulai");
});
