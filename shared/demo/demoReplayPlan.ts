import { HISTORY_BLOCKS } from "../core/fees/historyLength.ts";
import { type BaseFeeSeries, loadMainnetBaseFees } from "./mainnetBaseFees.ts";

/**
 * What `--demo` replays, and how fast: 660 real mainnet blocks, 17,185,155 to 17,185,814 (4 May 2023, 07:13 to 09:26
 * UTC, during the memecoin congestion; see data/README.md), the first 500 at once and then one every 2 seconds, over and
 * over (22 minutes a round). In this stretch the base fee keeps rising above its busy threshold for a block or a few
 * and falling back, so a newcomer sees the Busy badge, the red tray and the busy/calm hysteresis change within the first
 * minute and then every few minutes; the whole 14,651-block file has quiet stretches of 15 minutes and more.
 * demoReplayPlan.test.ts replays it through the real core and counts the changes per minute.
 */
export const DEMO_REPLAY = Object.freeze({
  firstBlock: 17_185_155n,
  blocks: 660,
  /** Mined at once at the start, so that the chart and the statistics are full from the first second. */
  preloadBlocks: HISTORY_BLOCKS,
  blockIntervalMs: 2000,
  /** The statistics window the demo chain is followed with (the busy threshold is its nearest-rank p90). */
  statsWindowBlocks: HISTORY_BLOCKS,
});

/** The demo's blocks, cut from the real mainnet base fees shipped in data/. */
export function demoReplaySeries(series: BaseFeeSeries = loadMainnetBaseFees()): BaseFeeSeries {
  const start = Number(DEMO_REPLAY.firstBlock - series.firstBlock);
  if (start < 0 || start + DEMO_REPLAY.blocks > series.baseFeesWei.length) {
    throw new RangeError(
      `the demo replays blocks ${DEMO_REPLAY.firstBlock} to ${DEMO_REPLAY.firstBlock + BigInt(DEMO_REPLAY.blocks - 1)}, ` +
        `which the series from block ${series.firstBlock} (${series.baseFeesWei.length} blocks) does not hold`,
    );
  }
  return { firstBlock: DEMO_REPLAY.firstBlock, baseFeesWei: series.baseFeesWei.slice(start, start + DEMO_REPLAY.blocks) };
}

/** The base fee of a replay's `index`th block (0 is the first preloaded one): the series in order, starting over at its end. */
export function replayedBaseFeeWei(series: BaseFeeSeries, index: number): bigint {
  return series.baseFeesWei[index % series.baseFeesWei.length]!;
}
