import { HISTORY_BLOCKS } from "../fees/historyLength.ts";
import type { BlockColumns } from "./blockColumns.ts";
import type { WindowSpec } from "./duration.ts";

/**
 * The first block of `spec`'s window as of the newest held block, where every window ends; undefined while nothing
 * is held. "N blocks" is the newest N; a duration, every block timed within it of the newest block's timestamp, never
 * fewer than the newest HISTORY_BLOCKS blocks (or all held). No window reaches back past the history horizon beyond
 * those newest blocks, so that none holds blocks the horizon lets go. The block returned may lie in a gap.
 */
export function windowStartBlock(columns: BlockColumns, spec: WindowSpec, horizonSeconds: number): number | undefined {
  const newest = columns.newestBlock;
  const oldest = columns.oldestBlock;
  if (newest === undefined || oldest === undefined) return undefined;
  const newestTime = columns.timestampAt(newest);
  const newestBlocks = newest - HISTORY_BLOCKS + 1;
  // How far back any window may reach: the horizon, but never into the newest HISTORY_BLOCKS blocks.
  const floor = Math.min(columns.firstAtOrAfter(newestTime - horizonSeconds) ?? newest, newestBlocks);
  if (spec.kind === "blocks") return Math.max(oldest, floor, newest - spec.blocks + 1);
  const byTime = columns.firstAtOrAfter(newestTime - spec.seconds) ?? newest;
  return Math.max(oldest, floor, Math.min(byTime, newestBlocks));
}

/** One key per distinct window, whatever its text ("24h" and "1d" are one window). */
export function windowKey(spec: WindowSpec): string {
  return spec.kind === "blocks" ? `${spec.blocks} blocks` : `${spec.seconds}s`;
}

/** Throws a RangeError, saying what a window is, when `spec` does not describe one (parseWindowSpec's always do). */
export function checkWindowSpec(spec: WindowSpec): void {
  const valid = spec.kind === "blocks" ? Number.isSafeInteger(spec.blocks) && spec.blocks >= 1 : Number.isFinite(spec.seconds) && spec.seconds > 0;
  if (!valid) throw new RangeError(`a window is a positive duration or a positive whole number of blocks, as parseWindowSpec makes (got "${spec.text}")`);
}
