// What a ChainHistory must agree with, kept the slow and obvious way by the history's property tests: every block
// written, with its fee and its exact time.
import type { ChainHistory } from "../../shared/core/history/chainHistory.ts";
import type { WindowSpec } from "../../shared/core/history/duration.ts";
import { HISTORY_BLOCKS } from "../../shared/core/fees/historyLength.ts";

/** Every block written, by block number, with its fee and its exact time (each block is written with its anchor). */
export type HistoryModel = Map<number, { fee: bigint; time: number }>;

export const ascending = (values: readonly bigint[]) => [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/** Writes consecutive blocks from `firstBlock`, each anchored at its time, to the history and to the model. */
export function writeBoth(history: ChainHistory, model: HistoryModel, firstBlock: number, entries: readonly { fee: bigint; time: number }[]): void {
  const anchors = entries.map((entry, i) => ({ block: BigInt(firstBlock + i), timestamp: entry.time }));
  history.write({ firstBlock: BigInt(firstBlock), baseFeesWei: entries.map((entry) => entry.fee), anchors }, 0);
  entries.forEach((entry, i) => model.set(firstBlock + i, entry));
}

/**
 * The first block a reorg of `count` blocks re-mines: the newest blocks the chain has shown, back to the first one
 * skipped, never into a gap (a block never written has no time to keep).
 */
export function reorgStart(model: HistoryModel, newest: number, count: number): number {
  let first = newest;
  while (first > newest - count + 1 && model.has(first - 1)) first--;
  return first;
}

/**
 * A window's first block and its fees, ascending, as the contract defines it: "N blocks" the newest N, a duration every
 * block timed within it of the newest, never fewer than the newest HISTORY_BLOCKS; none reaching past the horizon beyond
 * those newest blocks.
 */
export function modelWindow(
  model: HistoryModel,
  window: WindowSpec,
  horizonSeconds = Number.POSITIVE_INFINITY,
): { from: number; newest: number; fees: bigint[] } {
  const blocks = [...model.keys()].sort((a, b) => a - b);
  const oldest = blocks[0]!;
  const newest = blocks.at(-1)!;
  const newestTime = model.get(newest)!.time;
  const firstAfter = (seconds: number) => blocks.find((block) => model.get(block)!.time >= newestTime - seconds)!;
  const floor = Math.min(firstAfter(horizonSeconds), newest - HISTORY_BLOCKS + 1);
  const start =
    window.kind === "blocks"
      ? Math.max(oldest, floor, newest - window.blocks + 1)
      : Math.max(oldest, floor, Math.min(firstAfter(window.seconds), newest - HISTORY_BLOCKS + 1));
  // The window's first block is the oldest one it holds: where its start falls in a gap, the first block after it.
  const from = blocks.find((block) => block >= start)!;
  return { from, newest, fees: ascending(blocks.filter((block) => block >= from).map((block) => model.get(block)!.fee)) };
}
