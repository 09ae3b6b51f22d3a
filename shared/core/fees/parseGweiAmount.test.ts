import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { toGweiString } from "./gwei.ts";
import { parseGweiAmount } from "./parseGweiAmount.ts";

const weiOf = (value: string | number) => {
  const amount = parseGweiAmount(value);
  assert.ok("wei" in amount, `${value}: ${"problem" in amount ? amount.problem : ""}`);
  return amount.wei;
};
const problemOf = (value: string | number) => {
  const amount = parseGweiAmount(value);
  assert.ok("problem" in amount, `${value} was read as ${"wei" in amount ? amount.wei : ""} wei`);
  return amount.problem;
};

test("a fee in Gwei becomes wei exactly, from a string or a JSON number", () => {
  assert.equal(weiOf("8"), 8_000_000_000n);
  assert.equal(weiOf("0"), 0n);
  assert.equal(weiOf("0.000000001"), 1n);
  assert.equal(weiOf("123456789.123456789"), 123_456_789_123_456_789n);
  assert.equal(weiOf("15.82929799"), 15_829_297_990n);
  assert.equal(weiOf(" 007.50 "), 7_500_000_000n);
  assert.equal(weiOf("99999999999999999999.999999999"), 99_999_999_999_999_999_999_999_999_999n);
  assert.equal(weiOf(8), 8_000_000_000n);
  assert.equal(weiOf(0.1), 100_000_000n);
  assert.equal(weiOf(12.345678901), 12_345_678_901n);
  assert.equal(weiOf(0.000001), 1_000n);
});

test("negatives, exponents, other text, more than 9 decimals and inexact numbers are refused, saying what to write", () => {
  assert.match(problemOf("-1"), /^cannot be negative \("-1"\): write a fee of 0 Gwei or more/);
  assert.match(problemOf("-0.5"), /^cannot be negative/);
  assert.match(problemOf(-3), /^cannot be negative \(got -3\)/);
  assert.match(problemOf("1e3"), /^is written with an exponent \("1e3"\): write the fee out in digits/);
  assert.match(problemOf("2.5E-3"), /exponent/);
  for (const text of ["cheap", "8 gwei", "0x10", "+8", ".5", "8.", "1,5", "1 000", "∞", "NaN", "Infinity", "--1", "1e"]) {
    assert.match(problemOf(text), /^is not a number of Gwei \(.*\): write digits with at most one decimal point/, text);
  }
  assert.match(problemOf(""), /^is empty/);
  assert.match(problemOf("   "), /^is empty/);
  assert.match(problemOf("0.0000000001"), /^has 10 decimals \("0\.0000000001"\), but a Gwei has only 9 \(1 wei is "0\.000000001"\)/);
  assert.match(problemOf("1".repeat(51)), /too long/);
  // What JavaScript writes with an exponent, and numbers past 15 significant digits, may differ from what was written.
  assert.match(problemOf(1e-7), /^is a number \(1e-7\) that JSON cannot hold exactly: write it as a string/);
  assert.match(problemOf(1e21), /cannot hold exactly/);
  assert.match(problemOf(0.1234567890123456), /cannot hold exactly/);
  assert.match(problemOf(Number.NaN), /^is not a number of Gwei/);
  assert.match(problemOf(Number.POSITIVE_INFINITY), /^is not a number of Gwei/);
});

test("every wei amount written as the API writes it (toGweiString) reads back as itself", () => {
  fc.assert(
    fc.property(fc.bigInt({ min: 0n, max: 10n ** 30n }), (wei) => {
      assert.equal(weiOf(toGweiString(wei)), wei);
    }),
  );
});

test("any text either reads as a non-negative amount that the API writes back as the same decimal, or is refused", () => {
  fc.assert(
    fc.property(fc.oneof(fc.string(), fc.stringMatching(/^-?[0-9]{0,12}(\.[0-9]{0,12})?(e-?[0-9])?$/)), (text) => {
      const amount = parseGweiAmount(text);
      if ("problem" in amount) return;
      assert.ok(amount.wei >= 0n);
      // The same number: toGweiString writes the shortest decimal, so compare without leading and trailing zeros.
      const [whole = "", fraction = ""] = text.trim().split(".");
      const written = `${whole.replace(/^0+(?=[0-9])/, "")}${fraction.replace(/0+$/, "") === "" ? "" : `.${fraction.replace(/0+$/, "")}`}`;
      assert.equal(toGweiString(amount.wei), written);
    }),
    { numRuns: 1000 },
  );
});
