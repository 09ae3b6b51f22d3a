import type { BlockRun } from "./blockRun.ts";
import type { FeeSeries } from "./blockColumns.ts";
import type { WindowSpec } from "./duration.ts";

/** The first or last block a history holds, with its timestamp (unix seconds). */
export interface HeldBlock {
  readonly block: bigint;
  readonly timestamp: number;
}

/** A nearest-rank percentile of the base fees in a window ending at the newest block, and the window it covered. */
export interface WindowPercentile {
  readonly wei: bigint;
  /** Blocks held in the window (gaps not counted). */
  readonly blocks: number;
  /** The window's first and last block (the first may lie in a gap of the history, as the statistics window's may). */
  readonly fromBlock: bigint;
  readonly toBlock: bigint;
}

/**
 * What readers (baseFeeStats, the CSV export, alerts) may ask of a chain's held history: a live, read-only view.
 * Timestamps never decrease with the block number, so a time range is a block range.
 */
export interface HistoryView {
  /** Blocks held (gaps not counted). */
  readonly blocksHeld: number;
  /** The oldest and newest block held; undefined while empty. */
  readonly oldest: HeldBlock | undefined;
  readonly newest: HeldBlock | undefined;
  /**
   * The held blocks whose timestamps lie in `[fromSeconds, toSeconds]` (inclusive), oldest first, as runs of
   * consecutive blocks (a gap in the history, or the end of a storage chunk, starts a new run).
   */
  runs(fromSeconds: number, toSeconds: number): Iterable<BlockRun>;
  /**
   * The nearest-rank `percentile` (a whole number, 1 to 100) of the held blocks' base fees in `window` as of the newest
   * block, computed as the statistics window is: a duration is every held block timed within it of the newest block's
   * timestamp, never fewer than the newest HISTORY_BLOCKS blocks (or all held); "N blocks" is the newest N. Undefined
   * while nothing is held. Throws a RangeError for a percentile or a window that is not one. With `series` "blob",
   * the same of the blob base fees of the window's blocks that have one (undefined while none has).
   */
  percentileOver(window: WindowSpec, percentile: number, series?: FeeSeries): WindowPercentile | undefined;
}
