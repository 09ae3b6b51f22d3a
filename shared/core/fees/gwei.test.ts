import assert from "node:assert/strict";
import { test } from "node:test";
import { toGweiString } from "./gwei.ts";

test("Gwei strings are exact, shortest, and never rounded (the contract's examples)", () => {
  assert.equal(toGweiString(1n), "0.000000001");
  assert.equal(toGweiString(15_829_297_990n), "15.82929799");
  assert.equal(toGweiString(2_000_000_000n), "2");
  assert.equal(toGweiString(0n), "0");
  assert.equal(toGweiString(37_378_956_101n), "37.378956101");
  assert.equal(toGweiString(999_999_999n), "0.999999999");
});

test("Gwei strings hold values far beyond a float's precision", () => {
  const wei = 123_456_789_012_345_678_901_234_567n;
  assert.equal(toGweiString(wei), "123456789012345678.901234567");
  assert.equal(toGweiString(2n ** 256n - 1n).includes("e"), false);
});

test("a negative base fee is refused", () => {
  assert.throws(() => toGweiString(-1n), /cannot be negative/);
});
