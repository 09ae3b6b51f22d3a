import { HOUR_SECONDS } from "../core/outlook/hourlySummary.ts";

/** Pages of `eth_feeHistory` up to which the outlook backfill fetches every block; beyond, a sample (CONTRACT.md). */
export const OUTLOOK_MAX_EVERY_BLOCK_PAGES = 2_000;
/** JSON-RPC calls per page: `eth_feeHistory` and the headers of its two ends (backfillPage.ts). */
export const REQUESTS_PER_PAGE = 3;

export interface OutlookPlanInputs {
  /** The outlook backfill's span in seconds (`outlookBackfill`, default 8 weeks). */
  readonly spanSeconds: number;
  /** The chain's seconds per block (observed, else as configured). */
  readonly blockSpacingSeconds: number;
  /** Blocks per page: 1,024, or the endpoint's cap when lower. */
  readonly pageBlocks: number;
}

/** How the outlook backfill reads a chain, and what it costs. */
export interface OutlookPlan {
  /** `every`: every block of the span; `sampled`: one page in each hour. */
  readonly mode: "every" | "sampled";
  /** Whole hours in the span. */
  readonly hours: number;
  /** Blocks in the span, estimated from the spacing. */
  readonly blocks: number;
  /** Pages to fetch: every block's, or one per hour when sampled. */
  readonly pages: number;
  readonly requests: number;
  /** At `requestsPerSecond`, from pages and the requests they take. */
  secondsAt(requestsPerSecond: number): number;
}

/**
 * Every block when that takes at most OUTLOOK_MAX_EVERY_BLOCK_PAGES pages, else one page an hour (CONTRACT.md, "Outlook:
 * wait or pay now"). At 1,024 blocks a page, every block is read on chains of about 2.4 s or slower over 8 weeks
 * (Ethereum's 12 s: 395 pages); Base's and OP's 2 s and Arbitrum's 0.25 s are sampled (1,344 pages). Each page is
 * REQUESTS_PER_PAGE calls; a run adds one chain-id check per endpoint, and its first page may hold fewer blocks (the
 * part of the history's oldest hour below it is read and left to the history).
 */
export function planOutlookBackfill({ spanSeconds, blockSpacingSeconds, pageBlocks }: OutlookPlanInputs): OutlookPlan {
  if (!(spanSeconds > 0)) throw new RangeError(`an outlook backfill spans a positive duration (got ${spanSeconds} s)`);
  if (!(blockSpacingSeconds > 0)) throw new RangeError(`a chain's block spacing is positive (got ${blockSpacingSeconds} s)`);
  if (!Number.isInteger(pageBlocks) || pageBlocks < 1) throw new RangeError(`a page holds at least one block (got ${pageBlocks})`);
  const hours = Math.ceil(spanSeconds / HOUR_SECONDS);
  const blocks = Math.ceil(spanSeconds / blockSpacingSeconds);
  // The runner takes one block less than a page can hold (room for the seam below it): as many pages as it fetches.
  const everyBlockPages = Math.ceil(blocks / Math.max(1, pageBlocks - 1));
  const mode = everyBlockPages <= OUTLOOK_MAX_EVERY_BLOCK_PAGES ? "every" : "sampled";
  const pages = mode === "every" ? everyBlockPages : hours;
  const requests = pages * REQUESTS_PER_PAGE;
  return Object.freeze({ mode, hours, blocks, pages, requests, secondsAt: (requestsPerSecond: number) => requests / requestsPerSecond });
}
