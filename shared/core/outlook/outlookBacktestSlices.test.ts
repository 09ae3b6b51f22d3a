import assert from "node:assert/strict";
import { test } from "node:test";
import { syntheticHours } from "../../../test/support/hourlySummaries.ts";
import { backtestSummaries } from "./backtestSummaries.ts";
import { createDefaultEstimator } from "./defaultEstimator.ts";
import { pooledBacktestSlices, runToEnd } from "./outlookBacktestSlices.ts";

const START = 1_767_225_600;

test("the sliced backtest of a horizon is backtestSummaries' for it, however the replay is cut", () => {
  const hours = syntheticHours(START, 45 * 24, 7);
  const reference = backtestSummaries(hours, createDefaultEstimator, [1, 6, 24, 100]);
  [1, 6, 24, 100].forEach((withinHours, index) => {
    for (const stepsPerSlice of [1, 37, 1_000_000]) {
      assert.deepEqual(runToEnd(pooledBacktestSlices(hours, createDefaultEstimator, withinHours, stepsPerSlice)), reference[index], `${withinHours} h`);
    }
  });
  assert.ok(reference[0]!.forecasts > 0);
});

test("a slice holds at most stepsPerSlice steps: a year's replay is cut into as many slices as it has steps over the slice's size", () => {
  const hours = syntheticHours(START, 365 * 24, 3);
  const slices = pooledBacktestSlices(hours, createDefaultEstimator, 24, 64);
  let yields = 0;
  while (slices.next().done !== true) yields += 1;
  // Every hour observed once and every moment after the 28-day warm-up forecast at once, then the outcomes, then the scoring.
  const steps = hours.length + (hours.length - 28 * 24);
  assert.equal(yields, Math.floor(steps / 64) + 2);
});
