// The moments a walk-forward backtest forecasts at, and what followed each: the end t of every hour that holds a
// sample, the base fee then, and the lowest base fee within each horizon after it.
import type { FeeSample } from "./feeSample.ts";
import { HOUR_SECONDS, type HourlySummary } from "./hourlySummary.ts";

/** Every moment of a backtest, oldest first, in parallel arrays (a year of hours is 8,760 of them). */
export interface BacktestMoments {
  /** The end of each hour that holds a sample (unix s), ascending. */
  readonly times: Float64Array;
  /** The base fee at each moment (wei): the newest sample at or before it. */
  readonly current: readonly bigint[];
  /** The same as numbers (exact below 2^53 wei, 9 million Gwei), for arithmetic. */
  readonly currentNumber: Float64Array;
  /** Where the data stops being known (unix s), the end of the newest hour: an outcome whose horizon runs past it is unknown. */
  readonly knownUntil: number;
}

/** The lowest base fee within a horizon after each moment, wei as numbers; NaN where it is not known. */
export type LowestWithin = Float64Array;

function momentsOf(times: number[], current: bigint[], knownUntil: number): BacktestMoments {
  return { times: Float64Array.from(times), current, currentNumber: Float64Array.from(current, Number), knownUntil };
}

/** The moments of hourly summaries: each hour's end, its `last` fee the current one. */
export function momentsFromSummaries(hours: readonly HourlySummary[]): BacktestMoments {
  const end = hours.length === 0 ? 0 : hours[hours.length - 1]!.start + HOUR_SECONDS;
  return momentsOf(
    hours.map((hour) => hour.start + HOUR_SECONDS),
    hours.map((hour) => hour.last),
    end,
  );
}

/**
 * The moments of samples in time order (`hours` their summaries): each sampled hour's end t, the current fee the newest
 * sample at or before t (a sample exactly at t counts: it is known at t).
 */
export function momentsFromSamples(samples: readonly FeeSample[], hours: readonly HourlySummary[]): BacktestMoments {
  const times: number[] = [];
  const current: bigint[] = [];
  let next = 0;
  for (const hour of hours) {
    const t = hour.start + HOUR_SECONDS;
    while (next < samples.length && samples[next]!.timestamp <= t) next += 1;
    times.push(t);
    current.push(samples[next - 1]!.baseFee);
  }
  // The samples are taken as known up to the end of the newest sampled hour, as its summary is.
  return momentsOf(times, current, hours.length === 0 ? 0 : hours[hours.length - 1]!.start + HOUR_SECONDS);
}

/**
 * The lowest sample in (t, t + H] after each moment t, exactly as the contract defines the outcome: NaN where that
 * interval holds no sample or runs past the end of the newest sampled hour.
 */
export function lowestWithinFromSamples(samples: readonly FeeSample[], moments: BacktestMoments, withinHours: number): LowestWithin {
  const times = Float64Array.from(samples, (sample) => sample.timestamp);
  const fees = Float64Array.from(samples, (sample) => Number(sample.baseFee));
  return lowestInWindows(times, fees, moments, withinHours * HOUR_SECONDS, "after t");
}

/**
 * The lowest base fee within H after each hour's end t, from summaries alone: the least `min` of the hours starting in
 * [t, t + H). NaN where none of those hours is held or the horizon runs past the newest hour.
 */
export function lowestWithinFromSummaries(hours: readonly HourlySummary[], moments: BacktestMoments, withinHours: number): LowestWithin {
  const starts = Float64Array.from(hours, (hour) => hour.start);
  const mins = Float64Array.from(hours, (hour) => Number(hour.min));
  return lowestInWindows(starts, mins, moments, withinHours * HOUR_SECONDS, "from t");
}

/**
 * For each moment t, the least value whose time lies in its window: (t, t + horizon] ("after t") or [t, t + horizon)
 * ("from t"); NaN where the window holds none or runs past `moments.knownUntil`. `times` ascending. A sliding-window
 * minimum over a monotone deque of indices (values ascending from its front): linear in values and moments.
 */
function lowestInWindows(times: Float64Array, values: Float64Array, moments: BacktestMoments, horizon: number, window: "after t" | "from t"): LowestWithin {
  const lowest = new Float64Array(moments.times.length).fill(Number.NaN);
  const deque = new Int32Array(times.length);
  const closedEnd = window === "after t";
  let head = 0;
  let tail = 0;
  let entered = 0;
  for (let i = 0; i < moments.times.length; i += 1) {
    const t = moments.times[i]!;
    const end = t + horizon;
    while (entered < times.length && (closedEnd ? times[entered]! <= end : times[entered]! < end)) {
      while (tail > head && values[deque[tail - 1]!]! >= values[entered]!) tail -= 1;
      deque[tail++] = entered;
      entered += 1;
    }
    while (tail > head && (closedEnd ? times[deque[head]!]! <= t : times[deque[head]!]! < t)) head += 1;
    if (tail > head && end <= moments.knownUntil) lowest[i] = values[deque[head]!]!;
  }
  return lowest;
}
