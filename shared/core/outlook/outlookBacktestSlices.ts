// The outlook's own track record for one horizon (CONTRACT.md, "Outlook: wait or pay now": `backtest`): bt's
// backtestSummaries for that horizon, its walk-forward replay run in slices, so that a year's replay never holds the
// service's event loop.
import { DEFAULT_BACKTEST_RATIOS, DEFAULT_BACKTEST_WARMUP_HOURS, firstMomentAfterWarmup } from "./backtest.ts";
import { evaluateReplay } from "./backtestEvaluate.ts";
import { lowestWithinFromSummaries, momentsFromSummaries } from "./backtestMoments.ts";
import type { HorizonBacktest } from "./backtestSummaries.ts";
import { walkForwardSlices } from "./backtestWalkForward.ts";
import type { HourlySummary } from "./hourlySummary.ts";
import type { OutlookEstimator } from "./outlookEstimator.ts";

export type PooledBacktest = HorizonBacktest;

/** Steps (an hour observed, or a moment forecast at) in one slice: about half a millisecond with the estimators here. */
export const DEFAULT_HOURS_PER_SLICE = 64;

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
  const moments = momentsFromSummaries(hours);
  const firstMoment = firstMomentAfterWarmup(moments, hours, DEFAULT_BACKTEST_WARMUP_HOURS);
  const questions = { withinHours: [withinHours], ratios: DEFAULT_BACKTEST_RATIOS, firstMoment };
  const forecasts = yield* walkForwardSlices(hours, moments, createEstimator, questions, stepsPerSlice);
  yield;
  const lowest = [lowestWithinFromSummaries(hours, moments, withinHours)];
  yield;
  const score = evaluateReplay(moments, lowest, forecasts, questions).pooled[0]!;
  return { forecasts: score.forecasts, brier: score.brier, brierClimatology: score.brierClimatology, skill: score.skill, reliability: score.reliability };
}

/** Runs `slices` to its end at once (tests, and callers with no event loop to share). */
export function runToEnd<T>(slices: Generator<void, T, void>): T {
  for (;;) {
    const step = slices.next();
    if (step.done === true) return step.value;
  }
}
