// The history store (shared/history/historyStore.ts) beside a row per block in SQLite, measured in the same run on the
// same data: a week of a 12 s chain and of a 0.25 s chain stored in 1,024-block pages newest first (as the backfill
// writes them), a day followed live (one write per block, every field), loaded back, and the held ranges read.
// The baseline is the plain design: one WITHOUT ROWID table keyed by (chain, block), one row per block, an INSERT
// per block in one transaction per page, the timestamp only on anchors, the ratio as parts per 10,000; same pragmas.
// Fees are real mainnet base fees (shared/demo/data), repeated; the gas-used ratios are the ones those fees imply.
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync, type StatementSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import { HistoryStore, type BlocksToWrite } from "../../shared/history/historyStore.ts";
import type { BenchRow } from "./benchRow.ts";

const FEES_CSV = fileURLToPath(new URL("../../shared/demo/data/mainnet-17180000-17194650.csv", import.meta.url));
const PAGE_BLOCKS = 1_024;
const CHAIN_ID = 1;
/** 7 days of 12 s blocks, in whole pages. */
const WEEK_OF_12S = 49 * PAGE_BLOCKS;
/** 7 days of 0.25 s blocks (Arbitrum), in whole pages. */
const WEEK_OF_QUARTER_SECONDS = 2_363 * PAGE_BLOCKS;
const DAY_OF_12S = 7_200;

/** What is measured of either design. */
interface Design {
  readonly name: string;
  write(firstBlock: number, blocks: BlocksToWrite): void;
  /** Reads every block back into typed arrays; returns how many. */
  loadAll(): number;
  heldRangeCount(): number;
  /** Drops blocks before `beforeBlock`. */
  prune(beforeBlock: number): void;
  /** Bytes on disk, database and write-ahead log, after a checkpoint. */
  bytesOnDisk(): number;
  close(): void;
}

