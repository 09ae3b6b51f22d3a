// The calibration layer: the quantiles of the estimator's own recent standardized errors, each measured out of sample
// (the forecast was made before its outcome was known). Reading a forecast's quantiles from these, rather than from an
// assumed shape, keeps it as wide and as skewed as its past errors were.
import { QUANTILE_LEVELS } from "./logRatioDistribution.ts";

export interface ResidualQuantiles {
  add(residual: number): void;
  /** The residuals' quantiles at QUANTILE_LEVELS (a Laplace shape of mean absolute value 1 before there are enough). */
  readonly quantiles: Float64Array;
  readonly count: number;
  /** The residuals compared or moved so far, all adds together: the work, which no add may let grow by a sort's worth. */
  readonly work: number;
}

/** Fewer residuals than this give the default shape: a tail quantile of a handful of points is noise. */
export const MIN_RESIDUALS = 48;

/** The Laplace distribution of mean absolute value 1 at QUANTILE_LEVELS: the shape assumed before errors are known. */
function laplaceQuantiles(): Float64Array {
  return Float64Array.from(QUANTILE_LEVELS, (q) => (q < 0.5 ? Math.log(2 * q) : -Math.log(2 * (1 - q))));
}

/** Float64Array's own sort order: ascending, NaN last. */
function before(a: number, b: number): boolean {
  return a < b || (b !== b && a === a);
}

/**
 * @param capacity the number of newest residuals kept
 * @param refreshEvery recompute the quantiles after this many new residuals
 */
export function createResidualQuantiles(capacity: number, refreshEvery: number): ResidualQuantiles {
  const ring = new Float64Array(capacity);
  // The kept residuals in order, kept so as each is added (a binary search and one move), so that no add sorts them all.
  const sorted = new Float64Array(capacity);
  let count = 0;
  let next = 0;
  let sinceRefresh = 0;
  let quantiles = laplaceQuantiles();
  let work = 0;

  /** The first of the `kept` sorted residuals not before `value`. */
  function lowerBound(value: number, kept: number): number {
    let low = 0;
    let high = kept;
    while (low < high) {
      const middle = (low + high) >> 1;
      work++;
      if (before(sorted[middle] as number, value)) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  function refresh(): void {
    const last = Math.min(count, capacity) - 1;
    work += 2 * QUANTILE_LEVELS.length;
    quantiles = new Float64Array(QUANTILE_LEVELS.length);
    for (let i = 0; i < quantiles.length; i++) {
      const position = (QUANTILE_LEVELS[i] as number) * last;
      const below = Math.floor(position);
      const above = Math.min(last, below + 1);
      quantiles[i] = (sorted[below] as number) + ((sorted[above] as number) - (sorted[below] as number)) * (position - below);
    }
  }

  return {
    add(residual: number): void {
      const kept = Math.min(count, capacity);
      const at = lowerBound(residual, kept);
      if (count < capacity) {
        sorted.copyWithin(at + 1, at, kept);
        work += kept - at;
        sorted[at] = residual;
      } else {
        // The oldest leaves and the newest enters: only the residuals between the two move, by one.
        const out = lowerBound(ring[next] as number, kept);
        if (at <= out) {
          sorted.copyWithin(at + 1, at, out);
          sorted[at] = residual;
        } else {
          sorted.copyWithin(out, out + 1, at);
          sorted[at - 1] = residual;
        }
        work += Math.abs(out - at);
      }
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
    get work(): number {
      return work;
    },
  };
}
