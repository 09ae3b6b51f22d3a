import assert from "node:assert/strict";
import { test } from "node:test";
import type { BaseFeeStatsBucket } from "../../shared/wire/baseFeeStats.ts";
import { costBuckets, priceAt } from "../../renderer/src/costs/costSeries.ts";
import { GWEI_UNIT, moneyDigits, moneyUnit } from "../../renderer/src/text/valueUnit.ts";

const POINTS = [
  { time: 1000, value: "2000" },
  { time: 2000, value: "3000.5" },
];

test("the price in force at a time: the newest point at or before it", () => {
  assert.equal(priceAt(POINTS, 999), undefined);
  assert.equal(priceAt(POINTS, 1000), "2000");
  assert.equal(priceAt(POINTS, 1999), "2000");
  assert.equal(priceAt(POINTS, 2000), "3000.5");
  assert.equal(priceAt(POINTS, 10 ** 10), "3000.5");
  assert.equal(priceAt([], 5), undefined);
});

test("each bucket's base fees become the action's cost at the price of its middle, exactly rounded", () => {
  const bucket = (start: number, end: number, fields: Partial<BaseFeeStatsBucket>): BaseFeeStatsBucket => ({ start, end, blocks: 10, ...fields });
  const { buckets, unpriced } = costBuckets(
    [
      bucket(500, 900, { p50: "20" }), // before any price: left empty
      bucket(1000, 1600, { min: "10", p50: "20", max: "30.5" }), // middle 1300: $2000
      bucket(1800, 2400, { p50: "20" }), // middle 2100: $3000.5
      { start: 2400, end: 2500, blocks: 0 },
    ],
    21_000n,
    POINTS,
  );
  assert.equal(unpriced, 1);
  assert.deepEqual(buckets[0], { start: 500, end: 900, blocks: 0 });
  // 21,000 gas × 20 Gwei = 0.00042 ETH; × $2,000 = $0.84; × $3,000.5 = $1.26021 -> $1.26
  assert.equal(buckets[1]!.p50, "0.84");
  assert.equal(buckets[1]!.min, "0.42");
  assert.equal(buckets[1]!.max, "1.28"); // 30.5 Gwei: 0.0006405 ETH × 2000 = 1.281
  assert.equal(buckets[2]!.p50, "1.26");
  assert.deepEqual(buckets[3], { start: 2400, end: 2500, blocks: 0 });
});

test("money ticks: cents, two significant digits below a cent, never an exponent", () => {
  assert.equal(moneyDigits(1.4), "1.40");
  assert.equal(moneyDigits(0.0042), "0.0042");
  assert.equal(moneyDigits(0.00000071), "0.00000071");
  assert.equal(moneyDigits(0), "0.00");
  assert.equal(moneyUnit("USD").short(1234.5), "$1,234.50");
  assert.equal(moneyUnit("USD").short(70), "$70", "whole ticks from $10 up, narrow enough for the axis");
  assert.equal(moneyUnit("USD").short(2), "$2.00");
  assert.equal(moneyUnit("USD").exact("0.0042"), "$0.0042");
});

test("figures side by side read alike: money ticks all whole or all to the cent, Gwei bounds with four digits each", () => {
  const whole = moneyUnit("USD").alike([0, 5, 10, 15]);
  assert.deepEqual([0, 5, 10, 15].map(whole), ["$0", "$5", "$10", "$15"], 'no "$5.00" beside "$10"');
  const cents = moneyUnit("USD").alike([0, 2.5, 5, 7.5, 10]);
  assert.deepEqual([2.5, 5, 10].map(cents), ["$2.50", "$5.00", "$10.00"]);
  const bounds = GWEI_UNIT.alike([65.56, 76.6, 84.33, 92.99, 151.9]);
  assert.deepEqual([65.56, 76.6, 84.33, 92.99, 151.9].map(bounds), ["65.56", "76.60", "84.33", "92.99", "151.9"], 'no "76.6" beside "65.56"');
  assert.deepEqual([0, 1.2e-9, 1234.5].map(bounds), ["0", "1.2e-9", "1,235"]);
});
