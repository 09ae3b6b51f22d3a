import type { DatabaseSync, StatementSync } from "node:sqlite";
import { HOUR_SECONDS, type HourlySummary } from "../core/outlook/hourlySummary.ts";
import { HistoryStoreInputError } from "./historyStoreErrors.ts";
import { MAX_TIMESTAMP } from "./storeWriteInput.ts";

/**
 * A chain's hourly summaries (shared/core/outlook/hourlySummary.ts), one row per hour, in the history's SQLite file:
 *
 *   hours_<chainId> (start INTEGER PRIMARY KEY, blocks INTEGER, sampled INTEGER,
 *                    min_wei TEXT, p10_wei TEXT, p50_wei TEXT, p90_wei TEXT, max_wei TEXT, last_wei TEXT)
 *
 * Fees are decimal text, so no fee ever loses a bit whatever its size (SQLite's INTEGER stops at 2^63 - 1); what is
 * read back is bounded (MAX_SUMMARY_FEE_WEI, the order of the percentiles) and a row that is not what this writer
 * writes is left out. The table is made by the first write of a chain's summaries (a file from an older gasfees has
 * every other table and gets this one; the older gasfees ignores it, so the schema version stays). Keyed by the hour's
 * start: a summary written again for the same hour replaces the one held. A year of one chain is ~8,760 rows of ~100
 * bytes (measured by `npm run bench`, "hourly summaries on disk").
 */

/** The largest fee a summary holds: 2^256 - 1 wei, the EVM's word (the feed itself refuses fees from 2^63). */
export const MAX_SUMMARY_FEE_WEI = 2n ** 256n - 1n;
/** The most summaries one write takes: ten years of hours (one transaction). */
export const MAX_SUMMARIES_PER_WRITE = 87_660;

const FEE_TEXT = /^(0|[1-9][0-9]{0,77})$/;

export const hourlySummaryTable = (chainId: number): string => `hours_${chainId}`;

/** The statements of one chain's summary table, prepared once the table exists. */
export interface HourlySummaryStatements {
  /** (start, blocks, sampled, min, p10, p50, p90, max, last) */
  readonly upsert: StatementSync;
  /** (fromStart, toStart) */
  readonly between: StatementSync;
  /** (beforeStart) */
  readonly deleteBefore: StatementSync;
}

/** Creates a chain's summary table if it is missing (inside the caller's write transaction). */
export function createHourlySummaryTable(db: DatabaseSync, chainId: number): void {
  db.exec(
    `CREATE TABLE IF NOT EXISTS ${hourlySummaryTable(chainId)} (start INTEGER PRIMARY KEY, blocks INTEGER NOT NULL, sampled INTEGER NOT NULL, ` +
      "min_wei TEXT NOT NULL, p10_wei TEXT NOT NULL, p50_wei TEXT NOT NULL, p90_wei TEXT NOT NULL, max_wei TEXT NOT NULL, last_wei TEXT NOT NULL)",
  );
}

export function hourlySummaryTableExists(db: DatabaseSync, chainId: number): boolean {
  return db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?").get(hourlySummaryTable(chainId)) !== undefined;
}

export function prepareHourlySummaryStatements(db: DatabaseSync, chainId: number): HourlySummaryStatements {
  const table = hourlySummaryTable(chainId);
  const between = db.prepare(
    `SELECT start, blocks, sampled, min_wei, p10_wei, p50_wei, p90_wei, max_wei, last_wei FROM ${table} WHERE start >= ? AND start <= ? ORDER BY start`,
  );
  between.setReadBigInts(true);
  return {
    upsert: db.prepare(
      `INSERT INTO ${table} (start, blocks, sampled, min_wei, p10_wei, p50_wei, p90_wei, max_wei, last_wei) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ` +
        "ON CONFLICT (start) DO UPDATE SET blocks = excluded.blocks, sampled = excluded.sampled, min_wei = excluded.min_wei, p10_wei = excluded.p10_wei, " +
        "p50_wei = excluded.p50_wei, p90_wei = excluded.p90_wei, max_wei = excluded.max_wei, last_wei = excluded.last_wei",
    ),
    between,
    deleteBefore: db.prepare(`DELETE FROM ${table} WHERE start < ?`),
  };
}

