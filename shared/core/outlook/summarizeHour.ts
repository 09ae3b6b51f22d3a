// One hour's base fees -> its HourlySummary, as the service summarises blocks and the backtest summarises samples: the
// one place an hour is summarised, so that both see the same hours.
import { nearestRank } from "../fees/percentile.ts";
import type { FeeSample } from "./feeSample.ts";
import { HOUR_SECONDS, hourStartOf, type HourlySummary } from "./hourlySummary.ts";

function compareBigints(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Summarises the base fees (wei) seen in the hour starting at `start`, oldest first (so `last` is the newest's):
 * min, max, nearest-rank p10/p50/p90 (as shared/core/fees/percentile.ts), and how many. `sampled` says the fees are a
 * sample of the hour's blocks rather than all of them.
 */
export function summarizeHour(start: number, feesOldestFirst: readonly bigint[], sampled = false): HourlySummary {
  if (!Number.isSafeInteger(start) || start % HOUR_SECONDS !== 0) {
    throw new RangeError(`an hour starts at a multiple of ${HOUR_SECONDS} s (got ${start})`);
  }
  if (feesOldestFirst.length === 0) throw new RangeError(`the hour starting at ${start} has no fee to summarise`);
  const sorted = [...feesOldestFirst].sort(compareBigints);
  if (sorted[0]! < 0n) throw new RangeError(`a base fee cannot be negative (got ${sorted[0]} wei)`);
  return {
    start,
    blocks: sorted.length,
    sampled,
    min: sorted[0]!,
    p10: nearestRank(sorted, 10),
    p50: nearestRank(sorted, 50),
    p90: nearestRank(sorted, 90),
    max: sorted[sorted.length - 1]!,
    last: feesOldestFirst[feesOldestFirst.length - 1]!,
  };
}

/**
 * Groups samples in time order (timestamps never decreasing) into the summaries of the UTC hours that hold them,
 * oldest first. An hour without a sample has no summary: it is missing, never invented.
 */
export function summarizeByHour(samplesInTimeOrder: readonly FeeSample[], sampled = false): HourlySummary[] {
  const summaries: HourlySummary[] = [];
  let hourStart = 0;
  let fees: bigint[] = [];
  let previous = -Infinity;
  for (const sample of samplesInTimeOrder) {
    if (!Number.isSafeInteger(sample.timestamp)) throw new RangeError(`a timestamp is a whole number of seconds (got ${sample.timestamp})`);
    if (sample.timestamp < previous) {
      throw new RangeError(`samples must be in time order (${sample.timestamp} comes after ${previous})`);
    }
    previous = sample.timestamp;
    const start = hourStartOf(sample.timestamp);
    if (fees.length > 0 && start !== hourStart) {
      summaries.push(summarizeHour(hourStart, fees, sampled));
      fees = [];
    }
    hourStart = start;
    fees.push(sample.baseFee);
  }
  if (fees.length > 0) summaries.push(summarizeHour(hourStart, fees, sampled));
  return summaries;
}