function filesSize(file: string): number {
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

function openStore(file: string): Design {
  const store = HistoryStore.open(file);
  return {
    name: "store",
    write: (firstBlock, blocks) => store.write(CHAIN_ID, BigInt(firstBlock), blocks),
    loadAll: () => {
      let blocks = 0;
      for (const run of store.load(CHAIN_ID)) blocks += run.baseFeesWei.length;
      return blocks;
    },
    heldRangeCount: () => store.heldRanges(CHAIN_ID).length,
    prune: (beforeBlock) => void store.prune(CHAIN_ID, BigInt(beforeBlock)),
    bytesOnDisk: () => {
      store.checkpoint();
      return filesSize(file);
    },
    close: () => store.close(),
  };
}

/** The baseline: a row per block. */
function openRows(file: string): Design {
  const db = new DatabaseSync(file);
  db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA journal_size_limit = 4194304; PRAGMA busy_timeout = 5000");
  db.exec(
    "CREATE TABLE blocks (chain_id INTEGER NOT NULL, block INTEGER NOT NULL, timestamp INTEGER, base_fee_wei INTEGER NOT NULL, " +
      "gas_used INTEGER, blob_base_fee_wei INTEGER, PRIMARY KEY (chain_id, block)) WITHOUT ROWID",
  );
  const insert = db.prepare("INSERT OR REPLACE INTO blocks VALUES (?, ?, ?, ?, ?, ?)");
  const select: StatementSync = db.prepare("SELECT block, base_fee_wei, timestamp FROM blocks WHERE chain_id = ? ORDER BY block");
  select.setReadBigInts(true);
  select.setReturnArrays(true);
  return {
    name: "rows",
    write: (firstBlock, blocks) => {
      const anchors = new Map((blocks.anchors ?? []).map((anchor) => [Number(anchor.block), anchor.timestamp]));
      db.exec("BEGIN IMMEDIATE");
      blocks.baseFeesWei.forEach((fee: bigint, i: number) => {
        const ratio = blocks.gasUsedRatios?.[i];
        const gasUsed = ratio === undefined ? null : Math.round(ratio * 10_000);
        insert.run(CHAIN_ID, firstBlock + i, anchors.get(firstBlock + i) ?? null, fee, gasUsed, blocks.blobBaseFeesWei?.[i] ?? null);
      });
      db.exec("COMMIT");
    },
    loadAll: () => {
      // Into the same typed arrays a loaded run has, 65,536 at a time.
      let baseFeesWei = new BigUint64Array(65_536);
      let blocks = 0;
      for (const row of select.iterate(CHAIN_ID) as Iterable<[bigint, bigint, bigint | null]>) {
        if (blocks % 65_536 === 0) baseFeesWei = new BigUint64Array(65_536);
        baseFeesWei[blocks % 65_536] = row[1];
        blocks++;
      }
      return blocks;
    },
    heldRangeCount: () =>
      db
        .prepare(
          "SELECT min(block) AS fromBlock, max(block) AS toBlock FROM (SELECT block, block - row_number() OVER (ORDER BY block) AS stretch " +
            "FROM blocks WHERE chain_id = ?) GROUP BY stretch ORDER BY fromBlock",
        )
        .all(CHAIN_ID).length,
    prune: (beforeBlock) => void db.prepare("DELETE FROM blocks WHERE chain_id = ? AND block < ?").run(CHAIN_ID, beforeBlock),
    bytesOnDisk: () => {
      db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
      return filesSize(file);
    },
    close: () => db.close(),
  };
}

/** Real mainnet base fees, and the gas-used ratio each block's successor's fee implies (EIP-1559: ±1/8 at 0 or 1). */
function realFees(): { feesWei: bigint[]; ratios: number[] } {
  const feesWei = readFileSync(FEES_CSV, "utf8")
    .trim()
    .split("\n")
    .slice(1)
    .map((line) => BigInt(line.split(",")[1]!));
  const ratios = feesWei.map((fee, i) => {
    const next = feesWei[(i + 1) % feesWei.length]!;
    return Math.min(1, Math.max(0, 0.5 + (4 * Number(next - fee)) / Number(fee)));
  });
  return { feesWei, ratios };
}

function cpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1_000;
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

interface WeekResult {
  /** Wall time of the writes alone (making each page's input is not counted). */
  readonly wallMs: number;
  readonly cpuMsPerPage: number;
  readonly bytesPerBlock: number;
  readonly loadMs: number;
  readonly rangesMs: number;
  readonly pruneOneMs: number;
}

/** Stores `blocks` blocks newest first in pages (anchored at both ends), then loads them and reads the held ranges. */
function storeWeek(design: Design, blocks: number, firstBlock: number, blockSeconds: number, data: ReturnType<typeof realFees>): WeekResult {
  const startSeconds = 1_700_000_000;
  let wallMs = 0;
  const pageCpuMs: number[] = [];
  for (let page = blocks / PAGE_BLOCKS - 1; page >= 0; page--) {
    const from = firstBlock + page * PAGE_BLOCKS;
    const source = (page * PAGE_BLOCKS) % (data.feesWei.length - PAGE_BLOCKS);
    const pageBlocks: BlocksToWrite = {
      baseFeesWei: data.feesWei.slice(source, source + PAGE_BLOCKS),
      gasUsedRatios: data.ratios.slice(source, source + PAGE_BLOCKS),
      anchors: [from, from + PAGE_BLOCKS - 1].map((block) => ({
        block: BigInt(block),
        timestamp: startSeconds + Math.floor((block - firstBlock) * blockSeconds),
      })),
    };
    const cpu = process.cpuUsage();
    const startedAt = performance.now();
    design.write(from, pageBlocks);
    wallMs += performance.now() - startedAt;
    pageCpuMs.push(cpuMs(cpu));
  }
  const bytesPerBlock = design.bytesOnDisk() / blocks;
  let startedAt = performance.now();
  const loaded = design.loadAll();
  const loadMs = performance.now() - startedAt;
  if (loaded !== blocks) throw new Error(`${design.name} loaded ${loaded} of ${blocks} blocks`);
  const rangesMs: number[] = [];
  for (let run = 0; run < 5; run++) {
    startedAt = performance.now();
    const ranges = design.heldRangeCount();
    rangesMs.push(performance.now() - startedAt);
    if (ranges !== 1) throw new Error(`${design.name} holds ${ranges} ranges, not 1`);
  }
  // Retention as the service runs it: the oldest block dropped as each new one comes (100 times).
  const pruneMs: number[] = [];
  for (let block = firstBlock + 1; block <= firstBlock + 100; block++) {
    startedAt = performance.now();
    design.prune(block);
    pruneMs.push(performance.now() - startedAt);
  }
  return { wallMs, cpuMsPerPage: median(pageCpuMs), bytesPerBlock, loadMs, rangesMs: median(rangesMs), pruneOneMs: median(pruneMs) };
}

interface LiveResult {
  readonly cpuMsPerBlock: number;
  readonly bytesPerBlock: number;
}

/** A day followed live: one write per block, each an anchor with its gas-used ratio and a blob base fee. */
function followDay(design: Design, data: ReturnType<typeof realFees>): LiveResult {
  const firstBlock = 17_180_000;
  const cpu: number[] = [];
  for (let i = 0; i < DAY_OF_12S; i++) {
    const block = firstBlock + i;
    const used = process.cpuUsage();
    design.write(block, {
      baseFeesWei: [data.feesWei[i % data.feesWei.length]!],
      gasUsedRatios: [data.ratios[i % data.ratios.length]!],
      // Blob base fees as they ran in 2025 (about a Gwei and moving), wider than the 1 wei of quiet times.
      blobBaseFeesWei: [data.feesWei[(i + 777) % data.feesWei.length]! / 20n],
      anchors: [{ block: BigInt(block), timestamp: 1_700_000_000 + 12 * i }],
    });
    cpu.push(cpuMs(used));
  }
  return { cpuMsPerBlock: median(cpu), bytesPerBlock: design.bytesOnDisk() / DAY_OF_12S };
}

export function runHistoryStoreBench(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), "gasfees-store-bench-"));
  const data = realFees();
  const file = (name: string) => join(dir, `${name}.sqlite`);
  const measure = <T>(open: (file: string) => Design, name: string, work: (design: Design) => T): T => {
    const design = open(file(name));
    try {
      return work(design);
    } finally {
      design.close();
    }
  };
  try {
    const weekStore = measure(openStore, "store-12s", (design) => storeWeek(design, WEEK_OF_12S, 18_000_000, 12, data));
    const weekRows = measure(openRows, "rows-12s", (design) => storeWeek(design, WEEK_OF_12S, 18_000_000, 12, data));
    const bigStore = measure(openStore, "store-arbitrum", (design) => storeWeek(design, WEEK_OF_QUARTER_SECONDS, 250_000_000, 0.25, data));
    const bigRows = measure(openRows, "rows-arbitrum", (design) => storeWeek(design, WEEK_OF_QUARTER_SECONDS, 250_000_000, 0.25, data));
    const liveStore = measure(openStore, "store-live", (design) => followDay(design, data));
    const liveRows = measure(openRows, "rows-live", (design) => followDay(design, data));
    const rows = "a row per block (INSERT loop)";
    const bigName = `${(WEEK_OF_QUARTER_SECONDS / 1e6).toFixed(2)} M blocks (7 d of 0.25 s blocks)`;
    return Promise.resolve([
      {
        name: "history store: a 1,024-block backfilled page stored (CPU, median of a week's pages)",
        value: weekStore.cpuMsPerPage,
        unit: "ms",
        baselineName: rows,
        baseline: weekRows.cpuMsPerPage,
        goal: "< 5 ms",
      },
      {
        name: `history store: 7 d of 12 s blocks (${WEEK_OF_12S.toLocaleString("en")}) stored in 1,024-block pages, newest first`,
        value: weekStore.wallMs,
        unit: "ms",
        baselineName: rows,
        baseline: weekRows.wallMs,
        goal: "< 10 s",
      },
      {
        name: `history store: ${bigName} stored the same way`,
        value: bigStore.wallMs,
        unit: "ms",
        baselineName: rows,
        baseline: bigRows.wallMs,
        goal: "< 2 min",
      },
      {
        name: "history store: on disk per block held, that week of 0.25 s blocks (database + log, after a checkpoint)",
        value: bigStore.bytesPerBlock,
        unit: "bytes",
        baselineName: rows,
        baseline: bigRows.bytesPerBlock,
        goal: "≤ 32 bytes",
      },
      {
        name: "history store: on disk per block held, a day followed live (each block written alone, anchored, with ratio and blob fee)",
        value: liveStore.bytesPerBlock,
        unit: "bytes",
        baselineName: rows,
        baseline: liveRows.bytesPerBlock,
        goal: "≤ 32 bytes",
      },
      {
        name: "history store: a live block stored (CPU, one write of one block, median of a day)",
        value: liveStore.cpuMsPerBlock,
        unit: "ms",
        baselineName: rows,
        baseline: liveRows.cpuMsPerBlock,
        goal: "—",
      },
      {
        name: `history store: loading ${bigName} back`,
        value: bigStore.loadMs,
        unit: "ms",
        baselineName: "the rows read in one SELECT",
        baseline: bigRows.loadMs,
        goal: "—",
      },
      {
        name: `history store: the held ranges of ${bigName} (median of 5)`,
        value: bigStore.rangesMs,
        unit: "ms",
        baselineName: "gaps and islands over the rows (window function)",
        baseline: bigRows.rangesMs,
        goal: "—",
      },
      {
        name: `history store: dropping the oldest block from ${bigName} (retention, median of 100)`,
        value: bigStore.pruneOneMs,
        unit: "ms",
        baselineName: "DELETE of the row",
        baseline: bigRows.pruneOneMs,
        goal: "—",
      },
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
