// The walk-forward replay: an estimator fed the hours in order and asked, at each moment, about what follows it, with
// nothing later than the moment ever given to it.
import type { BacktestMoments } from "./backtestMoments.ts";
import { HOUR_SECONDS, type HourlySummary } from "./hourlySummary.ts";
import type { OutlookEstimator } from "./outlookEstimator.ts";

/** The quantiles of the lowest fee every forecast records. */
export const BACKTEST_QUANTILES = [0.1, 0.5, 0.9] as const;

/** What a replay asks, at every moment from `firstMoment` on. */
export interface WalkForwardQuestions {
  /** Horizons in whole hours. */
  readonly withinHours: readonly number[];
  /** Thresholds as ratios of the current base fee. */
  readonly ratios: readonly number[];
  /** The index in the moments of the first moment to forecast at (the warm-up's end). */
  readonly firstMoment: number;
}

/** The replay's forecasts, column by column, for the moments `firstMoment` .. end. */
export interface WalkForwardForecasts {
  /** How many moments were forecast at (moments.length - firstMoment). */
  readonly count: number;
  /** probability[h][k][n]: the chance, at moment firstMoment + n, that the lowest within withinHours[h] is <= ratios[k] x current. */
  readonly probability: readonly (readonly Float64Array[])[];
  /** quantile[h][j][n]: the BACKTEST_QUANTILES[j] quantile of (lowest within withinHours[h]) / current, at that moment. */
  readonly quantile: readonly (readonly Float64Array[])[];
}

/**
 * Replays `createEstimator()` over `hours` (oldest first): before the forecast at moment t it has observed exactly the
 * hours that ended at or before t, in order, and the moment's base fee; then, for each horizon, one forecast whose
 * probabilities and quantiles are recorded. A chance outside [0, 1] or a quantile ratio that is negative or not finite
 * is the estimator's bug: a RangeError, rather than scores that mean nothing.
 */
export function walkForward(
  hours: readonly HourlySummary[],
  moments: BacktestMoments,
  createEstimator: () => OutlookEstimator,
  questions: WalkForwardQuestions,
): WalkForwardForecasts {
  const slices = walkForwardSlices(hours, moments, createEstimator, questions, Number.POSITIVE_INFINITY);
  for (;;) {
    const step = slices.next();
    if (step.done === true) return step.value;
  }
}

/**
 * walkForward, yielding after every `stepsPerSlice` steps (an hour observed or a moment forecast at), so that the
 * service replays a year between turns of its event loop (shared/service/chainOutlook.ts).
 */
export function* walkForwardSlices(
  hours: readonly HourlySummary[],
  moments: BacktestMoments,
  createEstimator: () => OutlookEstimator,
  questions: WalkForwardQuestions,
  stepsPerSlice: number,
): Generator<void, WalkForwardForecasts, void> {
  const { withinHours, ratios, firstMoment } = questions;
  const count = Math.max(0, moments.times.length - firstMoment);
  const probability = withinHours.map(() => ratios.map(() => new Float64Array(count)));
  const quantile = withinHours.map(() => BACKTEST_QUANTILES.map(() => new Float64Array(count)));
  const estimator = createEstimator();
  let observed = 0;
  let steps = 0;
  for (let n = 0; n < count; n += 1) {
    const i = firstMoment + n;
    const timestamp = moments.times[i]!;
    while (observed < hours.length && hours[observed]!.start + HOUR_SECONDS <= timestamp) {
      estimator.observe(hours[observed]!);
      observed += 1;
      if (++steps % stepsPerSlice === 0) yield;
    }
    const moment = { timestamp, baseFee: moments.current[i]! };
    for (let h = 0; h < withinHours.length; h += 1) {
      const forecast = estimator.forecast(moment, withinHours[h]!);
      for (let k = 0; k < ratios.length; k += 1) {
        const chance = forecast.probabilityAtOrBelow(ratios[k]!);
        if (!(chance >= 0 && chance <= 1))
          throw new RangeError(`the estimator's chance at ${timestamp} within ${withinHours[h]} h is ${chance}, not in [0, 1]`);
        probability[h]![k]![n] = chance;
      }
      for (let j = 0; j < BACKTEST_QUANTILES.length; j += 1) {
        const ratio = forecast.quantileRatio(BACKTEST_QUANTILES[j]!);
        if (!(ratio >= 0 && Number.isFinite(ratio)))
          throw new RangeError(`the estimator's quantile ratio at ${timestamp} within ${withinHours[h]} h is ${ratio}`);
        quantile[h]![j]![n] = ratio;
      }
    }
    if (++steps % stepsPerSlice === 0) yield;
  }
  return { count, probability, quantile };
}
