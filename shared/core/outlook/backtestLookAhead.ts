// The no-look-ahead property of a walk-forward backtest, checked: a forecast made at t must not change when the data
// after t is cut away.
import type { BacktestResult } from "./backtest.ts";
import type { FeeSample } from "./feeSample.ts";

/** A forecast that differs between a run on all the data and a run on the data cut at some time. */
export interface ForecastDifference {
  readonly t: number;
  readonly withinHours: number;
  readonly what: string;
  readonly full: number;
  readonly cut: number;
}

/** The samples up to and including `cutAt` (unix s). */
export function samplesUpTo(samples: readonly FeeSample[], cutAt: number): FeeSample[] {
  return samples.filter((sample) => sample.timestamp <= cutAt);
}

/**
 * The first forecast made at a moment t <= cutAt whose probabilities or quantiles differ between `full` (a run on all
 * the samples) and `cut` (the same run on samplesUpTo(samples, cutAt)); undefined when every one is identical, as it
 * must be when nothing after t reaches the forecast at t. Also reports moments missing from either run.
 */
export function firstForecastDifference(full: BacktestResult, cut: BacktestResult, cutAt: number): ForecastDifference | undefined {
  const times = (run: BacktestResult) => Array.from(run.moments.times.subarray(run.firstMoment)).filter((t) => t <= cutAt);
  const [fullTimes, cutTimes] = [times(full), times(cut)];
  for (let n = 0; n < Math.max(fullTimes.length, cutTimes.length); n += 1) {
    if (fullTimes[n] !== cutTimes[n]) {
      return { t: fullTimes[n] ?? cutTimes[n]!, withinHours: 0, what: "moment", full: fullTimes[n] ?? Number.NaN, cut: cutTimes[n] ?? Number.NaN };
    }
    for (let h = 0; h < full.withinHours.length; h += 1) {
      const columns = [
        ...full.ratios.map((ratio, k) => ({
          what: `probability at ratio ${ratio}`,
          a: full.forecasts.probability[h]![k]!,
          b: cut.forecasts.probability[h]![k]!,
        })),
        ...full.forecasts.quantile[h]!.map((column, j) => ({ what: `quantile ${j}`, a: column, b: cut.forecasts.quantile[h]![j]! })),
      ];
      for (const { what, a, b } of columns) {
        if (!Object.is(a[n], b[n])) return { t: fullTimes[n]!, withinHours: full.withinHours[h]!, what, full: a[n]!, cut: b[n]! };
      }
    }
  }
  return undefined;
}
