import assert from "node:assert/strict";
import { test } from "node:test";
import { HOUR_SECONDS, type HourlySummary } from "./hourlySummary.ts";
import { createRecentLevels, FEATURE_COUNT, logWei } from "./outlookFeatures.ts";

function hour(start: number, p50: bigint, min = p50): HourlySummary {
  return { start, blocks: 1, sampled: false, min, p10: p50, p50, p90: p50, max: p50, last: p50 };
}

const MONDAY_NOON = 1_704_672_000 + 12 * HOUR_SECONDS; // 2024-01-08 12:00 UTC
const SATURDAY_NOON = MONDAY_NOON + 5 * 86_400;

test("a fee that never moved is at every one of its levels; the time of day and the weekend are read from the moment", () => {
  const levels = createRecentLevels();
  for (let i = 0; i < 200; i++) levels.observe(hour(MONDAY_NOON - (200 - i) * HOUR_SECONDS, 20_000_000_000n));
  const features = levels.featuresAt(logWei(20_000_000_000n), MONDAY_NOON, new Float64Array(FEATURE_COUNT));
  assert.equal(features[0], 1);
  for (const index of [1, 2, 3, 4, 5, 11, 12, 13, 14]) assert.equal(features[index], 0, `feature ${index}`);
  assert.ok(Math.abs((features[6] as number) - 0) < 1e-12 && Math.abs((features[7] as number) - -1) < 1e-12, "noon");
  assert.equal(features[10], 0, "Monday");
  assert.equal(levels.featuresAt(0, SATURDAY_NOON, new Float64Array(FEATURE_COUNT))[10], 1, "Saturday");
});

test("a fee twice its week's level and four times its day's lowest says so, and only the last week counts", () => {
  const levels = createRecentLevels();
  levels.observe(hour(0, 1_000_000_000_000n)); // more than a week before the rest: forgotten
  const start = 400 * HOUR_SECONDS;
  for (let i = 0; i < 168; i++) levels.observe(hour(start + i * HOUR_SECONDS, 10n ** 10n, i === 160 ? 5n * 10n ** 9n : 10n ** 10n));
  const features = levels.featuresAt(logWei(2n * 10n ** 10n), start + 168 * HOUR_SECONDS, new Float64Array(FEATURE_COUNT));
  assert.ok(Math.abs((features[1] as number) - Math.log(2)) < 1e-12, "against the 7-day median");
  assert.ok(Math.abs((features[11] as number) - Math.log(4)) < 1e-12, "against the 24 h lowest");
  assert.ok(Math.abs((features[13] as number) - Math.log(2)) < 1e-12, "against the 6 h lowest");
});

test("with no hour at all, or a base fee of 0, the features are finite", () => {
  const empty = createRecentLevels();
  assert.ok(empty.empty);
  for (const value of empty.featuresAt(logWei(0n), MONDAY_NOON, new Float64Array(FEATURE_COUNT))) assert.ok(Number.isFinite(value));
  const zero = createRecentLevels();
  zero.observe(hour(0, 0n));
  for (const value of zero.featuresAt(logWei(0n), HOUR_SECONDS, new Float64Array(FEATURE_COUNT))) assert.ok(Number.isFinite(value));
});

test("the week's profile by hour of the day tells how far the fee now is above the cheapest hour to come", () => {
  const levels = createRecentLevels();
  const start = MONDAY_NOON - 12 * HOUR_SECONDS - 7 * 86_400; // a Monday 00:00, a week before
  for (let i = 0; i < 168; i++) {
    const cheap = i % 24 === 3 ? 5n * 10n ** 9n : 10n ** 10n; // 03:00 is the cheap hour every day
    levels.observe(hour(start + i * HOUR_SECONDS, 10n ** 10n, cheap));
  }
  const atMidnight = levels.featuresAt(logWei(10n ** 10n), start + 168 * HOUR_SECONDS, new Float64Array(FEATURE_COUNT));
  assert.deepEqual(
    Array.from(atMidnight.slice(15, 20), (value) => Math.round(value * 1e9) / 1e9),
    [0, 0, Math.round(Math.log(2) * 1e9) / 1e9, Math.round(Math.log(2) * 1e9) / 1e9, Math.round(Math.log(2) * 1e9) / 1e9],
  );
});
