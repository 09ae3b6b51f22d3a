import assert from "node:assert/strict";
import { test } from "node:test";
import { syntheticHours } from "../../../test/support/hourlySummaries.ts";
import { hoursAsDuration, lowestFeesOf, outlookBasisOf, probabilityAtOrBelowWei, ratioOf, weiTimesRatio } from "./outlookFigures.ts";

test("a ratio of a base fee is rounded to whole wei, half up, exactly past a double's integers too", () => {
  assert.equal(weiTimesRatio(15_100_000_000n, 0.75), 11_325_000_000n);
  assert.equal(weiTimesRatio(3n, 0.5), 2n);
  assert.equal(weiTimesRatio(7n, 0), 0n);
  assert.equal(weiTimesRatio(10n ** 30n, 0.5), 5n * 10n ** 29n);
  assert.equal(weiTimesRatio(10n ** 30n + 1n, 1), 10n ** 30n + 1n);
  assert.throws(() => weiTimesRatio(1n, -0.1), RangeError);
  assert.throws(() => weiTimesRatio(1n, Number.NaN), RangeError);
});

test("a Gwei threshold is the ratio it stands for now; a zero base fee is any threshold's ceiling", () => {
  assert.equal(ratioOf(11_325_000_000n, 15_100_000_000n), 0.75);
  assert.equal(ratioOf(0n, 0n), 1);
  assert.ok(ratioOf(1n, 0n) > 1e300);
});

test("the forecast's quantiles and chance in wei: quantiles at the current fee, the chance at the threshold's ratio, within 0..1", () => {
  const forecast = { quantileRatio: (q: number) => 0.5 + q / 2, probabilityAtOrBelow: (ratio: number) => ratio * 2 - 1 };
  assert.deepEqual(lowestFeesOf(forecast, 10_000_000_000n), { p10: 5_500_000_000n, p50: 7_500_000_000n, p90: 9_500_000_000n });
  assert.equal(probabilityAtOrBelowWei(forecast, 10_000_000_000n, 8_000_000_000n), 0.6);
  assert.equal(probabilityAtOrBelowWei(forecast, 10_000_000_000n, 1n), 0);
  assert.equal(probabilityAtOrBelowWei(forecast, 10_000_000_000n, 30_000_000_000n), 1);
});

test("the basis: the first hour's start, the newest hour's end, hours, sampled hours and weeks to a tenth", () => {
  const hours = syntheticHours(1_767_225_600, 1344).map((hour, index) => (index % 3 === 0 ? { ...hour, sampled: true } : hour));
  assert.deepEqual(outlookBasisOf(hours), { from: 1_767_225_600, to: 1_767_225_600 + 1344 * 3600, hours: 1344, sampledHours: 448, weeks: 8 });
  assert.deepEqual(outlookBasisOf(hours.slice(0, 100)).weeks, 0.6);
  assert.deepEqual(outlookBasisOf([]), { from: 0, to: 0, hours: 0, sampledHours: 0, weeks: 0 });
});

test("hours held as a duration: whole days in days, else hours", () => {
  assert.equal(hoursAsDuration(0), "0h");
  assert.equal(hoursAsDuration(200), "200h");
  assert.equal(hoursAsDuration(312), "13d");
});
