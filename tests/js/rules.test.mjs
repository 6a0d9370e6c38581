// The rules pages (static/js/rules/id.js and en.js) say the same things in both languages:
// the same games, sections, lists and tables, so neither page is missing a part.

import assert from "node:assert/strict";
import test from "node:test";

import id from "../../static/js/rules/id.js";
import en from "../../static/js/rules/en.js";

/** A page's shape: strings become "p", lists their length, tables their rows' lengths. */
function shape(sections) {
  return sections.map((s) => s.body.map((part) => {
    if (typeof part === "string") return "p";
    if (Array.isArray(part)) return part.length;
    return part.table.map((row) => row.length);
  }));
}

test("both languages have the same games, sections, lists and tables", () => {
  assert.deepEqual(Object.keys(id.games), ["gaple", "moon", "cross", "mexican_train"]);
  assert.deepEqual(Object.keys(en.games), Object.keys(id.games));
  for (const game of Object.keys(id.games)) {
    assert.deepEqual(shape(en.games[game].sections), shape(id.games[game].sections), game);
    assert.ok(id.games[game].about && en.games[game].about, game);
  }
  assert.deepEqual(shape(en.common), shape(id.common));
});

test("the Gaple page works the docs/rules.md example through: Quartet, Lewat, the bet table", () => {
  for (const [book, words] of [[id, ["Kuartet ×4", "Lewat", "1.600"]], [en, ["Quartet ×4", "passes", "1,600"]]]) {
    const text = JSON.stringify(book.games.gaple);
    for (const w of words) assert.ok(text.includes(w), w);
  }
});
