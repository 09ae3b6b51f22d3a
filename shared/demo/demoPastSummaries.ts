import { readFileSync } from "node:fs";
import type { FeeSample } from "../core/outlook/feeSample.ts";
import { hourStartOf, type HourlySummary } from "../core/outlook/hourlySummary.ts";
import { summarizeByHour } from "../core/outlook/summarizeHour.ts";
import { demoDataPath } from "./timedMainnetBlocks.ts";

/**
 * The demo chain's weeks before its replayed history: real mainnet blocks sampled about once an hour, 13 December 2023
 * to 10 March 2024 (a slice of ../shared/data/mainnet-hourly-samples-2023-12-2024-09.csv; see data/README.md).
 */
export const DEMO_PAST_CSV_NAME = "mainnet-hourly-samples-2023-12-2024-03.csv";

const WEEK_SECONDS = 7 * 86_400;

/**
 * Which weeks of the samples become the demo's past. The past ends, in real time, between `realEnd` and a week after
 * it (so that the shift is a whole number of weeks and every sample keeps its real weekday and hour): the week of
 * 4 March 2024, when mainnet's base fee stood highest in the file (median 64 Gwei, ETH near 3,500 USD), the closest in
 * level to the replayed days of May 2023 (median 81 Gwei). `weeks` weeks of it, up to the replayed history's first hour.
 */
export const DEMO_PAST = {
  /** Monday 4 March 2024, 00:00 UTC. */
  realEnd: 1_709_510_400,
  weeks: 12,
} as const;

export class FeeSamplesCsvError extends Error {
  override name = "FeeSamplesCsvError";
  constructor(source: string, line: number, problem: string) {
    super(
      `${source}, line ${line}: ${problem}. Each row must be "block_number,timestamp,base_fee_wei" (decimal integers; blocks rising, times never falling).`,
    );
  }
}

const HEADER = "block_number,timestamp,base_fee_wei";
const ROW = /^(0|[1-9][0-9]*),(0|[1-9][0-9]*),(0|[1-9][0-9]*)$/;

/** Parses sampled blocks (`block_number,timestamp,base_fee_wei`, the header first), checking every row. */
export function parseFeeSamplesCsv(text: string, source = "samples CSV"): FeeSample[] {
  const lines = text.split(/\r?\n/);
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === "") lines.pop();
  if (lines[0]?.trim() !== HEADER) throw new FeeSamplesCsvError(source, 1, `expected the header "${HEADER}", found "${lines[0] ?? ""}"`);
  if (lines.length < 2) throw new FeeSamplesCsvError(source, 2, "no rows");
  const samples: FeeSample[] = [];
  let previousBlock = -1n;
  for (let i = 1; i < lines.length; i++) {
    const cells = ROW.exec(lines[i]!.trim());
    if (!cells) throw new FeeSamplesCsvError(source, i + 1, `"${lines[i]}" is not three non-negative decimal integers`);
    const block = BigInt(cells[1]!);
    const timestamp = Number(cells[2]!);
    if (block <= previousBlock) throw new FeeSamplesCsvError(source, i + 1, `block ${block} does not come after block ${previousBlock}`);
    if (!Number.isSafeInteger(timestamp)) throw new FeeSamplesCsvError(source, i + 1, `the timestamp ${cells[2]} is too large`);
    const before = samples[samples.length - 1]?.timestamp;
    if (before !== undefined && timestamp < before)
      throw new FeeSamplesCsvError(source, i + 1, `the timestamp ${timestamp} is before the row above's (${before})`);
    previousBlock = block;
    samples.push({ timestamp, baseFee: BigInt(cells[3]!) });
  }
  return samples;
}

/** The shipped samples of the demo's past, read and checked on each call (a few ms): keep what it returns. */
export function loadDemoPastSamples(path = demoDataPath(DEMO_PAST_CSV_NAME)): FeeSample[] {
  return parseFeeSamplesCsv(readFileSync(path, "utf8"), path);
}

export interface DemoPast {
  /** Hourly summaries, oldest first, each `sampled` (built from the hour's one or few sampled blocks). */
  readonly summaries: readonly HourlySummary[];
  /** How far the samples were moved forward: a whole number of weeks, in seconds. */
  readonly shiftSeconds: number;
  /** The real (unshifted) times of the first and the last sample used, unix seconds. */
  readonly realFrom: number;
  readonly realTo: number;
}

/**
 * The demo chain's past before its replayed history, which begins at `historyStartS`: the samples moved forward by a
 * whole number of weeks (each keeps its real weekday and hour of the day) so that they end in the hour before the
 * history's first, the last DEMO_PAST.weeks weeks of them, summarised by hour as the service summarises blocks
 * (summarizeByHour, `sampled: true`). An hour without a sample has no summary.
 */
export function demoPastSummaries(samples: readonly FeeSample[], historyStartS: number, past: { realEnd: number; weeks: number } = DEMO_PAST): DemoPast {
  if (!Number.isSafeInteger(historyStartS) || historyStartS < 0) throw new RangeError(`the history starts at whole unix seconds (got ${historyStartS})`);
  const endS = hourStartOf(historyStartS);
  const shiftSeconds = Math.floor((endS - past.realEnd) / WEEK_SECONDS) * WEEK_SECONDS;
  const fromS = endS - past.weeks * WEEK_SECONDS;
  const shifted = samples
    .map((sample) => ({ timestamp: sample.timestamp + shiftSeconds, baseFee: sample.baseFee }))
    .filter((sample) => sample.timestamp >= fromS && sample.timestamp < endS);
  if (shifted.length === 0)
    throw new RangeError(`no sample falls in the ${past.weeks} weeks before the demo's history (the samples end before ${past.realEnd})`);
  return {
    summaries: summarizeByHour(shifted, true),
    shiftSeconds,
    realFrom: shifted[0]!.timestamp - shiftSeconds,
    realTo: shifted[shifted.length - 1]!.timestamp - shiftSeconds,
  };
}
