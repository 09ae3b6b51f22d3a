/**
 * Nearest-rank percentile, as the contract defines it: p(q) = sorted[ceil(q/100 * N) - 1].
 * The result is always a value that actually occurred. Integer arithmetic only, so that
 * p(50) of 500 blocks is index 249 and never off by one through a float.
 */
export function nearestRankIndex(count: number, percentile: number): number {
  if (!Number.isInteger(count) || count <= 0) throw new RangeError(`need at least one value (got ${count})`);
  if (!Number.isInteger(percentile) || percentile < 1 || percentile > 100) {
    throw new RangeError(`percentile must be a whole number from 1 to 100 (got ${percentile})`);
  }
  return Math.ceil((percentile * count) / 100) - 1;
}

export function nearestRank(sortedAscending: readonly bigint[], percentile: number): bigint {
  return sortedAscending[nearestRankIndex(sortedAscending.length, percentile)]!;
}
