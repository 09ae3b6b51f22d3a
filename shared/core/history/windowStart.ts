import { HISTORY_BLOCKS } from "../fees/historyLength.ts";
import type { BlockColumns } from "./blockColumns.ts";
import type { WindowSpec } from "./duration.ts";

/**
 * The first block of `spec`'s window as of the newest held block, where every window ends; undefined while nothing
 * is held. "N blocks" is the newest N. A duration is every block timed within it of the newest block's timestamp,
 * never fewer than the newest HISTORY_BLOCKS blocks (or all held). The block returned may lie in a gap.
 */
export function windowStartBlock(columns: BlockColumns, spec: WindowSpec): number | undefined {
  const newest = columns.newestBlock;
  const oldest = columns.oldestBlock;
  if (newest === undefined || oldest === undefined) return undefined;
  if (spec.kind === "blocks") return Math.max(oldest, newest - spec.blocks + 1);
  const byTime = columns.firstAtOrAfter(columns.timestampAt(newest) - spec.seconds) ?? newest;
  return Math.max(oldest, Math.min(byTime, newest - HISTORY_BLOCKS + 1));
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
