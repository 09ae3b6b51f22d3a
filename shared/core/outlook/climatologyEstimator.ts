// A plain outlook estimator, the placeholder the backtest runs until a real one is chosen: for a horizon H, what the
// lowest fee within H was, against the fee then, over the last 28 days, whatever the level or the hour is now.
import { HOUR_SECONDS, type HourlySummary } from "./hourlySummary.ts";
import type { LowestFeeForecast, OutlookEstimator } from "./outlookEstimator.ts";

/** How far back the placeholder looks. */
export const CLIMATOLOGY_ESTIMATOR_DAYS = 28;

/** With no past horizon to count, it says nothing either way: an even chance, and no change expected. */
const NO_KNOWLEDGE: LowestFeeForecast = { quantileRatio: () => 1, probabilityAtOrBelow: () => 0.5 };

/**
 * The empirical distribution of (lowest base fee within H) / (base fee then) over the hour ends s of the last 28 days
 * whose horizon [s, s + H) ended by the newest hour observed (the lowest being the least `min` of the hours in it, the
 * fee then the `last` of the hour ending at s). The moment's own fee and time are not used.
 */
export function createClimatologyEstimator(days: number = CLIMATOLOGY_ESTIMATOR_DAYS): OutlookEstimator {
  const starts: number[] = [];
  const mins: number[] = [];
  const lasts: number[] = [];
  // Per horizon: the ratios of the hour ends in the window, ascending, and which hour ends they came from.
  const windows = new Map<number, HorizonWindow>();

  /** Brings the window of horizon H up to the newest hour observed: ratios of horizons now complete in, old ones out. */
  function windowOf(withinHours: number): HorizonWindow {
    let window = windows.get(withinHours);
    if (window === undefined) {
      window = { next: 0, entered: [], sorted: [] };
      windows.set(withinHours, window);
    }
    const newestEnd = starts[starts.length - 1]! + HOUR_SECONDS;
    const horizon = withinHours * HOUR_SECONDS;
    const from = newestEnd - days * 86_400;
    while (window.next < starts.length) {
      const i = window.next;
      const s = starts[i]! + HOUR_SECONDS;
      if (s + horizon > newestEnd) break;
      window.next += 1;
      if (s < from) continue;
      let lowest = Infinity;
      for (let j = i + 1; j < starts.length && starts[j]! < s + horizon; j += 1) lowest = Math.min(lowest, mins[j]!);
      if (lowest === Infinity) continue;
      const ratio = lowest / lasts[i]!;
      window.entered.push({ s, ratio });
      window.sorted.splice(countAtOrBelow(window.sorted, ratio), 0, ratio);
    }
    let leaving = 0;
    while (leaving < window.entered.length && window.entered[leaving]!.s < from) {
      const { ratio } = window.entered[leaving]!;
      window.sorted.splice(countAtOrBelow(window.sorted, ratio) - 1, 1);
      leaving += 1;
    }
    if (leaving > 0) window.entered.splice(0, leaving);
    return window;
  }

  return {
    observe(hour: HourlySummary) {
      if (starts.length > 0 && hour.start <= starts[starts.length - 1]!) {
        throw new RangeError(`hours are observed oldest first (${hour.start} after ${starts[starts.length - 1]})`);
      }
      starts.push(hour.start);
      mins.push(Number(hour.min));
      lasts.push(Math.max(1, Number(hour.last)));
    },
    forecast(_moment, withinHours) {
      if (starts.length === 0) return NO_KNOWLEDGE;
      const sorted = Float64Array.from(windowOf(withinHours).sorted);
      if (sorted.length === 0) return NO_KNOWLEDGE;
      return {
        quantileRatio: (q) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!,
        probabilityAtOrBelow: (ratio) => countAtOrBelow(sorted, ratio) / sorted.length,
      };
    },
  };
}

interface HorizonWindow {
  /** The next hour (index) whose horizon is not yet counted. */
  next: number;
  /** The hour ends counted and their ratios, oldest first. */
  readonly entered: Array<{ readonly s: number; readonly ratio: number }>;
  readonly sorted: number[];
}

/** How many of an ascending array are at or below `value`. */
function countAtOrBelow(sorted: ArrayLike<number>, value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! <= value) low = middle + 1;
    else high = middle;
  }
  return low;
}
