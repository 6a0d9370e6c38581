// Error texts from their codes (static/js/errors.js): a rate limit says how long to wait.

import assert from "node:assert/strict";
import test from "node:test";

import { ApiError } from "../../static/js/api.js";
import { codeText, errorText } from "../../static/js/errors.js";
import { setLang } from "../../static/js/i18n.js";

test("a rate limit with its seconds says how long to wait, in both languages", () => {
  setLang("id");
  const limited = new ApiError(429, { detail: "too many", code: "rate_limited", retry_after: 42 });
  assert.equal(errorText(limited), "Terlalu sering. Coba lagi dalam 42 detik.");
  assert.equal(codeText("rate_limited", 3000), "Terlalu sering. Coba lagi dalam 50 menit.");
  assert.equal(codeText("rate_limited"), "Terlalu cepat; tunggu sebentar.");  // the socket's bucket
  setLang("en");
  assert.equal(errorText(limited), "Slow down: try again in 42 s.");
  assert.equal(codeText("rate_limited", 90), "Slow down: try again in 2 min.");
  assert.equal(codeText("no_such_thing", 5), "Something went wrong (code: no_such_thing). Try again.");
  setLang("id");
});

test("a refused field is worded from its code and the rule's limits the body carries", () => {
  const body = { code: "name_length", detail: "a name has 2 to 24 characters", min: 2, max: 24,
    field: ["body", "name"] };
  setLang("id");
  assert.equal(errorText(new ApiError(422, body)), "Nama terdiri dari 2–24 karakter.");
  assert.equal(errorText(new ApiError(422, { ...body, min: 3, max: 30 })), "Nama terdiri dari 3–30 karakter.");
  assert.equal(errorText(new ApiError(422, { code: "weak_password", detail: "x", min: 8, max: 256 })),
    "Kata sandi paling sedikit 8 karakter.");
  assert.equal(errorText(new ApiError(422, { code: "string_too_long", detail: "x", max: 64 })),
    "Terlalu panjang: paling banyak 64 karakter.");
  setLang("en");
  assert.equal(errorText(new ApiError(422, body)), "A name has 2–24 characters.");
  setLang("id");
});
