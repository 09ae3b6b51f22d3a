// The walk-forward backtest of an outlook estimator over samples (CONTRACT.md, "Outlook: wait or pay now", `npm run
// backtest`): summarised by hour as the service summarises blocks, replayed hour by hour, scored against the exact
// lowest sample within each horizon.
import type { BacktestEvaluation } from "./backtestEvaluate.ts";
import { evaluateReplay } from "./backtestEvaluate.ts";
import { lowestWithinFromSamples, momentsFromSamples, type BacktestMoments, type LowestWithin } from "./backtestMoments.ts";
import { walkForward, type WalkForwardForecasts, type WalkForwardQuestions } from "./backtestWalkForward.ts";
import type { FeeSample } from "./feeSample.ts";
import { HOUR_SECONDS, type HourlySummary } from "./hourlySummary.ts";
import type { OutlookEstimator } from "./outlookEstimator.ts";
import { summarizeByHour } from "./summarizeHour.ts";

export const DEFAULT_BACKTEST_WITHIN_HOURS: readonly number[] = [1, 3, 6, 12, 24];
export const DEFAULT_BACKTEST_RATIOS: readonly number[] = [0.9, 0.75, 0.5];
export const DEFAULT_BACKTEST_WARMUP_HOURS = 28 * 24;

export interface BacktestOptions {
  /** Horizons in whole hours (default 1, 3, 6, 12, 24). */
  readonly withinHours?: readonly number[];
  /** Thresholds as ratios of the current base fee (default 0.9, 0.75, 0.5). */
  readonly ratios?: readonly number[];
  /** Hours after the first sampled hour's start before the first forecast (default 28 days). */
  readonly warmupHours?: number;
}

export interface BacktestResult extends BacktestEvaluation {
  readonly withinHours: readonly number[];
  readonly ratios: readonly number[];
  /** The samples' hourly summaries, as the estimator was fed them. */
  readonly hours: readonly HourlySummary[];
  /** Every sampled hour's end; forecasts were made at those from `firstMoment` on. */
  readonly moments: BacktestMoments;
  readonly firstMoment: number;
  readonly forecasts: WalkForwardForecasts;
  /** lowest[h][i]: the lowest sample in (t, t + withinHours[h]] after moment i (wei as a number; NaN when unknown). */
  readonly lowest: readonly LowestWithin[];
}

/** The index of the first moment of the first hour starting at or after the warm-up's end. */
export function firstMomentAfterWarmup(moments: BacktestMoments, hours: readonly HourlySummary[], warmupHours: number): number {
  if (hours.length === 0) return 0;
  const firstForecastHour = hours[0]!.start + warmupHours * HOUR_SECONDS;
  const index = hours.findIndex((hour) => hour.start >= firstForecastHour);
  return index === -1 ? moments.times.length : index;
}

/**
 * Runs the backtest of `createEstimator()` over `samples` (in time order): for the end t of every sampled hour after the
 * warm-up, each horizon H and ratio r, the estimator's chance that the lowest sample in (t, t + H] is at or below r x
 * the newest sample at or before t, having observed only the hours that ended by t.
 */
export function runBacktest(samples: readonly FeeSample[], createEstimator: () => OutlookEstimator, options: BacktestOptions = {}): BacktestResult {
  const withinHours = options.withinHours ?? DEFAULT_BACKTEST_WITHIN_HOURS;
  const ratios = options.ratios ?? DEFAULT_BACKTEST_RATIOS;
  const warmupHours = options.warmupHours ?? DEFAULT_BACKTEST_WARMUP_HOURS;
  const hours = summarizeByHour(samples);
  const moments = momentsFromSamples(samples, hours);
  const firstMoment = firstMomentAfterWarmup(moments, hours, warmupHours);
  const questions: WalkForwardQuestions = { withinHours, ratios, firstMoment };
  const forecasts = walkForward(hours, moments, createEstimator, questions);
  const lowest = withinHours.map((within) => lowestWithinFromSamples(samples, moments, within));
  return { withinHours, ratios, hours, moments, firstMoment, forecasts, lowest, ...evaluateReplay(moments, lowest, forecasts, questions) };
}
