import type { ChainHistory } from "../core/history/chainHistory.ts";
import { HOUR_SECONDS, hourStartOf, type HourlySummary } from "../core/outlook/hourlySummary.ts";
import { summarizeHour } from "../core/outlook/summarizeHour.ts";

// Which hours of a chain's held history are whole, and their summaries: an hour is summarised from the blocks the
// service holds only when it holds every one of them (the block before the hour and the block after it held, no gap
// between), so that a summary of held blocks is always exact.

/** The base fees of every block of the hour starting at `start`, oldest first, or undefined unless all are held. */
export function wholeHourFees(history: ChainHistory, start: number): bigint[] | undefined {
  const end = start + HOUR_SECONDS;
  const fees: bigint[] = [];
  let firstBlock: bigint | undefined;
  let next: bigint | undefined;
  let after: number | undefined;
  for (const run of history.runs(start, end)) {
    if (next !== undefined && run.firstBlock !== next) return undefined;
    firstBlock ??= run.firstBlock;
    const { timestamps, baseFeesWei } = run;
    for (let i = 0; i < timestamps.length; i++) {
      if (timestamps[i]! >= end) {
        after = timestamps[i];
        break;
      }
      fees.push(baseFeesWei[i]!);
    }
    next = run.firstBlock + BigInt(timestamps.length);
    if (after !== undefined) break;
  }
  if (firstBlock === undefined || fees.length === 0) return undefined;
  // The block before the hour is held (so none of the hour's is missing below), and one after it (none above).
  if (history.baseFeeAt(firstBlock - 1n) === undefined) return undefined;
  if (after === undefined) {
    const afterBlock = firstBlock + BigInt(fees.length);
    const time = timestampOf(history, afterBlock);
    if (time === undefined || time < end) return undefined;
  }
  return fees;
}

/** The summary of the hour starting at `start` from every one of its blocks, or undefined unless all are held. */
export function wholeHourSummary(history: ChainHistory, start: number): HourlySummary | undefined {
  const fees = wholeHourFees(history, start);
  return fees === undefined ? undefined : Object.freeze(summarizeHour(start, fees));
}

/** The held block's timestamp (unix s, exact or interpolated), or undefined when it is not held. */
export function timestampOf(history: ChainHistory, block: bigint): number | undefined {
  if (block < 0n) return undefined;
  for (const run of history.runsBetweenBlocks(block, block)) return run.timestamps[0];
  return undefined;
}

/**
 * The hours that start before this are closed: the block `safeDepth` below the newest is past their end, so no
 * reorganisation the chain makes reaches them. Undefined while the history holds fewer blocks.
 */
export function closedHoursBefore(history: ChainHistory, safeDepth: number): number | undefined {
  const newest = history.newest;
  if (newest === undefined) return undefined;
  const time = timestampOf(history, newest.block - BigInt(safeDepth));
  return time === undefined ? undefined : hourStartOf(time);
}
