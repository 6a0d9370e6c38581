// The create form's and the lobby list's view of a game's options (static/js/options.js), with
// the real dictionaries and descriptors shaped as GET /api/games serves them.

import assert from "node:assert/strict";
import test from "node:test";

import { has, setLang, t } from "../../static/js/i18n.js";
import { optionTags, readOptions, seatCounts } from "../../static/js/options.js";

const GAPLE = {
  name: "gaple", seats: { min: 2, max: 4, default: 4 }, chips: true, managed: ["stacks"],
  options: [
    { key: "stake", type: "int", default: 10, label: "opt.stake", help: "opt.stake.help", min: 1, max: 1e9 },
    { key: "field", type: "choice", default: "normal", label: "opt.field", help: "opt.field.help",
      choices: ["normal", "bet"] },
    { key: "opener", type: "choice", default: "random", label: "opt.opener", help: null,
      choices: ["random", "previous_winner"] },
  ],
};
const TRAIN = {
  name: "mexican_train", seats: { min: 2, max: 8, default: 4 }, chips: false, managed: [],
  options: [
    { key: "rounds", type: "int", default: 13, label: "opt.rounds", help: "opt.rounds.help", min: 1, max: 13 },
    { key: "first_turn_multi", type: "bool", default: true, label: "opt.first_turn_multi", help: null },
    { key: "doubles", type: "choice", default: "satisfy", label: "opt.doubles", help: null,
      choices: ["satisfy", "chain"] },
  ],
};
const TABLE = [{ key: "turn_seconds", type: "int", default: 20, min: 1, max: 600,
  label: "create.turn_seconds", help: "create.turn_seconds.help" }];

test("only what differs from the default is tagged, in short dictionary words", () => {
  setLang("id");
  assert.deepEqual(optionTags(GAPLE.options, { stake: 10, field: "normal", opener: "random" }, t, has,
    { chips: true }), []);
  assert.deepEqual(optionTags(GAPLE.options, { stake: 50, field: "bet", opener: "previous_winner" }, t,
    has, { chips: true }), ["Bidang Bet", "Pemenang membuka"], "the stake has its own pill");
  assert.deepEqual(optionTags(TRAIN.options, { rounds: 1, first_turn_multi: false, doubles: "chain" }, t,
    has), ["1 ronde", "Satu kartu di giliran awal", "Balak berantai"]);
  assert.deepEqual(optionTags(TABLE, { turn_seconds: 60 }, t, has), ["60 dtk/giliran"]);
  assert.deepEqual(optionTags(TABLE, { turn_seconds: 20 }, t, has), []);
  setLang("en");
  assert.deepEqual(optionTags(GAPLE.options, { field: "bet" }, t, has, { chips: true }), ["Bet table"]);
  setLang("id");
});

test("an option without short words is tagged with its label", () => {
  const fresh = [
    { key: "new_count", type: "int", default: 3, label: "opt.rounds" },
    { key: "new_switch", type: "bool", default: false, label: "opt.rounds" },
    { key: "doubles", type: "choice", default: "chain", label: "opt.doubles", choices: ["satisfy", "chain"] },
  ];
  assert.deepEqual(optionTags(fresh, { new_count: 5, new_switch: true, doubles: "satisfy" }, t, has),
    ["Jumlah ronde: 5", "Jumlah ronde: ya", "Balak harus ditutup dulu sebelum main lain"]);
});

test("every option of the games has its words in both languages", () => {
  for (const lang of ["id", "en"]) {
    setLang(lang);
    for (const o of [...GAPLE.options, ...TRAIN.options, ...TABLE]) {
      assert.ok(has(o.label), `${lang}: ${o.label}`);
      if (o.help) assert.ok(has(o.help), `${lang}: ${o.help}`);
      for (const c of o.choices || []) assert.ok(has(`${o.label}.${c}`), `${lang}: ${o.label}.${c}`);
    }
  }
  setLang("id");
});

test("a form's raw values become typed options", () => {
  const form = { stake: "25", field: "bet", opener: "random", first_turn_multi: null, rounds: "3",
    doubles: "nonsense", turn_seconds: "45" };
  const get = (k) => form[k] ?? null;
  assert.deepEqual(readOptions(GAPLE.options, get), { stake: 25, field: "bet", opener: "random" });
  assert.deepEqual(readOptions(TRAIN.options, get), { rounds: 3, first_turn_multi: false, doubles: "satisfy" });
  assert.deepEqual(readOptions(TABLE, get), { turn_seconds: 45 });
  assert.deepEqual(readOptions([{ key: "n", type: "choice", default: 2, choices: [2, 3] }], () => "3"), { n: 3 });
});

test("the seat counts run from the least to the most", () => {
  assert.deepEqual(seatCounts(GAPLE), [2, 3, 4]);
  assert.deepEqual(seatCounts(TRAIN), [2, 3, 4, 5, 6, 7, 8]);
});
