import type { FetchBaseFeesRequest } from "./fetchBaseFees.ts";

/** Blocks asked beyond those known or expected to be new: one or two that arrive while the request is under way. */
export const NEW_BLOCKS_MARGIN = 2;

export interface FeeHistoryRequestInputs {
  /** The newest block held; undefined before the first data (the request is then the whole backfill). */
  readonly newestHeldBlock: bigint | undefined;
  /**
   * The newest block the chain has shown in a believed header (the endpoint's check reads one before the first sync);
   * undefined before any. The blocks after the newest held up to it are known to be new.
   */
  readonly newestHeadSeen: bigint | undefined;
  /** Blocks the feed holds (the statistics window). */
  readonly windowBlocks: number;
  /** Recent blocks read again on each poll so that re-mined blocks are corrected. */
  readonly overlapBlocks: number;
  readonly blockTimeMs: number;
  readonly pollIntervalMs: number;
  /**
   * Epoch ms of this run's last successful sync; undefined before the first (a start, or a restart on blocks held:
   * the age of the newest block held says nothing of how many are new, as a chain may be dated in the past).
   */
  readonly lastSyncAt: number | undefined;
  readonly now: number;
}

/**
 * How many blocks the next sync asks for: the whole window before the first data; afterwards what is new since the
 * newest block held, plus the overlap re-read, sized so that one answer covers it. What is new is the larger of the
 * blocks a header has shown beyond those held and the blocks due since this run's last sync (twice them, for a chain
 * that runs ahead of its rhythm), plus NEW_BLOCKS_MARGIN; a request that falls short is completed by the next call.
 */
export function nextFeeHistoryRequest(inputs: FeeHistoryRequestInputs): FetchBaseFeesRequest {
  const { newestHeldBlock, newestHeadSeen, windowBlocks, overlapBlocks, blockTimeMs, pollIntervalMs, lastSyncAt, now } = inputs;
  if (newestHeldBlock === undefined) return { maxBlocks: windowBlocks, firstRequestBlocks: windowBlocks };
  const fromBlock = newestHeldBlock + 1n - BigInt(overlapBlocks);
  const shownBlocks = newestHeadSeen === undefined || newestHeadSeen <= newestHeldBlock ? 0 : Number(newestHeadSeen - newestHeldBlock);
  const dueBlocks = lastSyncAt === undefined ? 0 : 2 * Math.ceil(Math.max(pollIntervalMs, now - lastSyncAt) / Math.max(1, blockTimeMs));
  const newBlocks = Math.max(shownBlocks, dueBlocks) + NEW_BLOCKS_MARGIN;
  return {
    fromBlock: fromBlock < 0n ? 0n : fromBlock,
    maxBlocks: windowBlocks,
    firstRequestBlocks: Math.min(windowBlocks, overlapBlocks + newBlocks),
  };
}
