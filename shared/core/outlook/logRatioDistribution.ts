// A forecast distribution of log(lowest / current), held as a table of quantiles: the one shape both of a forecast's
// answers are read from, so that quantileRatio and probabilityAtOrBelow are monotone and inverse to each other.
import type { LowestFeeForecast } from "./outlookEstimator.ts";

/** The probability levels the estimator's tables are kept at: every 2% from 2% to 98%, with finer steps in the tails. */
export const QUANTILE_LEVELS: readonly number[] = [0.005, 0.01, ...Array.from({ length: 49 }, (_, i) => (i + 1) / 50), 0.99, 0.995];

/** Log ratios further than this from 0 are clamped (e^40 is far beyond any fee move), so that no answer is 0 or infinite. */
const LOG_RATIO_LIMIT = 40;

/**
 * The distribution whose q-quantile of log(lowest / current) is `logValues[i]` at `levels[i]`: piecewise linear between
 * levels, with exponential tails beyond the first and last (slopes taken from the outermost steps; a flat outermost
 * step gives no tail, as on a chain whose fee never moves). `levels` must increase within (0, 1); `logValues` is
 * made non-decreasing (a running maximum) so that a noisy table still gives a monotone answer.
 */
export function logRatioDistribution(levels: ArrayLike<number>, logValues: ArrayLike<number>): LowestFeeForecast {
  if (levels.length < 2 || levels.length !== logValues.length) throw new RangeError("a quantile table needs at least two levels, one value each");
  const count = levels.length;
  const values = new Float64Array(count);
  let running = -LOG_RATIO_LIMIT;
  for (let i = 0; i < count; i++) {
    const value = logValues[i] as number;
    running = Math.min(LOG_RATIO_LIMIT, Math.max(running, Number.isFinite(value) ? value : value > 0 ? LOG_RATIO_LIMIT : -LOG_RATIO_LIMIT));
    values[i] = running;
  }
  const firstLevel = levels[0] as number;
  const lastLevel = levels[count - 1] as number;
  const lowerScale = ((values[1] as number) - (values[0] as number)) / Math.log((levels[1] as number) / firstLevel);
  const upperScale = ((values[count - 1] as number) - (values[count - 2] as number)) / Math.log((1 - (levels[count - 2] as number)) / (1 - lastLevel));

  function logQuantile(q: number): number {
    if (q <= firstLevel) return Math.max(-LOG_RATIO_LIMIT, (values[0] as number) + lowerScale * Math.log(q / firstLevel));
    if (q >= lastLevel) return Math.min(LOG_RATIO_LIMIT, (values[count - 1] as number) - upperScale * Math.log((1 - q) / (1 - lastLevel)));
    return interpolate(levels, values, q);
  }

  function probabilityAtOrBelowLog(x: number): number {
    const first = values[0] as number;
    const last = values[count - 1] as number;
    if (x < first) return lowerScale > 0 ? firstLevel * Math.exp((x - first) / lowerScale) : 0;
    if (x >= last) return upperScale > 0 ? 1 - (1 - lastLevel) * Math.exp(-(x - last) / upperScale) : 1;
    return interpolate(values, levels, x);
  }

  return {
    quantileRatio(q: number): number {
      if (!(q > 0 && q < 1)) throw new RangeError(`a quantile must lie strictly between 0 and 1 (got ${q})`);
      return Math.exp(logQuantile(q));
    },
    probabilityAtOrBelow(ratio: number): number {
      if (Number.isNaN(ratio)) throw new RangeError("a ratio must be a number (got NaN)");
      if (ratio <= 0) return 0;
      return Math.min(1, Math.max(0, probabilityAtOrBelowLog(Math.log(ratio))));
    },
  };
}

/**
 * The table's inner part, read either way (a quantile from a level, a level from a value): `x` between `xs`' first and
 * last entry, the step from the last index whose entry is at or below `x` (ties take the highest) to the next, and the
 * straight line between their `ys`.
 */
function interpolate(xs: ArrayLike<number>, ys: ArrayLike<number>, x: number): number {
  let low = 0;
  let high = xs.length - 1;
  while (high - low > 1) {
    const middle = (low + high) >> 1;
    if ((xs[middle] as number) <= x) low = middle;
    else high = middle;
  }
  const from = xs[low] as number;
  const to = xs[high] as number;
  return (ys[low] as number) + (((ys[high] as number) - (ys[low] as number)) * (x - from)) / (to - from);
}
