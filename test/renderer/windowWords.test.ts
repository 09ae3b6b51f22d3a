import assert from "node:assert/strict";
import { test } from "node:test";
import {
  durationWords,
  heldByAnswer,
  heldOfSpan,
  lastSpanWords,
  medianOfSpanWords,
  roughDurationWords,
  statsLineNames,
  statsWindowWords,
  windowWords,
} from "../../renderer/src/windowWords.ts";
import { backfillWords } from "../../renderer/src/backfillWords.ts";
import { storeWords } from "../../renderer/src/storeWords.ts";
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

test("a span of time ending at the newest block says how much of it is held while the history is shorter: never 24 h over less", () => {
  const held = (hours: number) => ({ oldestTime: 1_700_000_000, newestTime: 1_700_000_000 + hours * 3_600 });
  const DAY = 86_400;
  const WEEK = 7 * DAY;
  assert.equal(heldOfSpan(DAY, held(30)), undefined, "the whole day held");
  assert.equal(heldOfSpan(DAY, held(23.9)), undefined, "a block's spacing short of the span is the span");
  assert.equal(heldOfSpan(DAY, held(7.25)), "7.2 h");
  assert.equal(heldOfSpan(WEEK, held(49.4)), "2 days");
  assert.equal(heldOfSpan(DAY, { oldestTime: null, newestTime: null }), undefined, "nothing held: nothing to say of it");
  assert.equal(lastSpanWords(DAY, held(30)), "the last 24 h");
  assert.equal(lastSpanWords(DAY, held(7.25)), "the 7.2 h held of the last 24 h");
  assert.equal(lastSpanWords(WEEK, held(49.4)), "the 2 days held of the last 7 days");
  assert.equal(lastSpanWords(3_600, held(49.4)), "the last 1 h");
  assert.equal(lastSpanWords(3_600, held(0.25)), "the 15 min held of the last 1 h");
  // The chain tiles' comparison: "vs 24 h median" only over a whole day.
  assert.deepEqual(medianOfSpanWords(DAY, held(30)), { short: "24 h median", long: "the median of the last 24 h" });
  assert.deepEqual(medianOfSpanWords(DAY, held(7.25)), {
    short: "7.2 h median",
    long: "the median of the 7.2 h held (the history does not reach 24 h back yet)",
  });
  assert.deepEqual(medianOfSpanWords(DAY, held(0.3 * 24)), {
    short: "7.2 h median",
    long: "the median of the 7.2 h held (the history does not reach 24 h back yet)",
  });
});

test("an answer is named by what was held when it was asked for, not by what is held since", () => {
  const now = { oldestTime: 1_699_900_000, newestTime: 1_700_000_000 };
  // Asked with 7.2 h held; the backfill has since brought 27.7 h: the answer in hand is still a median of 7.2 h.
  assert.equal(medianOfSpanWords(86_400, heldByAnswer(1_700_000_000 - 7.25 * 3_600, now)).short, "7.2 h median");
  assert.equal(medianOfSpanWords(86_400, heldByAnswer(undefined, now)).short, "24 h median", "unknown: what is held now");
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
    store: { state: "off", problem: null, since: null, unsavedBlocks: 0, droppedBlocks: 0 },
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

test("the history file's trouble in plain words: why, what waits, what was dropped; nothing while it works", () => {
  const healthy = { state: "ok", problem: null, since: null, unsavedBlocks: 0, droppedBlocks: 0 } as const;
  assert.equal(storeWords(healthy), undefined);
  assert.equal(storeWords({ ...healthy, state: "off" }), undefined);
  assert.deepEqual(storeWords({ ...healthy, state: "failing", problem: "locked", since: 1, unsavedBlocks: 12_345 }), {
    title: "The history is not being saved.",
    detail:
      "Another program (another gasfees on the same folder?) holds the file locked; 12,345 blocks wait in memory and will be written once it works again.",
  });
  assert.deepEqual(storeWords({ ...healthy, state: "failing", problem: "full", since: 1, unsavedBlocks: 1, droppedBlocks: 70 }), {
    title: "The history is not being saved.",
    detail: "The disk is full; 1 block waits in memory and will be written once it works again. 70 did not fit in memory: the next start fetches them again.",
  });
});
