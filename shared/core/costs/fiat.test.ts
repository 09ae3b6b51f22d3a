import assert from "node:assert/strict";
import { test } from "node:test";
import { fiatOf } from "./fiat.ts";

const ETH = 10n ** 18n;
const price = (dollars: string): bigint => BigInt(dollars.replace(".", "")) * 10n ** BigInt(8 - (dollars.split(".")[1]?.length ?? 0));

test("amounts of a cent or more are rounded half up to the cent", () => {
  assert.equal(fiatOf(ETH, price("3120.45"), 8), "3120.45");
  assert.equal(fiatOf(317_100_000_000_000n, price("3120.45"), 8), "0.99"); // 0.98949...
  assert.equal(fiatOf(ETH / 100n, price("1.5"), 8), "0.02"); // 0.015 exactly: half up
  assert.equal(fiatOf(ETH / 1000n, price("10"), 8), "0.01"); // exactly a cent
  assert.equal(fiatOf(2n * ETH, price("0.7"), 8), "1.40");
});

test("amounts below a cent keep two significant digits; zero is 0.00", () => {
  assert.equal(fiatOf(1_000_000_000_000n, price("3400"), 8), "0.0034");
  assert.equal(fiatOf(21_000n * 5_000_000n, price("3000"), 8), "0.00032"); // 0.000315 → half up
  assert.equal(fiatOf(0n, price("3000"), 8), "0.00");
  assert.equal(fiatOf(1n, price("3000"), 8), "0.0000000000000030");
  // 0.00995 rounds up to one cent, written as such at the precision it was rounded at.
  assert.equal(fiatOf(995n * 10n ** 13n, price("1"), 8), "0.010");
});

test("any decimals of the feed give the same amount", () => {
  assert.equal(fiatOf(ETH, 312045n * 10n ** 16n, 18), "3120.45");
  assert.equal(fiatOf(ETH, 3120n, 0), "3120.00");
});

test("a price of zero or less is refused, never turned into money", () => {
  assert.throws(() => fiatOf(ETH, 0n, 8), RangeError);
  assert.throws(() => fiatOf(ETH, -1n, 8), RangeError);
});
