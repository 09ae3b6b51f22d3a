import type { BlockRun } from "./blockRun.ts";

/** The first or last block a history holds, with its timestamp (unix seconds). */
export interface HeldBlock {
  readonly block: bigint;
  readonly timestamp: number;
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
}
