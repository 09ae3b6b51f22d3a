// Blob use against the target: each block's blob gas used ratio (of the maximum) as a share of the fork's target.
import type { BlobSchedule } from "../../../shared/core/fees/blobFeeRule.ts";
import type { FeePoint } from "../live/chainData.ts";

/** A block's blob use: its blob gas used over the schedule's target (1 = at the target; the maximum is max / target). */
export interface BlobUse {
  readonly block: number;
  readonly ofTarget: number;
}

/** The blocks with a known blob gas used ratio, each as a share of the target; and the schedule's maximum as one. */
export function blobUseOf(
  points: readonly FeePoint[],
  schedule: Pick<BlobSchedule, "target" | "max">,
): { readonly uses: readonly BlobUse[]; readonly maxOfTarget: number } {
  const maxOfTarget = schedule.max / schedule.target;
  const uses: BlobUse[] = [];
  for (const point of points) {
    if (point.blobUsedRatio === undefined || point.blobUsedRatio === null) continue;
    uses.push({ block: point.block, ofTarget: point.blobUsedRatio * maxOfTarget });
  }
  return { uses, maxOfTarget };
}

/** The mean use of `uses` as a share of the target (undefined without any). */
export function meanOfTarget(uses: readonly BlobUse[]): number | undefined {
  if (uses.length === 0) return undefined;
  return uses.reduce((sum, use) => sum + use.ofTarget, 0) / uses.length;
}

/** The blob use card's words: the newest block's use and the mean of every block drawn, each named by what it covers. */
export interface BlobUseWords {
  /** The newest block's use as a share of the target ("150%"), or "—" without any. */
  readonly newest: string;
  /** Its block ("block 14,711"), or undefined without any. */
  readonly newestBlock: string | undefined;
  /** The mean of the blocks drawn ("93%"), or "—". */
  readonly mean: string;
  /** What the mean covers: "mean 93% of the 500 bars below" (the strip: a bar per block). */
  readonly meanWords: string;
}

export function blobUseWords(uses: readonly BlobUse[]): BlobUseWords {
  const newest = uses[uses.length - 1];
  const mean = formatShare(meanOfTarget(uses));
  return {
    newest: formatShare(newest?.ofTarget),
    newestBlock: newest === undefined ? undefined : `block ${newest.block.toLocaleString("en-US")}`,
    mean,
    meanWords:
      uses.length === 0
        ? "no blocks with blob use yet"
        : `mean ${mean} of the ${uses.length.toLocaleString("en-US")} ${uses.length === 1 ? "bar" : "bars"} below`,
  };
}

/** A share of the target as a whole percent ("93%"), or "—". */
export function formatShare(share: number | undefined): string {
  return share === undefined ? "—" : `${Math.round(share * 100)}%`;
}
