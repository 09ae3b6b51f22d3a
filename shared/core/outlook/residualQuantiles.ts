// The calibration layer: the quantiles of the estimator's own recent standardized errors, each measured out of sample
// (the forecast was made before its outcome was known). Reading a forecast's quantiles from these, rather than from an
// assumed shape, keeps it as wide and as skewed as its past errors were.
import { QUANTILE_LEVELS } from "./logRatioDistribution.ts";

export interface ResidualQuantiles {
  add(residual: number): void;
  /** The residuals' quantiles at QUANTILE_LEVELS (a Laplace shape of mean absolute value 1 before there are enough). */
  readonly quantiles: Float64Array;
  readonly count: number;
}

/** Fewer residuals than this give the default shape: a tail quantile of a handful of points is noise. */
export const MIN_RESIDUALS = 48;

/** The Laplace distribution of mean absolute value 1 at QUANTILE_LEVELS: the shape assumed before errors are known. */
function laplaceQuantiles(): Float64Array {
  return Float64Array.from(QUANTILE_LEVELS, (q) => (q < 0.5 ? Math.log(2 * q) : -Math.log(2 * (1 - q))));
}

/**
 * @param capacity the number of newest residuals kept
 * @param refreshEvery recompute the quantiles after this many new residuals (sorting on every one would cost the most)
 */
export function createResidualQuantiles(capacity: number, refreshEvery: number): ResidualQuantiles {
  const ring = new Float64Array(capacity);
  let count = 0;
  let next = 0;
  let sinceRefresh = 0;
  let quantiles = laplaceQuantiles();

  function refresh(): void {
    const sorted = ring.slice(0, Math.min(count, capacity)).sort();
    const last = sorted.length - 1;
    quantiles = Float64Array.from(QUANTILE_LEVELS, (q) => {
      const position = q * last;
      const below = Math.floor(position);
      const above = Math.min(last, below + 1);
      return (sorted[below] as number) + ((sorted[above] as number) - (sorted[below] as number)) * (position - below);
    });
  }

  return {
    add(residual: number): void {
      ring[next] = residual;
      next = (next + 1) % capacity;
      count++;
      sinceRefresh++;
      if (count >= MIN_RESIDUALS && (count === MIN_RESIDUALS || sinceRefresh >= refreshEvery)) {
        refresh();
        sinceRefresh = 0;
      }
    },
    get quantiles(): Float64Array {
      return quantiles;
    },
    get count(): number {
      return count;
    },
  };
}
