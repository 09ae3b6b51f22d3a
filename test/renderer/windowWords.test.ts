import assert from "node:assert/strict";
import { test } from "node:test";
import {
  durationWords,
  heldByAnswer,
  heldOfSpan,
  lastSpanWords,
  statsMedianWords,
  roughDurationWords,
  statsLineNames,
  statsWindowWords,
  windowWords,
} from "../../renderer/src/text/windowWords.ts";
import { backfillWords } from "../../renderer/src/backfill/backfillWords.ts";
import { storeWords } from "../../renderer/src/text/storeWords.ts";
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
  // The chain tiles' comparison names the cards' window: "vs 24 h median" only over a whole day.
  assert.deepEqual(statsMedianWords("24h", held(30)), { short: "24 h median", long: "the median (p50) over 24 h" });
  assert.deepEqual(statsMedianWords("24h", held(7.25)), {
    short: "7.2 h median",
    long: "the median (p50) of the 7.2 h held (the history does not reach 24 h back yet)",
  });
  assert.equal(statsWindowWords("24h", held(7.25)), "the 7.2 h held", "the card's words for the same window");
  assert.deepEqual(statsMedianWords("500 blocks", held(1)), { short: "500-block median", long: "the median (p50) over 500 blocks" });
  assert.deepEqual(statsMedianWords("7d", held(49.4)).short, "2 days median");
});

test("an answer is named by what was held when it was asked for, not by what is held since", () => {
  const now = { oldestTime: 1_699_900_000, newestTime: 1_700_000_000 };
  // Asked with 7.2 h held; the backfill has since brought 27.7 h: the answer in hand is still of 7.2 h.
  assert.equal(lastSpanWords(86_400, heldByAnswer(1_700_000_000 - 7.25 * 3_600, now)), "the 7.2 h held of the last 24 h");
  assert.equal(lastSpanWords(86_400, heldByAnswer(undefined, now)), "the last 24 h", "unknown: what is held now");
});

/** A backfill at `progress` of the horizon, 12 s blocks held back from now, with `blocksToGo` still to fetch. */
function history(progress: number, blocksToGo: number | null, horizon = "7d"): HistoryStatus {
  const heldSeconds = Math.round(progress * (horizon === "7d" ? 604_800 : 86_400));
  return {
    horizon,
    blocks: heldSeconds / 12 + 1,
    oldestBlock: "1",
    newestBlock: String(heldSeconds / 12 + 1),
    oldestTime: 1_700_000_000 - heldSeconds,
    newestTime: 1_700_000_000,
    backfill: { running: true, progress, blocksToGo },
    store: { state: "off", problem: null, since: null, unsavedBlocks: 0, droppedBlocks: 0 },
    summaries: { horizon: "52w", hours: 0, oldestStart: null },
  };
}

test("backfill in words: the share of the horizon held in days, and the blocks to go as an estimate", () => {
  assert.deepEqual(backfillWords(history(1 / 3, 33_617)), { progress: 1 / 3, held: "2.3 of 7 days held", why: undefined, toGo: "about 34,000 blocks to go" });
  assert.deepEqual(backfillWords(history(0, null)), { progress: 0, held: "0 of 7 days held", why: undefined, toGo: undefined });
  assert.deepEqual(backfillWords(history(1, 0)), { progress: 1, held: "7 of 7 days held", why: undefined, toGo: "no blocks to go" });
  assert.equal(backfillWords(history(0.5, 3_600, "24h")).held, "12 of 24 h held");
  assert.equal(backfillWords(history(0.5, 3_600, "24h")).toGo, "about 3,600 blocks to go");
  // Held is never rounded up to the whole horizon before it is reached.
  assert.equal(backfillWords(history(0.9999, 3)).held, "6.9 of 7 days held");
});

test("a chain younger than the horizon: the bar counts its blocks, of all it has, not the week (the demo's two days)", () => {
  // 0.9 days held of the demo's 49.4 hours: the blocks to go reach back to its first block, not a week.
  const demo = { ...history(0.9 / 7, 0), backfill: { running: true, progress: 0.9 / 7, blocksToGo: Math.round((49.4 * 3_600 - 0.9 * 86_400) / 12) } };
  const words = backfillWords(demo);
  assert.equal(words.held, "6,481 of 14,821 blocks held");
  assert.ok(Math.abs(words.progress - 6_481 / 14_821) < 1e-9, `${words.progress}`);
  assert.equal(words.why, "the chain is younger than the 7 days the history keeps: its first block is as far back as there is to fetch");
  // Early on, the service's times are estimates at the chain's nominal block time (the demo's 2 s, not its history's
  // 12 s): still younger than the week, and still counted in blocks, never "of about 8 h".
  const early = { ...demo, blocks: 501, oldestTime: 1_700_000_000 - 1_000, backfill: { running: true, progress: 0.002, blocksToGo: 14_150 } };
  assert.equal(backfillWords(early).held, "501 of 14,651 blocks held");
  // Within a few percent of the horizon it is the horizon: spacing that wobbles does not make a week "about 6.8 days".
  const wobbly = { ...history(0.5, 0), backfill: { running: true, progress: 0.5, blocksToGo: Math.round(0.46 * 50_400) } };
  assert.equal(backfillWords(wobbly).held, "3.5 of 7 days held");
  // A young chain of a day's horizon.
  const young = { ...history(0.25, 0, "24h"), backfill: { running: true, progress: 0.25, blocksToGo: 1_800 } };
  assert.equal(backfillWords(young).held, "1,801 of 3,601 blocks held");
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
