// The history --demo mines before its live replay, checked against the shipped files read independently: the untimed
// CSV's fees by mainnet block number, and the timed CSV's real gaps between blocks.
import assert from "node:assert/strict";
import { test } from "node:test";
import { demoHistory } from "./demoHistory.ts";
import { DEMO_REPLAY, demoReplaySeries, replayedBaseFeeWei } from "./demoReplayPlan.ts";
import { loadMainnetBaseFees } from "./mainnetBaseFees.ts";
import { loadTimedMainnetBlocks } from "./timedMainnetBlocks.ts";

const timed = loadTimedMainnetBlocks();
const END_SECONDS = 1_800_000_000;
const history = demoHistory(timed, END_SECONDS);
const HOUR = 3_600;

test("every block of the data once, ending with the live replay's first 500 blocks", () => {
  const count = timed.baseFeesWei.length;
  assert.equal(history.mainnetBlocks.length, count);
  assert.deepEqual(
    [...history.mainnetBlocks].sort((a, b) => (a < b ? -1 : 1)),
    Array.from({ length: count }, (_, i) => 17_180_000n + BigInt(i)),
  );
  const preload = history.mainnetBlocks.slice(-DEMO_REPLAY.preloadBlocks);
  assert.deepEqual(
    preload,
    Array.from({ length: DEMO_REPLAY.preloadBlocks }, (_, i) => DEMO_REPLAY.firstBlock + BigInt(i)),
  );
  // The live replay goes on from the preload: its newest 500 fees are the replay's indexes 0..499.
  const series = demoReplaySeries(timed);
  assert.deepEqual(
    history.baseFeesWei.slice(-DEMO_REPLAY.preloadBlocks),
    Array.from({ length: DEMO_REPLAY.preloadBlocks }, (_, i) => replayedBaseFeeWei(series, i)),
  );
  // The stretch after the preload first (17,191,292 on), then the one leading into it from the data's first block.
  assert.equal(history.mainnetBlocks[0], 17_191_292n);
  assert.equal(history.mainnetBlocks[count - 11_292 - 1], 17_194_650n);
  assert.equal(history.mainnetBlocks[count - 11_292], 17_180_000n);
});

test("each block carries its own mainnet block's base fee", () => {
  const untimed = loadMainnetBaseFees();
  history.mainnetBlocks.forEach((block, i) => {
    assert.equal(history.baseFeesWei[i], untimed.baseFeesWei[Number(block - untimed.firstBlock)], `block ${i} replays mainnet block ${block}`);
  });
});

test("the history ends at the time given, in the data's real spacing, 49.4 hours long with one 12-second seam", () => {
  assert.equal(history.timestamps.at(-1), END_SECONDS);
  const realGap = (block: bigint) => {
    const i = Number(block - timed.firstBlock);
    return timed.timestamps[i]! - timed.timestamps[i - 1]!;
  };
  for (let i = 1; i < history.timestamps.length; i++) {
    const gap = history.timestamps[i]! - history.timestamps[i - 1]!;
    const block = history.mainnetBlocks[i]!;
    const expected = block === timed.firstBlock ? DEMO_REPLAY.seamSeconds : realGap(block);
    assert.equal(gap, expected, `${gap} s between blocks ${i - 1} and ${i} (mainnet ${history.mainnetBlocks[i - 1]} and ${block})`);
  }
  const spanSeconds = END_SECONDS - history.timestamps[0]!;
  assert.equal(spanSeconds, timed.timestamps.at(-1)! - timed.timestamps[0]! - realGap(17_191_292n) + DEMO_REPLAY.seamSeconds);
  assert.ok(spanSeconds > 49 * HOUR && spanSeconds < 50 * HOUR, `${spanSeconds / HOUR} hours`);
  // The 24 hours before the end hold a day of blocks, about 300 an hour (12-second slots): the real day before the
  // replay, mainnet blocks in order up to the preload's end, the seam 38.1 hours back.
  const lastDay = history.timestamps.filter((timestamp) => timestamp > END_SECONDS - 24 * HOUR).length;
  assert.ok(lastDay > 7_000 && lastDay <= 7_200, `${lastDay} blocks in the last 24 hours`);
  const lastDayBlocks = history.mainnetBlocks.slice(-lastDay);
  assert.deepEqual(
    lastDayBlocks,
    Array.from({ length: lastDay }, (_, i) => 17_191_291n - BigInt(lastDay - 1 - i)),
  );
  const seamHoursBack = (END_SECONDS - history.timestamps[history.timestamps.length - 11_292]!) / HOUR;
  assert.ok(seamHoursBack > 38 && seamHoursBack < 38.2, `the seam lies ${seamHoursBack} hours back`);
});

test("a history that cannot end at a whole second, or data without the replay's blocks, is refused", () => {
  assert.throws(() => demoHistory(timed, 1.5), /whole unix seconds/);
  const short = { firstBlock: timed.firstBlock, timestamps: timed.timestamps.slice(0, 5_000), baseFeesWei: timed.baseFeesWei.slice(0, 5_000) };
  assert.throws(() => demoHistory(short, END_SECONDS), /does not hold/);
});
