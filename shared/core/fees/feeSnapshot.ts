import type { BlockTips } from "./recentTips.ts";

export const BASE_FEE_PERCENTILE = 50;
export const BUSY_THRESHOLD_PERCENTILE = 90;

/** Everything the API and the dashboard say about one chain at one moment, in wei. Immutable once made. */
export interface FeeSnapshot {
  readonly chainId: number;
  /** The newest mined block in the window. */
  readonly newestBlock: bigint;
  /** The history: base fees of the newest HISTORY_BLOCKS blocks (fewer on a young chain), oldest first. */
  readonly historyWei: readonly bigint[];
  readonly baseFeePercentileWei: bigint;
  readonly busyThresholdWei: bigint;
  readonly minWei: bigint;
  readonly maxWei: bigint;
  /** The next block's base fee as the RPC reported it, else the newest block's. */
  readonly currentBaseFeeWei: bigint;
  /** Current base fee above the busy threshold. */
  readonly busy: boolean;
  /** Where the current base fee stands among the statistics window's base fees, 0..1 (congestionFromRanks). */
  readonly networkCongestion: number;
  /** Tips of the newest blocks whose rewards were fetched (up to RECENT_BLOCKS block numbers), oldest first. */
  readonly recentTips: readonly BlockTips[];
  /** The chain's block time, for the wait estimates of suggestedGasFees. */
  readonly blockTimeMs: number;
  /** The statistics window the percentiles, min, max and congestion were computed over (X-Stats-* headers). */
  readonly statsBlocks: number;
  readonly statsFromBlock: bigint;
  readonly statsToBlock: bigint;
  /** The blob base fee's part (EIP-4844); absent on a chain (or while a history) without blob base fees. */
  readonly blob?: BlobFeeSnapshot;
}

/** The blob base fee as a series like the base fee: its history, its statistics over the same window, busy or not. */
export interface BlobFeeSnapshot {
  /** The newest HISTORY_BLOCKS blocks' blob base fees (back to the first block without one), oldest first. */
  readonly historyWei: readonly bigint[];
  /** The same blocks' blob gas used over their maximum (0..1; undefined where the RPC gave none), oldest first. */
  readonly gasUsedRatios: readonly (number | undefined)[];
  /** p50 and p90 (nearest rank) of the statistics window's blob base fees. */
  readonly percentileWei: bigint;
  readonly busyThresholdWei: bigint;
  readonly minWei: bigint;
  readonly maxWei: bigint;
  /** The next block's blob base fee as the RPC reported it, else the newest block's. */
  readonly currentWei: bigint;
  /** The current blob base fee above the blob busy threshold. */
  readonly busy: boolean;
  /** The blocks of the statistics window that have a blob base fee, and the first and last of them. */
  readonly statsBlocks: number;
  readonly statsFromBlock: bigint;
  readonly statsToBlock: bigint;
}
