// The demo chain's past summaries, checked against the shipped samples read independently (and, where the repository's
// neighbour ../shared/data is there, the shipped file against the source it was cut from).
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { demoHistory } from "./demoHistory.ts";
import { DEMO_PAST, DEMO_PAST_CSV_NAME, demoPastSummaries, FeeSamplesCsvError, loadDemoPastSamples, parseFeeSamplesCsv } from "./demoPastSummaries.ts";
import { demoDataPath, loadTimedMainnetBlocks } from "./timedMainnetBlocks.ts";

const HOUR = 3_600;
const WEEK = 7 * 86_400;
const samples = loadDemoPastSamples();
/** The shipped rows, read here without the module's parser: [timestamp, fee wei]. */
const rows = readFileSync(demoDataPath(DEMO_PAST_CSV_NAME), "utf8")
  .trim()
  .split("\n")
  .slice(1)
  .map((line) => line.split(","))
  .map(([, timestamp, fee]) => [Number(timestamp), BigInt(fee!)] as const);

test("the shipped samples: 13 December 2023 to 10 March 2024, every row read", () => {
  assert.equal(samples.length, rows.length);
  assert.equal(samples.length, 2_715);
  assert.equal(new Date(samples[0]!.timestamp * 1000).toISOString().slice(0, 10), "2023-12-13");
  assert.equal(new Date(samples.at(-1)!.timestamp * 1000).toISOString().slice(0, 10), "2024-03-10");
  // Enough past a realEnd for the whole-week shift to find a week after it.
  assert.ok(samples.at(-1)!.timestamp >= DEMO_PAST.realEnd + WEEK - 2 * HOUR);
});

const source = fileURLToPath(new URL("../../../shared/data/mainnet-hourly-samples-2023-12-2024-09.csv", import.meta.url));
test(
  "the shipped file is the source's rows before 11 March 2024, unchanged",
  { skip: existsSync(source) ? false : `the source ${source} is not beside this checkout` },
  () => {
    const shipped = readFileSync(demoDataPath(DEMO_PAST_CSV_NAME), "utf8");
    const lines = readFileSync(source, "utf8").trim().split("\n");
    const kept = [lines[0], ...lines.slice(1).filter((line) => Number(line.split(",")[1]) < DEMO_PAST.realEnd + WEEK)];
    assert.equal(shipped, `${kept.join("\n")}\n`);
  },
);

// The demo's history starts at several moments across more than a week, so that every whole-week shift is seen.
const starts = Array.from({ length: 16 }, (_, index) => 1_800_000_000 + index * 13 * HOUR + 17 * 60);

test("the past ends in the hours just before the replayed history and spans the chosen weeks, shifted by whole weeks", () => {
  for (const historyStart of starts) {
    const past = demoPastSummaries(samples, historyStart);
    const end = Math.floor(historyStart / HOUR) * HOUR;
    assert.equal(past.shiftSeconds % WEEK, 0, "a whole number of weeks: each sample keeps its weekday and hour");
    const newest = past.summaries.at(-1)!.start;
    assert.ok(newest < end, "no summary for the history's own hours");
    assert.ok(newest >= end - 12 * HOUR, `the newest summary ${(end - newest) / HOUR} h before the history`);
    assert.ok(past.summaries[0]!.start >= end - DEMO_PAST.weeks * WEEK);
    // Well over the outlook's 14 days, and most of the hours held (the source holds 95% of its hours).
    assert.ok(past.summaries.length >= 0.85 * DEMO_PAST.weeks * 168, `${past.summaries.length} hours`);
    for (const [index, summary] of past.summaries.entries()) {
      assert.equal(summary.start % HOUR, 0);
      assert.equal(summary.sampled, true);
      if (index > 0) assert.ok(summary.start > past.summaries[index - 1]!.start, "oldest first, one per hour");
    }
  }
});

test("each summary holds the samples of its real hour, moved by the shift: nearest-rank over them, the newest last", () => {
  const past = demoPastSummaries(samples, starts[3]!);
  const byHour = new Map<number, bigint[]>();
  for (const [timestamp, fee] of rows) {
    const start = Math.floor(timestamp / HOUR) * HOUR + past.shiftSeconds;
    byHour.set(start, [...(byHour.get(start) ?? []), fee]);
  }
  let multi = 0;
  for (const summary of past.summaries) {
    const fees = byHour.get(summary.start)!;
    assert.ok(fees !== undefined, `hour ${summary.start} comes from samples`);
    const sorted = [...fees].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    assert.equal(summary.blocks, fees.length);
    assert.equal(summary.min, sorted[0]);
    assert.equal(summary.max, sorted.at(-1));
    assert.equal(summary.p50, sorted[Math.ceil(sorted.length / 2) - 1]);
    assert.equal(summary.last, fees.at(-1));
    if (fees.length > 1) multi++;
  }
  // Most hours hold one sampled block; the source's first days were sampled more often.
  assert.ok(past.summaries.filter((summary) => summary.blocks === 1).length > 0.8 * past.summaries.length);
  assert.ok(multi > 0);
  assert.ok(past.realFrom >= samples[0]!.timestamp && past.realTo < DEMO_PAST.realEnd + WEEK);
});

test("the past's level: its last week within a factor of 2 of the replayed days', not a tenth of it", () => {
  const timed = loadTimedMainnetBlocks();
  const history = demoHistory(timed, starts[0]! + 50 * HOUR);
  const past = demoPastSummaries(samples, history.timestamps[0]!);
  const median = (values: readonly bigint[]) => [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))[Math.ceil(values.length / 2) - 1]!;
  const replayed = Number(median(history.baseFeesWei)) / 1e9;
  const lastWeek = Number(median(past.summaries.slice(-168).map((summary) => summary.p50))) / 1e9;
  assert.ok(
    lastWeek > replayed / 2 && lastWeek < replayed * 2,
    `the last week's median ${lastWeek.toFixed(1)} Gwei against the replayed ${replayed.toFixed(1)}`,
  );
});

test("bad sample files are refused with the line that is wrong", () => {
  const cases: Array<[string, RegExp]> = [
    ["block_number,base_fee_wei\n1,2", /line 1: expected the header/],
    ["block_number,timestamp,base_fee_wei\n", /line 2: no rows/],
    ["block_number,timestamp,base_fee_wei\n3,10,2\n3,20,4", /line 3: block 3 does not come after block 3/],
    ["block_number,timestamp,base_fee_wei\n1,10,2\n2,9,4", /line 3: the timestamp 9 is before/],
    ["block_number,timestamp,base_fee_wei\n1,10,-2", /line 2: "1,10,-2" is not three/],
    ["block_number,timestamp,base_fee_wei\n1,99999999999999999999,2", /line 2: the timestamp 99999999999999999999 is too large/],
  ];
  for (const [text, message] of cases) {
    assert.throws(
      () => parseFeeSamplesCsv(text, "s.csv"),
      (error: unknown) => error instanceof FeeSamplesCsvError && message.test(error.message) && error.message.startsWith("s.csv, line"),
      text,
    );
  }
  assert.deepEqual(parseFeeSamplesCsv("block_number,timestamp,base_fee_wei\n5,100,7\r\n9,100,8\n"), [
    { timestamp: 100, baseFee: 7n },
    { timestamp: 100, baseFee: 8n },
  ]);
});
