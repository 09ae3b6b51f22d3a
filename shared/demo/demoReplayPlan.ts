import { HISTORY_BLOCKS } from "../core/fees/historyLength.ts";
import type { BaseFeeSeries } from "./mainnetBaseFees.ts";
import { loadTimedMainnetBlocks, type TimedBlocks } from "./timedMainnetBlocks.ts";

/**
 * What `--demo` replays live, and how fast: 660 real mainnet blocks, 17,185,155 to 17,185,814 (4 May 2023, 07:13 to
 * 09:26 UTC, during the memecoin congestion; see data/README.md), one every 2 seconds, over and over (22 minutes a
 * round). Their first 500 end the chain's history (demoHistory.ts: two days of real blocks mined at the start), so
 * the live blocks go on from the 501st. In this stretch the base fee keeps rising above the busy threshold of the
 * newest 500 blocks for a block or a few and falling back, so a newcomer sees the Busy badge, the red tray and the
 * busy/calm hysteresis change within the first minute and then every few minutes; the whole 14,651-block file has
 * quiet stretches of 15 minutes and more, and a 24-hour window over this history would stay quiet for most of the
 * first half hour. demoReplayPlan.test.ts replays it through the real core and counts the changes per minute.
 */
export const DEMO_REPLAY = Object.freeze({
  firstBlock: 17_185_155n,
  blocks: 660,
  /** The slice's first blocks that end the history (mined at once), so that the chart and the statistics are full from the first second. */
  preloadBlocks: HISTORY_BLOCKS,
  blockIntervalMs: 2000,
  /** The statistics window the demo chain is followed with (the busy threshold is its nearest-rank p90). */
  statsWindowBlocks: HISTORY_BLOCKS,
  /** Between the history's two stretches of real blocks (demoHistory.ts): one slot. */
  seamSeconds: 12,
});

/** The demo's live blocks, cut from the real mainnet blocks shipped in data/. */
export function demoReplaySeries(timed: TimedBlocks = loadTimedMainnetBlocks()): BaseFeeSeries {
  const start = Number(DEMO_REPLAY.firstBlock - timed.firstBlock);
  if (start < 0 || start + DEMO_REPLAY.blocks > timed.baseFeesWei.length) {
    throw new RangeError(
      `the demo replays blocks ${DEMO_REPLAY.firstBlock} to ${DEMO_REPLAY.firstBlock + BigInt(DEMO_REPLAY.blocks - 1)}, ` +
        `which the data from block ${timed.firstBlock} (${timed.baseFeesWei.length} blocks) does not hold`,
    );
  }
  return { firstBlock: DEMO_REPLAY.firstBlock, baseFeesWei: timed.baseFeesWei.slice(start, start + DEMO_REPLAY.blocks) };
}

/** The base fee of a replay's `index`th block (0 is the slice's first): the series in order, starting over at its end. */
export function replayedBaseFeeWei(series: BaseFeeSeries, index: number): bigint {
  return series.baseFeesWei[index % series.baseFeesWei.length]!;
}
