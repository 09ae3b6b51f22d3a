import type { FeeSnapshot } from "../fees/feeSnapshot.ts";
import type { WindowStats } from "./chainHistory.ts";

/**
 * The snapshot the service publishes: the feed's newest blocks, current fee and tips, with the statistics (percentile,
 * busy threshold, min, max, busy, congestion) computed over the chain's statistics window from its history.
 */
export function withStatsWindow(feed: FeeSnapshot, stats: WindowStats): FeeSnapshot {
  return Object.freeze({
    ...feed,
    baseFeePercentileWei: stats.baseFeePercentileWei,
    busyThresholdWei: stats.busyThresholdWei,
    minWei: stats.minWei,
    maxWei: stats.maxWei,
    busy: feed.currentBaseFeeWei > stats.busyThresholdWei,
    networkCongestion: stats.congestionOf(feed.currentBaseFeeWei),
    statsBlocks: stats.blocks,
    statsFromBlock: stats.fromBlock,
    statsToBlock: stats.toBlock,
  });
}
