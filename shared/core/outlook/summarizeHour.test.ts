import assert from "node:assert/strict";
import { test } from "node:test";
import type { FeeSample } from "./feeSample.ts";
import { summarizeByHour, summarizeHour } from "./summarizeHour.ts";

const HOUR = 3_600;

/** A plain reading of the contract: the nearest-rank percentile of the hour's fees, counted by hand. */
function byHand(fees: readonly bigint[], percentile: number): bigint {
  const sorted = [...fees].sort((a, b) => Number(a - b));
  return sorted[Math.ceil((percentile / 100) * sorted.length) - 1]!;
}

test("an hour's summary is exact against its blocks: min, nearest-rank p10/p50/p90, max, the newest block's fee", () => {
  const fees = [30n, 10n, 50n, 20n, 40n, 60n, 70n, 80n, 90n, 100n, 25n];
  const summary = summarizeHour(7 * HOUR, fees);
  assert.deepEqual(summary, {
    start: 7 * HOUR,
    blocks: 11,
    sampled: false,
    min: 10n,
    p10: 20n, // ceil(1.1) - 1 = index 1 of 10,20,25,30,...
    p50: 50n, // ceil(5.5) - 1 = index 5
    p90: 90n, // ceil(9.9) - 1 = index 9
    max: 100n,
    last: 25n,
  });
  assert.equal(summarizeHour(0, [5n], true).sampled, true);
  assert.deepEqual({ ...summarizeHour(0, [5n]) }, { start: 0, blocks: 1, sampled: false, min: 5n, p10: 5n, p50: 5n, p90: 5n, max: 5n, last: 5n });
});

test("summaries of a day of 12-second blocks match the blocks hour by hour, in exact wei", () => {
  let seed = 7;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const blocks: FeeSample[] = [];
  for (let timestamp = 1_700_000_003; timestamp < 1_700_000_003 + 86_400; timestamp += 12) {
    blocks.push({ timestamp, baseFee: 1_000_000_000n + BigInt(Math.floor(random() * 90e9)) + 1n });
  }
  const summaries = summarizeByHour(blocks);
  assert.equal(summaries.length, 25); // the day straddles 25 UTC hours
  for (const summary of summaries) {
    const fees = blocks.filter((block) => block.timestamp >= summary.start && block.timestamp < summary.start + HOUR).map((block) => block.baseFee);
    assert.equal(summary.blocks, fees.length);
    assert.equal(
      summary.min,
      fees.reduce((a, b) => (a < b ? a : b)),
    );
    assert.equal(summary.p10, byHand(fees, 10));
    assert.equal(summary.p50, byHand(fees, 50));
    assert.equal(summary.p90, byHand(fees, 90));
    assert.equal(summary.max, byHand(fees, 100));
    assert.equal(summary.last, fees[fees.length - 1]);
  }
});

test("an hour without samples is missing, never invented", () => {
  const summaries = summarizeByHour([
    { timestamp: 10 * HOUR + 5, baseFee: 3n },
    { timestamp: 10 * HOUR + 3_599, baseFee: 4n },
    { timestamp: 13 * HOUR, baseFee: 9n },
  ]);
  assert.deepEqual(
    summaries.map((summary) => [summary.start, summary.blocks, summary.last]),
    [
      [10 * HOUR, 2, 4n],
      [13 * HOUR, 1, 9n],
    ],
  );
  assert.deepEqual(summarizeByHour([]), []);
});

test("bad input is refused with a reason", () => {
  assert.throws(() => summarizeHour(100, [1n]), /multiple of 3600/);
  assert.throws(() => summarizeHour(0, []), /no fee/);
  assert.throws(() => summarizeHour(0, [-1n]), /negative/);
  assert.throws(
    () =>
      summarizeByHour([
        { timestamp: 20, baseFee: 1n },
        { timestamp: 10, baseFee: 1n },
      ]),
    /time order/,
  );
});
