import type { FetchBaseFeesRequest } from "./fetchBaseFees.ts";

/** New blocks one poll reaches at least, beyond the overlap. */
export const MIN_POLL_REACH_BLOCKS = 56;

export interface FeeHistoryRequestInputs {
  /** The newest block held; undefined before the first data (the request is then the whole backfill). */
  readonly newestHeldBlock: bigint | undefined;
  /** Blocks the feed holds (the statistics window). */
  readonly windowBlocks: number;
  /** Recent blocks read again on each poll so that re-mined blocks are corrected. */
  readonly overlapBlocks: number;
  readonly blockTimeMs: number;
  readonly pollIntervalMs: number;
  /** Epoch ms of the last successful sync, if any. */
  readonly lastSyncAt: number | undefined;
  readonly now: number;
}

/**
 * How many blocks the next sync asks for: the whole window before the first data; afterwards what is new since the
 * newest block held, plus the overlap re-read, sized so that one answer covers it.
 */
export function nextFeeHistoryRequest(inputs: FeeHistoryRequestInputs): FetchBaseFeesRequest {
  const { newestHeldBlock, windowBlocks, overlapBlocks, blockTimeMs, pollIntervalMs, lastSyncAt, now } = inputs;
  if (newestHeldBlock === undefined) return { maxBlocks: windowBlocks, firstRequestBlocks: windowBlocks };
  const fromBlock = newestHeldBlock + 1n - BigInt(overlapBlocks);
  const sinceMs = Math.max(pollIntervalMs, now - (lastSyncAt ?? now));
  // Room for twice the blocks expected since the last success (and a burst of dozens anyway: a few more blocks cost
  // nothing in one answer), so that catching up after a slow poll is still one request.
  const expectedBlocks = Math.ceil(sinceMs / Math.max(1, blockTimeMs));
  return {
    fromBlock: fromBlock < 0n ? 0n : fromBlock,
    maxBlocks: windowBlocks,
    firstRequestBlocks: Math.min(windowBlocks, overlapBlocks + Math.max(MIN_POLL_REACH_BLOCKS, 2 * expectedBlocks + 2)),
  };
}
