import assert from "node:assert/strict";
import { test } from "node:test";
import { shortGwei } from "./shortGwei.ts";

test("about four significant digits, rounded half up, without trailing zeros", () => {
  assert.equal(shortGwei("23.227829059"), "23.23");
  assert.equal(shortGwei("15.82929799"), "15.83");
  assert.equal(shortGwei("0.012345678"), "0.01235");
  assert.equal(shortGwei("2"), "2");
  assert.equal(shortGwei("2.5"), "2.5");
  assert.equal(shortGwei("0"), "0");
});

test("thousands are grouped, and rounded to four significant digits too", () => {
  assert.equal(shortGwei("1234.5678"), "1,235");
  assert.equal(shortGwei("900"), "900");
  assert.equal(shortGwei("123456.789"), "123,500");
});

test("small fees keep their digits; tiny ones (below 1e-6 Gwei) take an exponent", () => {
  assert.equal(shortGwei("0.0001"), "0.0001");
  assert.equal(shortGwei("0.00001234"), "0.00001234");
  assert.equal(shortGwei("0.000000123"), "1.23e-7");
  assert.equal(shortGwei("0.000000001"), "1e-9");
});

test("what is not a number comes back unchanged", () => {
  assert.equal(shortGwei("n/a"), "n/a");
  assert.equal(shortGwei("Infinity"), "Infinity");
});