/** The problem with a summary, or undefined when it is one this store keeps (and gives back). */
export function summaryProblem(summary: HourlySummary): string | undefined {
  if (typeof summary !== "object" || summary === null) return "it is not a summary";
  const { start, blocks, sampled, min, p10, p50, p90, max, last } = summary;
  if (!Number.isSafeInteger(start) || start < 0 || start > MAX_TIMESTAMP || start % HOUR_SECONDS !== 0)
    return `its start ${String(start)} is not the start of an hour (a multiple of 3,600 from 0 to 2^32 - 1)`;
  if (!Number.isSafeInteger(blocks) || blocks < 1) return `its blocks ${String(blocks)} is not a whole number from 1`;
  if (typeof sampled !== "boolean") return "its sampled is not true or false";
  for (const [name, fee] of [
    ["min", min],
    ["p10", p10],
    ["p50", p50],
    ["p90", p90],
    ["max", max],
    ["last", last],
  ] as const) {
    if (typeof fee !== "bigint" || fee < 0n || fee > MAX_SUMMARY_FEE_WEI)
      return `its ${name} ${String(fee)} is not a fee in wei (a bigint from 0 to 2^256 - 1)`;
  }
  if (!(min <= p10 && p10 <= p50 && p50 <= p90 && p90 <= max)) return "its fees are not in order (min <= p10 <= p50 <= p90 <= max)";
  if (last < min || last > max) return "its last fee is not between its min and its max";
  return undefined;
}

/** Checks summaries to write: all are kept or the write is refused (HistoryStoreInputError: nothing written). */
export function checkSummaries(file: string, given: readonly HourlySummary[]): void {
  const summaries: unknown = given;
  if (!Array.isArray(summaries)) throw new HistoryStoreInputError(file, "hourly summaries must be given as an array");
  if (summaries.length > MAX_SUMMARIES_PER_WRITE)
    throw new HistoryStoreInputError(file, `${summaries.length} hourly summaries in one write, more than ${MAX_SUMMARIES_PER_WRITE}`);
  const starts = new Set<number>();
  for (const summary of given) {
    const problem = summaryProblem(summary);
    if (problem !== undefined) throw new HistoryStoreInputError(file, `hourly summary ${String(summary?.start)} refused: ${problem}`);
    if (starts.has(summary.start)) throw new HistoryStoreInputError(file, `hourly summary ${summary.start} is given twice in one write`);
    starts.add(summary.start);
  }
}

/** A summary's row values, in the upsert's order. */
export function summaryRowValues(summary: HourlySummary): [number, number, number, string, string, string, string, string, string] {
  const { start, blocks, sampled, min, p10, p50, p90, max, last } = summary;
  return [start, blocks, sampled ? 1 : 0, min.toString(), p10.toString(), p50.toString(), p90.toString(), max.toString(), last.toString()];
}

interface SummaryRow {
  readonly start: unknown;
  readonly blocks: unknown;
  readonly sampled: unknown;
  readonly min_wei: unknown;
  readonly p10_wei: unknown;
  readonly p50_wei: unknown;
  readonly p90_wei: unknown;
  readonly max_wei: unknown;
  readonly last_wei: unknown;
}

/** A row as a summary (frozen), or undefined when it is not what this store writes (written by hand, or damaged). */
export function summaryOfRow(row: SummaryRow): HourlySummary | undefined {
  const { start, blocks, sampled } = row;
  if (typeof start !== "bigint" || typeof blocks !== "bigint" || typeof sampled !== "bigint") return undefined;
  if (blocks > BigInt(Number.MAX_SAFE_INTEGER) || start > BigInt(MAX_TIMESTAMP) || (sampled !== 0n && sampled !== 1n)) return undefined;
  const fees = [row.min_wei, row.p10_wei, row.p50_wei, row.p90_wei, row.max_wei, row.last_wei].map(feeOf);
  if (fees.some((fee) => fee === undefined)) return undefined;
  const [min, p10, p50, p90, max, last] = fees as [bigint, bigint, bigint, bigint, bigint, bigint];
  const summary: HourlySummary = Object.freeze({ start: Number(start), blocks: Number(blocks), sampled: sampled === 1n, min, p10, p50, p90, max, last });
  return summaryProblem(summary) === undefined ? summary : undefined;
}

const feeOf = (text: unknown): bigint | undefined => (typeof text === "string" && FEE_TEXT.test(text) ? BigInt(text) : undefined);
