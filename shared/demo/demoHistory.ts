import { DEMO_REPLAY } from "./demoReplayPlan.ts";
import type { TimedBlocks } from "./timedMainnetBlocks.ts";

/** The demo chain's past, oldest first: per block, the mainnet block it replays, that block's base fee, and its timestamp on the demo chain. */
export interface DemoHistory {
  readonly mainnetBlocks: readonly bigint[];
  readonly baseFeesWei: readonly bigint[];
  /** Unix seconds, each later than the one before; the newest is `endSeconds`. */
  readonly timestamps: readonly number[];
}

/**
 * The history `--demo` mines before its live replay: every block of the timed data once, each with its real base fee
 * and its real spacing, arranged to end with the replay's preload (the slice's first 500 blocks, so that the live
 * replay goes on from there as it always has) at `endSeconds`. The data holds 38.1 hours up to the preload's end
 * (17,180,000 to 17,191,291) and 11.3 hours after it (17,191,292 to 17,194,650): those come first, then, one slot
 * (12 s) later, the 38.1 hours that lead into the replay, 49.4 hours in all. So the last 24 hours the chain holds are
 * the real day before the replayed blocks (the busy threshold the live fees cross is theirs), the 24 h chart and the
 * hour-of-week heatmap have two days of real data from the start, and the seam between the two stretches lies 38.1
 * hours back. Both stretches keep their real times apart (12 s slots, a missed slot now and then), shifted as a whole.
 */
export function demoHistory(timed: TimedBlocks, endSeconds: number): DemoHistory {
  if (!Number.isSafeInteger(endSeconds) || endSeconds < 0) throw new RangeError(`the history ends at whole unix seconds (got ${endSeconds})`);
  const count = timed.baseFeesWei.length;
  const preloadEnd = Number(DEMO_REPLAY.firstBlock - timed.firstBlock) + DEMO_REPLAY.preloadBlocks - 1;
  if (preloadEnd < DEMO_REPLAY.preloadBlocks - 1 || preloadEnd >= count || timed.timestamps.length !== count) {
    throw new RangeError(
      `the demo's history ends with blocks ${DEMO_REPLAY.firstBlock} to ${DEMO_REPLAY.firstBlock + BigInt(DEMO_REPLAY.preloadBlocks - 1)}, ` +
        `which the timed data from block ${timed.firstBlock} (${count} blocks) does not hold`,
    );
  }
  // Block i of the data, shifted: the preload's end lands on endSeconds, and the stretch after it ends one slot before the data's first block.
  const leadInShiftSeconds = endSeconds - timed.timestamps[preloadEnd]!;
  const laterShiftSeconds = timed.timestamps[0]! + leadInShiftSeconds - DEMO_REPLAY.seamSeconds - timed.timestamps[count - 1]!;
  const order = [...range(preloadEnd + 1, count), ...range(0, preloadEnd + 1)];
  return {
    mainnetBlocks: order.map((i) => timed.firstBlock + BigInt(i)),
    baseFeesWei: order.map((i) => timed.baseFeesWei[i]!),
    timestamps: order.map((i) => timed.timestamps[i]! + (i > preloadEnd ? laterShiftSeconds : leadInShiftSeconds)),
  };
}

function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);
}
