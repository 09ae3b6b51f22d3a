// The backtest `/outlook` answers with (CONTRACT.md, "Outlook: wait or pay now"): the same walk-forward replay over a
// chain's hourly summaries alone, each horizon's questions pooled.
import { firstMomentAfterWarmup, DEFAULT_BACKTEST_RATIOS, DEFAULT_BACKTEST_WARMUP_HOURS } from "./backtest.ts";
import { evaluateReplay } from "./backtestEvaluate.ts";
import { lowestWithinFromSummaries, momentsFromSummaries } from "./backtestMoments.ts";
import type { ReliabilityBin } from "./backtestReliability.ts";
import { walkForward } from "./backtestWalkForward.ts";
import type { HourlySummary } from "./hourlySummary.ts";
import type { OutlookEstimator } from "./outlookEstimator.ts";

/** One horizon's track record, in the shape of shared/wire/outlook.ts's outlookBacktestSchema. */
export interface HorizonBacktest {
  readonly forecasts: number;
  readonly brier: number | null;
  readonly brierClimatology: number | null;
  readonly skill: number | null;
  readonly reliability: readonly ReliabilityBin[];
}

export interface SummariesBacktestOptions {
  /** The thresholds asked at every moment, as ratios of the current base fee, pooled (default 0.9, 0.75, 0.5). */
  readonly ratios?: readonly number[];
  /** Hours after the first summary's start before the first forecast (default 28 days). */
  readonly warmupHours?: number;
}

/**
 * For each of `withinHours`, the walk-forward backtest of `createEstimator()` over `hours` (oldest first, missing hours
 * allowed): at the end t of every hour after the warm-up, its `last` fee the current one, the chance of the lowest fee
 * within H being at or below r x current, for each ratio r, pooled. The outcome is the least `min` of the hours starting
 * in [t, t + H); forecasts whose horizon holds no hour or runs past the newest hour are not scored. One replay serves
 * every horizon.
 */
export function backtestSummaries(
  hours: readonly HourlySummary[],
  createEstimator: () => OutlookEstimator,
  withinHours: readonly number[],
  options: SummariesBacktestOptions = {},
): HorizonBacktest[] {
  const ratios = options.ratios ?? DEFAULT_BACKTEST_RATIOS;
  const moments = momentsFromSummaries(hours);
  const firstMoment = firstMomentAfterWarmup(moments, hours, options.warmupHours ?? DEFAULT_BACKTEST_WARMUP_HOURS);
  const questions = { withinHours, ratios, firstMoment };
  const forecasts = walkForward(hours, moments, createEstimator, questions);
  const lowest = withinHours.map((within) => lowestWithinFromSummaries(hours, moments, within));
  return evaluateReplay(moments, lowest, forecasts, questions).pooled.map((score) => ({
    forecasts: score.forecasts,
    brier: score.brier,
    brierClimatology: score.brierClimatology,
    skill: score.skill,
    reliability: score.reliability,
  }));
}
