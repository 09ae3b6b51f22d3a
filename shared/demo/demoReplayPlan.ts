import { HISTORY_BLOCKS } from "../core/fees/historyLength.ts";
import type { BaseFeeSeries } from "./mainnetBaseFees.ts";
import { loadTimedMainnetBlocks, type TimedBlocks } from "./timedMainnetBlocks.ts";

/**
 * What `--demo` replays live, and how fast: 560 real mainnet blocks, 17,190,792 to 17,191,351 (5 May 2023, 02:12 to
 * 04:05 UTC, during the memecoin congestion; see data/README.md), one every 2 seconds, over and over (about 19 minutes
 * a round). Their first 500 end the chain's history (demoHistory.ts: two days of real blocks mined at the start), so
 * the live blocks go on from the 501st, 17,191,292: there the real base fee climbs from 93 to 129 Gwei in a few
 * minutes, above its own busy threshold (about 100 Gwei: the 90th percentile of the real day before it, which is what
 * the demo chain holds as its last 24 hours), dipping back under it now and then. So the demo keeps the service's
 * default 24-hour statistics window, and a newcomer still sees the Busy badge, the red tray and the busy/calm
 * hysteresis change within the first minute, then every few minutes, while the badge, the busy line, the tiles, the
 * 24 h and 7 d views and the cheapest hours all speak of the same day. demoReplayPlan.test.ts finds the crossing in
 * the data and replays the plan through the real core.
 */
export const DEMO_REPLAY = Object.freeze({
  firstBlock: 17_190_792n,
  blocks: 560,
  /** The slice's first blocks that end the history (mined at once), so that the chart and the statistics are full from the first second. */
  preloadBlocks: HISTORY_BLOCKS,
  blockIntervalMs: 2000,
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
