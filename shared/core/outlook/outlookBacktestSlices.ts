// The outlook's own track record for one horizon (CONTRACT.md, "Outlook: wait or pay now": `backtest`): bt's
// backtestSummaries for that horizon, with its walk-forward forecasts kept as a record that grows by one moment when an
// hour closes (the forecasts made before do not change: no forecast looks ahead), and its replay run in slices, so
// that neither a year's replay nor a year's scoring holds the service's event loop.
import { DEFAULT_BACKTEST_RATIOS, DEFAULT_BACKTEST_WARMUP_HOURS, firstMomentAfterWarmup } from "./backtest.ts";
import { evaluateReplay } from "./backtestEvaluate.ts";
import { lowestWithinFromSummaries, momentsFromSummaries } from "./backtestMoments.ts";
import type { HorizonBacktest } from "./backtestSummaries.ts";
import { BACKTEST_QUANTILES, walkForwardSlices } from "./backtestWalkForward.ts";
import { HOUR_SECONDS, type HourlySummary } from "./hourlySummary.ts";
import type { OutlookEstimator } from "./outlookEstimator.ts";

export type PooledBacktest = HorizonBacktest;

/** Steps (an hour observed, or a moment forecast at) between two yields, by default. */
export const DEFAULT_HOURS_PER_SLICE = 64;

/** One horizon's walk-forward forecasts at every moment (an hour's end) after the warm-up, oldest first. */
export interface ForecastRecord {
  readonly withinHours: number;
  /** probability[k][n]: at the n-th moment after the warm-up, the chance of the lowest within H <= ratio k x current. */
  readonly probability: number[][];
  /** quantile[j][n]: the BACKTEST_QUANTILES[j] quantile ratio then. */
  readonly quantile: number[][];
}

/** Hours starting at or after this (unix s) are forecast at, at their end: those after the warm-up. */
export function recordsFrom(hours: readonly HourlySummary[]): number {
  return (hours[0]?.start ?? 0) + DEFAULT_BACKTEST_WARMUP_HOURS * HOUR_SECONDS;
}

/**
 * Replays `estimator` (fresh) over `hours`, recording each of `withinHours`' forecasts at every moment after the
 * warm-up; yields after every `stepsPerSlice` steps. The estimator has then observed every hour, in order: it may go on
 * as the live one.
 */
export function* recordSlices(
  hours: readonly HourlySummary[],
  estimator: OutlookEstimator,
  withinHours: readonly number[],
  stepsPerSlice: number = DEFAULT_HOURS_PER_SLICE,
): Generator<void, ForecastRecord[], void> {
  const moments = momentsFromSummaries(hours);
  const firstMoment = firstMomentAfterWarmup(moments, hours, DEFAULT_BACKTEST_WARMUP_HOURS);
  const questions = { withinHours, ratios: DEFAULT_BACKTEST_RATIOS, firstMoment };
  const forecasts = yield* walkForwardSlices(hours, moments, () => estimator, questions, stepsPerSlice);
  // The hours before the first moment (all of them when no moment follows the warm-up) are observed too.
  const observedUntil = forecasts.count > 0 ? hours.length : 0;
  for (let index = observedUntil; index < hours.length; index += 1) {
    estimator.observe(hours[index]!);
    if ((index + 1) % stepsPerSlice === 0) yield;
  }
  return withinHours.map((within, h) => ({
    withinHours: within,
    probability: forecasts.probability[h]!.map((column) => Array.from(column)),
    quantile: forecasts.quantile[h]!.map((column) => Array.from(column)),
  }));
}

/**
 * `hour` has just been observed by `estimator` (which observed every hour before it, in order): each record takes its
 * forecast at the hour's end, as the replay would have made it (none before `from`, recordsFrom's).
 */
export function extendRecords(records: Iterable<ForecastRecord>, estimator: OutlookEstimator, hour: HourlySummary, from: number): void {
  if (hour.start < from) return;
  const moment = { timestamp: hour.start + HOUR_SECONDS, baseFee: hour.last };
  for (const record of records) {
    const forecast = estimator.forecast(moment, record.withinHours);
    DEFAULT_BACKTEST_RATIOS.forEach((ratio, k) => record.probability[k]!.push(forecast.probabilityAtOrBelow(ratio)));
    BACKTEST_QUANTILES.forEach((q, j) => record.quantile[j]!.push(forecast.quantileRatio(q)));
  }
}

/** The pooled backtest of a record over `hours` (the summaries it was made over), scored in two slices. */
export function* scoreSlices(hours: readonly HourlySummary[], record: ForecastRecord): Generator<void, PooledBacktest, void> {
  const moments = momentsFromSummaries(hours);
  const firstMoment = firstMomentAfterWarmup(moments, hours, DEFAULT_BACKTEST_WARMUP_HOURS);
  const count = Math.max(0, moments.times.length - firstMoment);
  if (record.probability[0]!.length !== count) throw new Error(`a record of ${record.probability[0]!.length} forecasts for ${count} moments`);
  const questions = { withinHours: [record.withinHours], ratios: DEFAULT_BACKTEST_RATIOS, firstMoment };
  const forecasts = {
    count,
    probability: [record.probability.map((column) => Float64Array.from(column))],
    quantile: [record.quantile.map((column) => Float64Array.from(column))],
  };
  const lowest = [lowestWithinFromSummaries(hours, moments, record.withinHours)];
  yield;
  const score = evaluateReplay(moments, lowest, forecasts, questions).pooled[0]!;
  return { forecasts: score.forecasts, brier: score.brier, brierClimatology: score.brierClimatology, skill: score.skill, reliability: score.reliability };
}

/**
 * backtestSummaries(hours, createEstimator, [withinHours]) (the same replay, the same questions, the same scores), its
 * replay yielding after every `stepsPerSlice` steps; returns the horizon's pooled backtest.
 */
export function* pooledBacktestSlices(
  hours: readonly HourlySummary[],
  createEstimator: () => OutlookEstimator,
  withinHours: number,
  stepsPerSlice: number = DEFAULT_HOURS_PER_SLICE,
): Generator<void, PooledBacktest, void> {
  const [record] = yield* recordSlices(hours, createEstimator(), [withinHours], stepsPerSlice);
  yield;
  return yield* scoreSlices(hours, record!);
}

/** Runs `slices` to its end at once (tests, and callers with no event loop to share). */
export function runToEnd<T>(slices: Generator<void, T, void>): T {
  for (;;) {
    const step = slices.next();
    if (step.done === true) return step.value;
  }
}
