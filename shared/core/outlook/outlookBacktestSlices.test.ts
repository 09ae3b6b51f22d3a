import assert from "node:assert/strict";
import { test } from "node:test";
import { syntheticHours } from "../../../test/support/hourlySummaries.ts";
import { HOUR_SECONDS, type HourlySummary } from "./hourlySummary.ts";
import { pooledBacktestSlices, runToEnd } from "./outlookBacktestSlices.ts";
import type { OutlookEstimator } from "./outlookEstimator.ts";
import { createDefaultEstimator } from "./defaultEstimator.ts";

const START = 1_767_225_600;

/** An estimator that always says `probability`, and records what it was given. */
function constantEstimator(probability: number, seen: { observed: HourlySummary[]; forecastsAt: number[] }): OutlookEstimator {
  return {
    observe: (hour) => void seen.observed.push(hour),
    forecast: (moment) => {
      // Walk-forward: every hour it holds ended by the moment.
      for (const hour of seen.observed) assert.ok(hour.start + HOUR_SECONDS <= moment.timestamp, "an hour after the moment was observed");
      seen.forecastsAt.push(moment.timestamp);
      return { quantileRatio: () => 1, probabilityAtOrBelow: () => probability };
    },
  };
}

test("a forecast of 0.5 everywhere scores 0.25, in the 0.5-0.6 tenth, observed at the base rate; forecasts only after the warm-up", () => {
  const hours = syntheticHours(START, 40 * 24);
  const seen = { observed: [] as HourlySummary[], forecastsAt: [] as number[] };
  const result = runToEnd(pooledBacktestSlices(hours, constantEstimator(0.5, seen), 6));
  // 40 days, 28 of warm-up, the last 6 hours without a whole horizon: 12 x 24 - 6 + 1 moments, 3 ratios each.
  assert.equal(seen.forecastsAt.length, 12 * 24 - 5);
  assert.equal(result.forecasts, 3 * (12 * 24 - 5));
  assert.equal(result.brier, 0.25);
  assert.ok(seen.forecastsAt[0]! >= START + 28 * 86_400);
  const bins = result.reliability;
  assert.deepEqual(
    bins.map((bin) => bin.forecasts),
    [0, 0, 0, 0, 0, result.forecasts, 0, 0, 0, 0],
  );
  assert.equal(bins[5]!.meanProbability, 0.5);
  assert.ok(bins[5]!.observed! > 0 && bins[5]!.observed! < 1);
  assert.equal(bins[0]!.meanProbability, null);
  assert.equal(bins[0]!.observed, null);
  assert.ok(result.brierClimatology! > 0 && result.skill !== null);
});

test("the slices give the same backtest however the replay is cut, and a slice holds at most hoursPerSlice hours", () => {
  const hours = syntheticHours(START, 60 * 24, 7);
  const whole = runToEnd(pooledBacktestSlices(hours, createDefaultEstimator(), 24, 1_000_000));
  const slices = pooledBacktestSlices(hours, createDefaultEstimator(), 24, 16);
  let yields = 0;
  let step = slices.next();
  while (step.done !== true) {
    yields += 1;
    step = slices.next();
  }
  assert.deepEqual(step.value, whole);
  assert.equal(yields, Math.floor(hours.length / 16));
});

test("no look-ahead: the backtest of the first hours is the same whatever follows them, up to the forecasts the later hours resolve", () => {
  const hours = syntheticHours(START, 45 * 24, 3);
  const cut = hours.slice(0, 35 * 24);
  const seenWhole = { observed: [] as HourlySummary[], forecastsAt: [] as number[] };
  const seenCut = { observed: [] as HourlySummary[], forecastsAt: [] as number[] };
  runToEnd(pooledBacktestSlices(hours, constantEstimator(0.3, seenWhole), 3));
  runToEnd(pooledBacktestSlices(cut, constantEstimator(0.3, seenCut), 3));
  assert.deepEqual(seenCut.forecastsAt, seenWhole.forecastsAt.slice(0, seenCut.forecastsAt.length));
});

test("fewer hours than the warm-up: no forecast, and nulls rather than numbers", () => {
  const result = runToEnd(pooledBacktestSlices(syntheticHours(START, 100), createDefaultEstimator(), 1));
  assert.equal(result.forecasts, 0);
  assert.equal(result.brier, null);
  assert.equal(result.skill, null);
});
