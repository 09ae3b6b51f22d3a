// What the outlook's estimator promises (CONTRACT.md, "Outlook: wait or pay now"): fed closed hours in order, it
// forecasts the lowest base fee within a horizon from what it was fed and nothing else.
import type { HourlySummary } from "./hourlySummary.ts";

/** The distribution of the lowest base fee within a horizon, as ratios of the current base fee. */
export interface LowestFeeForecast {
  /** The q-quantile (0 < q < 1) of (lowest base fee within H) / (current base fee); non-decreasing in q. */
  quantileRatio(q: number): number;
  /** The chance (0..1) that the lowest base fee within H is at or below `ratio` x the current base fee; non-decreasing in ratio. */
  probabilityAtOrBelow(ratio: number): number;
}

/** The moment a forecast is made: its time and the base fee then (the newest block's, or the next block's). */
export interface ForecastMoment {
  /** Unix seconds, at or after the end of the newest hour observed. */
  readonly timestamp: number;
  /** Wei. */
  readonly baseFee: bigint;
}

/**
 * A walk-forward estimator. `observe` takes closed hours oldest first (each starting after the one before; hours may be
 * missing); `forecast` uses only the hours observed so far and the moment given. The same hours observed in the same
 * order give the same forecasts, whatever comes after.
 */
export interface OutlookEstimator {
  observe(hour: HourlySummary): void;
  /** The lowest base fee within `withinHours` (a whole number of hours, 1 to 168) after `moment`. */
  forecast(moment: ForecastMoment, withinHours: number): LowestFeeForecast;
}
