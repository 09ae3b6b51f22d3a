// Blob use against the target: each block's blob gas used ratio (of the maximum) as a share of the fork's target.
import type { BlobSchedule } from "../../shared/core/fees/blobFeeRule.ts";
import type { FeePoint } from "./chainData.ts";

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
