import { type BlobFeeSnapshot, type FeeSnapshot } from "../fees/feeSnapshot.ts";
import { HISTORY_BLOCKS } from "../fees/historyLength.ts";
import type { BlockTips } from "../fees/recentTips.ts";
import type { ChainHistory } from "./chainHistory.ts";

/** What the chain's feed knows beyond the blocks: its newest block, the next block's base fee, recent tips. */
export interface ChainTip {
  /** The feed's newest block; undefined before its first answer (the history may hold older ones). */
  readonly newestBlock: bigint | undefined;
  readonly nextBaseFeeWei: bigint | undefined;
  /** The next block's blob base fee; undefined on a chain without blobs (or an endpoint that gives none). */
  readonly nextBlobBaseFeeWei?: bigint | undefined;
  readonly recentTips: readonly BlockTips[];
}

/**
 * The snapshot the service publishes, made from the chain's history alone: the history endpoint's newest
 * HISTORY_BLOCKS blocks (back to the first gap), the statistics (percentile, busy threshold, min, max, busy,
 * congestion) over the statistics window, and the current base fee: the feed's next base fee while the feed's newest
 * block is the history's newest, else the newest block's own. Undefined while the history holds nothing.
 */
export function snapshotOfHistory(chainId: number, history: ChainHistory, tip: ChainTip, blockTimeMs: number): FeeSnapshot | undefined {
  const newest = history.newest;
  const stats = history.windowStats();
  if (newest === undefined || stats === undefined) return undefined;
  const historyWei = history.newestFees(HISTORY_BLOCKS);
  const currentBaseFeeWei = tip.newestBlock === newest.block && tip.nextBaseFeeWei !== undefined ? tip.nextBaseFeeWei : historyWei[historyWei.length - 1]!;
  return Object.freeze({
    chainId,
    newestBlock: newest.block,
    historyWei: Object.freeze(historyWei),
    baseFeePercentileWei: stats.baseFeePercentileWei,
    busyThresholdWei: stats.busyThresholdWei,
    minWei: stats.minWei,
    maxWei: stats.maxWei,
    currentBaseFeeWei,
    busy: currentBaseFeeWei > stats.busyThresholdWei,
    networkCongestion: stats.congestionOf(currentBaseFeeWei),
    recentTips: tip.recentTips,
    blockTimeMs,
    statsBlocks: stats.blocks,
    statsFromBlock: stats.fromBlock,
    statsToBlock: stats.toBlock,
    ...blobPartOf(history, tip, newest.block),
  });
}

/**
 * The blob base fee's part of the snapshot, computed as the base fee's is (the same window, nearest rank, the next
 * block's fee while the feed's newest block is the history's newest); nothing while the window holds no blob fee.
 */
function blobPartOf(history: ChainHistory, tip: ChainTip, newestBlock: bigint): { blob?: BlobFeeSnapshot } {
  const stats = history.blobWindowStats();
  if (stats === undefined) return {};
  const historyWei = history.newestBlobFees(HISTORY_BLOCKS);
  const currentWei = tip.newestBlock === newestBlock && tip.nextBlobBaseFeeWei !== undefined ? tip.nextBlobBaseFeeWei : history.blobBaseFeeAt(newestBlock);
  // The newest block has no blob fee and the feed gave no next one: the chain has none now (another endpoint's answers).
  if (currentWei === undefined) return {};
  return {
    blob: Object.freeze({
      historyWei: Object.freeze(historyWei),
      gasUsedRatios: Object.freeze(history.blobGasUsedRatiosTo(newestBlock, historyWei.length)),
      percentileWei: stats.percentileWei,
      busyThresholdWei: stats.busyThresholdWei,
      minWei: stats.minWei,
      maxWei: stats.maxWei,
      currentWei,
      busy: currentWei > stats.busyThresholdWei,
      statsBlocks: stats.blocks,
      statsFromBlock: stats.fromBlock,
      statsToBlock: stats.toBlock,
    }),
  };
}
