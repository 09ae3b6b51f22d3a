import type { BackfillAnchors } from "./backfillAnchors.ts";
import type { BackfillPage } from "./backfillPage.ts";
import type { BackfillPlan } from "./backfillPlan.ts";
import type { BlockRange } from "./backfillRanges.ts";

/**
 * What a BackfillRunner fetches, page by page: the history's schedule (BackfillSchedule: every block back to the
 * horizon) or the outlook's (OutlookBackfillWork: hours before it). The runner takes a page, fetches and judges it
 * through the endpoint layer, hands it to its `onPage`, then completes it here (or releases it when not kept).
 */
export interface BackfillWork {
  /** The exact timestamps known: each page's two ends are checked against them and added. */
  readonly anchors: BackfillAnchors;
  readonly blocksFetched: number;
  readonly pagesFetched: number;
  readonly pagesInFlight: number;
  readonly blocksInFlight: number;
  /** What is left (`complete`: nothing; `missing[0]` the next range; `blocksToGo` an estimate). */
  plan(): Pick<BackfillPlan, "floorBlock" | "missing" | "blocksToGo" | "complete">;
  /** The next page, at most `maxBlocks` long, now in flight; undefined when nothing is left to take. */
  take(maxBlocks: number): BlockRange | undefined;
  /** The page fetched for `taken` was kept (it may hold only the newest part of it). */
  complete(taken: BlockRange, page: BackfillPage): void;
  /** The page was not kept: to take again. */
  release(taken: BlockRange): void;
}
