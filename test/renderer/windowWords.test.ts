import assert from "node:assert/strict";
import { test } from "node:test";
import { durationWords, roughDurationWords, statsLineNames, statsWindowWords, windowWords } from "../../renderer/src/windowWords.ts";
import { backfillWords } from "../../renderer/src/backfillWords.ts";
import type { HistoryStatus } from "../../shared/wire/networkStatus.ts";

test("windows in words: durations in their natural unit, block counts grouped", () => {
  assert.equal(windowWords("24h"), "24 h");
  assert.equal(windowWords("1h"), "1 h");
  assert.equal(windowWords("7d"), "7 days");
  assert.equal(windowWords("1d"), "24 h");
  assert.equal(windowWords("90m"), "90 min");
  assert.equal(windowWords("500 blocks"), "500 blocks");
  assert.equal(windowWords("7200 blocks"), "7,200 blocks");
  assert.equal(windowWords("whenever"), "whenever");
  assert.equal(durationWords(45), "45 s");
  assert.deepEqual(statsLineNames("24 h"), { p50: "p50 over 24 h", busy: "p90 over 24 h = busy threshold" });
});

test("the window in use: the configured one once the history reaches it, else every block held, named by its span", () => {
  const held = (hours: number) => ({ oldestTime: 1_700_000_000, newestTime: 1_700_000_000 + hours * 3_600 });
  assert.equal(statsWindowWords("24h", held(30)), "24 h");
  assert.equal(statsWindowWords("24h", held(23.9)), "24 h", "a block's spacing short of the window is the window");
  assert.equal(statsWindowWords("24h", held(3.25)), "the 3.2 h held");
  assert.equal(statsWindowWords("7d", held(60)), "the 2.5 days held");
  assert.equal(statsWindowWords("24h", held(0.5)), "the 30 min held");
  assert.equal(statsWindowWords("24h", { oldestTime: null, newestTime: null }), "24 h");
  assert.equal(statsWindowWords("500 blocks", held(0.5)), "500 blocks");
  assert.equal(roughDurationWords(20), "1 min");
});

function history(progress: number, blocksToGo: number | null, horizon = "7d"): HistoryStatus {
  return {
    horizon,
    blocks: 1000,
    oldestBlock: "1",
    newestBlock: "1000",
    oldestTime: 0,
    newestTime: 12_000,
    backfill: { running: true, progress, blocksToGo },
  };
}

test("backfill in words: the share of the horizon held in days, and the blocks to go as an estimate", () => {
  assert.deepEqual(backfillWords(history(1 / 3, 33_617)), { progress: 1 / 3, held: "2.3 of 7 days held", toGo: "about 34,000 blocks to go" });
  assert.deepEqual(backfillWords(history(0, null)), { progress: 0, held: "0 of 7 days held", toGo: undefined });
  assert.deepEqual(backfillWords(history(1, 0)), { progress: 1, held: "7 of 7 days held", toGo: "no blocks to go" });
  assert.equal(backfillWords(history(0.5, 57, "24h")).held, "12 of 24 h held");
  assert.equal(backfillWords(history(0.5, 57, "24h")).toGo, "about 57 blocks to go");
  // Held is never rounded up to the whole horizon before it is reached.
  assert.equal(backfillWords(history(0.9999, 3)).held, "6.9 of 7 days held");
});
