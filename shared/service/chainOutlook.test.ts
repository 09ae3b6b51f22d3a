import assert from "node:assert/strict";
import { test } from "node:test";
import { syntheticHours } from "../../test/support/hourlySummaries.ts";
import { createDefaultEstimator } from "../core/outlook/defaultEstimator.ts";
import type { HourlySummary } from "../core/outlook/hourlySummary.ts";
import { pooledBacktestSlices, runToEnd } from "../core/outlook/outlookBacktestSlices.ts";
import type { OutlookEstimator } from "../core/outlook/outlookEstimator.ts";
import { ChainOutlook } from "./chainOutlook.ts";

const START = 1_767_225_600;

/** Estimators that count what they are asked: how many were made, hours observed and forecasts made. */
function countingEstimators() {
  const counts = { made: 0, observed: 0, forecasts: 0 };
  const create = (): OutlookEstimator => {
    counts.made += 1;
    const inner = createDefaultEstimator();
    return {
      observe: (hour) => {
        counts.observed += 1;
        inner.observe(hour);
      },
      forecast: (moment, withinHours) => {
        counts.forecasts += 1;
        return inner.forecast(moment, withinHours);
      },
    };
  };
  return { counts, create };
}

function outlookOf(create: () => OutlookEstimator, hoursPerSlice = 64): ChainOutlook {
  return new ChainOutlook({ createEstimator: create, hoursPerSlice, eagerHorizons: [1, 6] });
}

test("an hour closing is observed once by the live estimator; a held hour rebuilt replays a fresh estimator over all", async () => {
  const { counts, create } = countingEstimators();
  const outlook = outlookOf(create);
  const hours = syntheticHours(START, 30 * 24);
  outlook.take(hours);
  await outlook.whenIdle();
  const madeBefore = counts.made;
  const observedBefore = counts.observed;
  // One more hour: only it is observed, by the estimator already fed (and the eager backtests replay fresh ones).
  const more = [...hours, ...syntheticHours(START + hours.length * 3600, 1, 9)];
  outlook.take(more);
  assert.equal(counts.observed - observedBefore, 1, "the live estimator observes the new hour at once");
  await outlook.whenIdle();
  assert.equal(counts.made - madeBefore, 2, "one fresh estimator per eager backtest, none for the live forecasts");
  // The same array again is nothing new.
  const settled = { ...counts };
  outlook.take(more);
  await outlook.whenIdle();
  assert.deepEqual(counts, settled);
  // An hour in the middle rebuilt: a fresh live estimator observes every hour, in slices.
  const rebuilt = more.map((hour, index) => (index === 100 ? { ...hour, min: hour.min - 1n } : hour));
  const observedThen = counts.observed;
  outlook.take(rebuilt);
  assert.equal(counts.observed, observedThen, "nothing is replayed on the caller's turn");
  await outlook.whenIdle();
  assert.equal(counts.observed - observedThen, rebuilt.length * 3, "the live replay and the two eager backtests");
});

test("a forecast is made once per moment and horizon, and the moment's next block makes it anew", async () => {
  const { counts, create } = countingEstimators();
  const outlook = outlookOf(create);
  outlook.take(syntheticHours(START, 20 * 24));
  await outlook.whenIdle();
  const moment = { timestamp: START + 20 * 86_400 + 12, baseFee: 21_000_000_000n };
  const before = counts.forecasts;
  const first = outlook.forecast(moment, 6);
  assert.equal(outlook.forecast(moment, 6), first);
  assert.equal(counts.forecasts - before, 1);
  assert.ok(!(outlook.forecast(moment, 3) instanceof Promise));
  assert.equal(counts.forecasts - before, 2);
  const next = outlook.forecast({ ...moment, timestamp: moment.timestamp + 12 }, 6);
  assert.notEqual(next, first);
  assert.equal(counts.forecasts - before, 3);
});

test("the eager horizons' backtests are prepared when the summaries change, equal to the replay at once, and answered as they are", async () => {
  const { create } = countingEstimators();
  const outlook = outlookOf(create);
  const hours = syntheticHours(START, 40 * 24, 5);
  outlook.take(hours);
  assert.ok(outlook.pendingJobs > 0);
  await outlook.whenIdle();
  const six = outlook.backtest(6);
  assert.ok(!(six instanceof Promise), "prepared before anyone asked");
  assert.deepEqual(six, runToEnd(pooledBacktestSlices(hours, createDefaultEstimator, 6)));
  assert.equal(outlook.backtest(6), six, "kept, not made again");
  // An hour closes: until the new one is ready, the previous hour's answers.
  outlook.take([...hours, ...syntheticHours(START + hours.length * 3600, 1, 11)]);
  assert.equal(outlook.backtest(6), six);
  await outlook.whenIdle();
  assert.notEqual(outlook.backtest(6), six);
});

test("another horizon is prepared on first ask, in slices, then kept until the next hour", async () => {
  const { create } = countingEstimators();
  const outlook = outlookOf(create, 32);
  const hours = syntheticHours(START, 40 * 24, 5);
  outlook.take(hours);
  await outlook.whenIdle();
  const asked = outlook.backtest(48);
  assert.ok(asked instanceof Promise, "not prepared before the ask");
  assert.equal(outlook.pendingJobs, 1);
  const ready = await asked;
  assert.deepEqual(ready, runToEnd(pooledBacktestSlices(hours, createDefaultEstimator, 48)));
  assert.equal(outlook.backtest(48), ready);
  outlook.take([...hours, ...syntheticHours(START + hours.length * 3600, 1, 11)]);
  assert.ok(outlook.backtest(48) instanceof Promise, "the next hour prepares it anew on ask");
  await outlook.whenIdle();
});

test("summaries replaced while a backtest is prepared: its slices stop, and whoever waits gets the newest summaries' backtest", async () => {
  const { create } = countingEstimators();
  const outlook = outlookOf(create, 8);
  const hours = syntheticHours(START, 40 * 24, 5);
  outlook.take(hours);
  await outlook.whenIdle();
  const asked = outlook.backtest(48) as Promise<unknown>;
  const newer: HourlySummary[] = syntheticHours(START, 41 * 24, 6);
  outlook.take(newer);
  const answered = await asked;
  assert.deepEqual(answered, runToEnd(pooledBacktestSlices(newer, createDefaultEstimator, 48)));
  await outlook.whenIdle();
});

test("a forecast asked while the live estimator is replayed waits for it, and is made from every hour", async () => {
  const { create } = countingEstimators();
  const outlook = outlookOf(create, 16);
  const hours = syntheticHours(START, 20 * 24, 5);
  outlook.take(hours);
  const moment = { timestamp: START + 20 * 86_400, baseFee: 21_000_000_000n };
  const waiting = outlook.forecast(moment, 6);
  assert.ok(waiting instanceof Promise);
  const reference = createDefaultEstimator();
  for (const hour of hours) reference.observe(hour);
  assert.equal((await waiting).probabilityAtOrBelow(0.8), reference.forecast(moment, 6).probabilityAtOrBelow(0.8));
  await outlook.whenIdle();
});
