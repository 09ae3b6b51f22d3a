// The hourly summaries on disk (shared/history/hourlySummaryStore.ts): 10 chains x a year (8,760 hours each) in the
// history's SQLite file, written as the service writes them (one hour at a time, oldest first: hours closing live) and
// as a backfill writes them (a day at a time, newest first). The baseline is the same summaries as the plain CSV of
// `hourlyStats.csv` with fees in wei (the smallest text that holds them exactly). The goal: under 20 MB (issue 30).
// Fees are real mainnet base fees (shared/demo/data), 300 blocks an hour, summarised by nearest rank.
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { HourlySummary } from "../../shared/core/outlook/hourlySummary.ts";
import { summarizeHour } from "../../shared/core/outlook/summarizeHour.ts";
import { HistoryStore } from "../../shared/history/historyStore.ts";
import type { BenchRow } from "./benchRow.ts";

const FEES_CSV = fileURLToPath(new URL("../../shared/demo/data/mainnet-17180000-17194650.csv", import.meta.url));
const CHAINS = 10;
const HOURS = 8_760;
const BLOCKS_PER_HOUR = 300;
const START = 1_735_689_600; // 2025-01-01T00:00Z
const GOAL_BYTES = 20 * 1024 * 1024;

function readFees(): bigint[] {
  return readFileSync(FEES_CSV, "utf8")
    .trim()
    .split("\n")
    .slice(1)
    .map((line) => BigInt(line.split(",")[1]!));
}

/** A year of one chain's summaries, each hour from the next 300 real fees (the chain's offset makes chains differ). */
function yearOf(fees: readonly bigint[], chain: number): HourlySummary[] {
  const summaries: HourlySummary[] = [];
  for (let hour = 0; hour < HOURS; hour++) {
    const from = (hour * BLOCKS_PER_HOUR + chain * 997) % (fees.length - BLOCKS_PER_HOUR);
    const blocks = fees.slice(from, from + BLOCKS_PER_HOUR);
    summaries.push(summarizeHour(START + hour * 3_600, blocks));
  }
  return summaries;
}

function bytesOf(file: string): number {
  let bytes = 0;
  for (const suffix of ["", "-wal"]) {
    try {
      bytes += statSync(file + suffix).size;
    } catch {
      // No log: nothing to add.
    }
  }
  return bytes;
}

function csvBytes(years: readonly HourlySummary[][]): number {
  let bytes = 0;
  for (const year of years)
    for (const s of year) bytes += `${s.start},${s.blocks},${s.sampled},${s.min},${s.p10},${s.p50},${s.p90},${s.max},${s.last}\n`.length;
  return bytes;
}

/** Writes every chain's year in `batches` (each a list of summaries to write at once) and returns the file's bytes. */
function storedBytes(years: readonly HourlySummary[][], batchesOf: (year: HourlySummary[]) => HourlySummary[][]): number {
  const folder = mkdtempSync(join(tmpdir(), "gasfees-hours-bench-"));
  const file = join(folder, "history.sqlite");
  try {
    const store = HistoryStore.open(file);
    years.forEach((year, chain) => {
      for (const batch of batchesOf(year)) store.writeHourlySummaries(chain + 1, batch);
    });
    store.checkpoint();
    // Everything written reads back (a bench that lost rows would measure nothing).
    const held = years.reduce((sum, _, chain) => sum + store.hourlySummaries(chain + 1).length, 0);
    if (held !== CHAINS * HOURS) throw new Error(`the store holds ${held} summaries, not ${CHAINS * HOURS}`);
    store.close();
    return bytesOf(file);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

export function runHourlySummaryBench(): Promise<BenchRow[]> {
  const fees = readFees();
  const years = Array.from({ length: CHAINS }, (_, chain) => yearOf(fees, chain));
  const csv = csvBytes(years);
  const live = storedBytes(years, (year) => year.map((summary) => [summary]));
  const backfilled = storedBytes(years, (year) => {
    const days: HourlySummary[][] = [];
    for (let end = year.length; end > 0; end -= 24) days.push(year.slice(Math.max(0, end - 24), end));
    return days;
  });
  const mb = (bytes: number) => bytes / 1024 / 1024;
  const goal = `< ${mb(GOAL_BYTES)} MB`;
  return Promise.resolve([
    {
      name: "hourly summaries on disk, 10 chains x 8,760 h, written hour by hour",
      value: mb(live),
      unit: "MB",
      baselineName: "CSV in wei",
      baseline: mb(csv),
      goal,
    },
    {
      name: "hourly summaries on disk, 10 chains x 8,760 h, backfilled a day at a time newest first",
      value: mb(backfilled),
      unit: "MB",
      baselineName: "CSV in wei",
      baseline: mb(csv),
      goal,
    },
    {
      name: "hourly summaries on disk, per hour (hour by hour)",
      value: live / (CHAINS * HOURS),
      unit: "B",
      baselineName: "CSV in wei",
      baseline: csv / (CHAINS * HOURS),
      goal: "",
    },
  ]);
}
