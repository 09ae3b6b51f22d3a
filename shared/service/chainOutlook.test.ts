import assert from "node:assert/strict";
import { test } from "node:test";
import { syntheticHours } from "../../test/support/hourlySummaries.ts";
import { createDefaultEstimator } from "../core/outlook/defaultEstimator.ts";
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

function outlookOf(create: () => OutlookEstimator, keptHorizons = 8): ChainOutlook {
  return new ChainOutlook({ createEstimator: create, eagerHorizons: [1, 6], keptHorizons, stepsPerSlice: 16, sliceMs: 0 });
}

const fullBacktest = (hours: Parameters<typeof pooledBacktestSlices>[0], withinHours: number) =>
  runToEnd(pooledBacktestSlices(hours, createDefaultEstimator, withinHours));

const nextHour = (hours: readonly { start: number }[], seed: number) => syntheticHours(hours.at(-1)!.start + 3600, 1, seed);

test("an hour closing is observed once and forecast at once per kept horizon; a held hour rebuilt replays one fresh estimator over all", async () => {
  const { counts, create } = countingEstimators();
  const outlook = outlookOf(create);
  const hours = syntheticHours(START, 30 * 24);
  outlook.take(hours);
  assert.equal(counts.observed, 0, "nothing is replayed on the caller's turn");
  await outlook.whenIdle();
  assert.equal(counts.observed, hours.length, "one replay observes each hour once");
  const before = { ...counts };
  const more = [...hours, ...nextHour(hours, 9)];
  outlook.take(more);
  assert.deepEqual(
    { ...counts },
    { made: before.made, observed: before.observed + 1, forecasts: before.forecasts + 2 },
    "one hour observed, a forecast per kept horizon",
  );
  await outlook.whenIdle();
  assert.deepEqual({ ...counts }, { made: before.made, observed: before.observed + 1, forecasts: before.forecasts + 2 }, "scoring asks the estimator nothing");
  // The same array again is nothing new.
  outlook.take(more);
  await outlook.whenIdle();
  assert.equal(counts.observed, before.observed + 1);
  // An hour in the middle rebuilt: a fresh estimator observes every hour, in slices.
  const rebuilt = more.map((hour, index) => (index === 100 ? { ...hour, min: hour.min - 1n } : hour));
  outlook.take(rebuilt);
  assert.equal(counts.observed, before.observed + 1);
  await outlook.whenIdle();
  assert.equal(counts.observed - before.observed - 1, rebuilt.length);
  assert.equal(counts.made, before.made + 1);
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

test("the usual horizons' backtests are kept as hours close, each equal to the whole replay over the hours then", async () => {
  const { create } = countingEstimators();
  const outlook = outlookOf(create);
  const hours = syntheticHours(START, 40 * 24, 5);
  outlook.take(hours);
  assert.ok(outlook.pendingJobs > 0);
  await outlook.whenIdle();
  const six = outlook.backtest(6);
  assert.ok(!(six instanceof Promise), "prepared before anyone asked");
  assert.deepEqual(six, fullBacktest(hours, 6));
  assert.ok(six.forecasts > 0);
  assert.equal(outlook.backtest(6), six, "kept, not made again");
  // Hours close: until the new one is scored, the previous hour's answers; then the whole replay's, every hour.
  let grown = hours;
  for (let hour = 0; hour < 3; hour += 1) {
    grown = [...grown, ...nextHour(grown, 20 + hour)];
    outlook.take(grown);
    assert.equal(outlook.backtest(6), hour === 0 ? six : outlook.backtest(6));
    await outlook.whenIdle();
    assert.deepEqual(outlook.backtest(6), fullBacktest(grown, 6));
    assert.deepEqual(outlook.backtest(1), fullBacktest(grown, 1));
  }
  assert.notDeepEqual(outlook.backtest(6), six);
});

test("another horizon is replayed on first ask, in slices, then kept and grown as hours close; the bound lets the oldest go", async () => {
  const { counts, create } = countingEstimators();
  const outlook = outlookOf(create, 1);
  const hours = syntheticHours(START, 40 * 24, 5);
  outlook.take(hours);
  await outlook.whenIdle();
  const asked = outlook.backtest(48);
  assert.ok(asked instanceof Promise, "not prepared before the ask");
  assert.equal(outlook.pendingJobs, 1);
  const ready = await asked;
  assert.deepEqual(ready, fullBacktest(hours, 48));
  assert.equal(outlook.backtest(48), ready);
  const more = [...hours, ...nextHour(hours, 11)];
  const made = counts.made;
  outlook.take(more);
  assert.equal(outlook.backtest(48), ready, "the previous hour's while the new one is scored");
  await outlook.whenIdle();
  assert.deepEqual(outlook.backtest(48), fullBacktest(more, 48));
  assert.equal(counts.made, made, "kept: no replay");
  // One other horizon kept at most: asking a second lets the first go at the next hour.
  await outlook.backtest(72);
  outlook.take([...more, ...nextHour(more, 12)]);
  assert.ok(!(outlook.backtest(72) instanceof Promise));
  assert.ok(outlook.backtest(48) instanceof Promise);
  await outlook.whenIdle();
});

test("summaries replaced while a backtest is prepared: its slices stop, and whoever waits gets the newest summaries' backtest", async () => {
  const { create } = countingEstimators();
  const outlook = outlookOf(create);
  const hours = syntheticHours(START, 40 * 24, 5);
  outlook.take(hours);
  await outlook.whenIdle();
  const asked = outlook.backtest(48) as Promise<unknown>;
  const newer = syntheticHours(START, 41 * 24, 6);
  outlook.take(newer);
  assert.deepEqual(await asked, fullBacktest(newer, 48));
  await outlook.whenIdle();
});

test("a forecast asked while the live estimator is replayed waits for it, and is made from every hour", async () => {
  const { create } = countingEstimators();
  const outlook = outlookOf(create);
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
