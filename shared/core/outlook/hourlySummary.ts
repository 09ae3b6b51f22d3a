// One hour of a chain's base fees, as the service keeps it for a year (CONTRACT.md, "Outlook: wait or pay now").

export const HOUR_SECONDS = 3_600;

/**
 * The base fees of the blocks whose timestamps lie in [start, start + 1 h), summarised: nearest-rank percentiles over
 * the blocks seen, `last` the newest block's. All fees are exact integer wei.
 */
export interface HourlySummary {
  /** Unix seconds, a multiple of 3,600 (UTC hours). */
  readonly start: number;
  /** The blocks the summary was built from (all the hour's blocks unless `sampled`). */
  readonly blocks: number;
  /** True when the summary was built from a sample of the hour's blocks (a fast chain's outlook backfill). */
  readonly sampled: boolean;
  readonly min: bigint;
  readonly p10: bigint;
  readonly p50: bigint;
  readonly p90: bigint;
  readonly max: bigint;
  /** The base fee of the newest block seen in the hour. */
  readonly last: bigint;
}

/** The hour (its start, unix seconds) that holds `timestamp`. */
export function hourStartOf(timestamp: number): number {
  return Math.floor(timestamp / HOUR_SECONDS) * HOUR_SECONDS;
}
