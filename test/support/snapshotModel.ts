// A snapshot of a plain block window, made the slow and obvious way (the fees sorted each time): what tests compare the
// service's snapshot (shared/core/history/windowSnapshot.ts, the one the service publishes) with, and what test
// readers that keep blocks as a page does make their snapshots with. Not a second builder of the service.
import type { BlockWindow } from "../../shared/core/fees/blockWindow.ts";
import { BASE_FEE_PERCENTILE, BUSY_THRESHOLD_PERCENTILE, type FeeSnapshot } from "../../shared/core/fees/feeSnapshot.ts";
import { HISTORY_BLOCKS } from "../../shared/core/fees/historyLength.ts";
import { nearestRank } from "../../shared/core/fees/percentile.ts";
import type { BlockTips } from "../../shared/core/fees/recentTips.ts";
import { lowerBound } from "../../shared/core/fees/sortedBigints.ts";

/** The obvious mid-rank of `current` among `baseFeesWei` (0..1, 4 decimals): the contract's networkCongestion. */
export function networkCongestionOf(sortedBaseFeesWei: readonly bigint[], currentBaseFeeWei: bigint): number {
  const n = sortedBaseFeesWei.length;
  if (n === 0) throw new RangeError("need at least one base fee");
  const below = lowerBound(sortedBaseFeesWei, currentBaseFeeWei);
  let notAbove = below;
  while (notAbove < n && sortedBaseFeesWei[notAbove] === currentBaseFeeWei) notAbove++;
  return Math.floor(((below + notAbove) * 10_000 + n) / (2 * n)) / 10_000;
}

export const DEFAULT_BLOCK_TIME_MS = 12_000;

/** The snapshot of every block of `window` as the statistics window, its newest HISTORY_BLOCKS as the history. */
export function snapshotOf(
  chainId: number,
  window: BlockWindow,
  nextBaseFeeWei: bigint | undefined,
  extras: { readonly recentTips?: readonly BlockTips[]; readonly blockTimeMs?: number } = {},
): FeeSnapshot | undefined {
  const newestBlock = window.newestBlock;
  if (newestBlock === undefined) return undefined;
  const sorted = [...window.baseFeesWei].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const historyWei = window.newest(HISTORY_BLOCKS);
  const busyThresholdWei = nearestRank(sorted, BUSY_THRESHOLD_PERCENTILE);
  const currentBaseFeeWei = nextBaseFeeWei ?? historyWei[historyWei.length - 1]!;
  return Object.freeze({
    chainId,
    newestBlock,
    historyWei: Object.freeze([...historyWei]),
    baseFeePercentileWei: nearestRank(sorted, BASE_FEE_PERCENTILE),
    busyThresholdWei,
    minWei: sorted[0]!,
    maxWei: sorted[sorted.length - 1]!,
    currentBaseFeeWei,
    busy: currentBaseFeeWei > busyThresholdWei,
    networkCongestion: networkCongestionOf(sorted, currentBaseFeeWei),
    recentTips: Object.freeze([...(extras.recentTips ?? [])]),
    blockTimeMs: extras.blockTimeMs ?? DEFAULT_BLOCK_TIME_MS,
    statsBlocks: window.size,
    statsFromBlock: window.oldestBlock!,
    statsToBlock: newestBlock,
  });
}
