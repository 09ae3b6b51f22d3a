// The history's costs: a new block on a chain whose statistics window holds a week of Arbitrum's blocks (2.4 million),
// beside the same path with today's 500-block window, and with a second 2.4 M-block window an alert asks about at
// every block (that window's first ask beside one exact pass over it); the memory of 7 chains with full 7-day histories (one of them
// Arbitrum-sized), beside the same process with empty histories. Each in its own process, so that one's garbage does
// not weigh on the other's numbers.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";
import type { BenchRow } from "./benchRow.ts";

const WORKER = fileURLToPath(new URL("./historyBenchWorker.ts", import.meta.url));

interface WorkerAnswer {
  readonly cpuMsPerBlock: number;
  readonly wallMsPerBlockP99: number;
  readonly fillMsPer1024: number;
  readonly parseMsPer1024: number;
  readonly rssMb: number;
  readonly heapMb: number;
  readonly blocksHeld: number;
  readonly firstAskMs: number;
  readonly onePassMs: number;
}

/** Runs the worker bundled, as the service runs (no TypeScript loader in the process weighing on its memory). */
function worker(bundle: string, args: readonly string[]): WorkerAnswer {
  const out = execFileSync(process.execPath, ["--expose-gc", bundle, ...args], { encoding: "utf8", maxBuffer: 1 << 20 });
  return JSON.parse(out.trim().split("\n").at(-1)!) as WorkerAnswer;
}

export function runHistoryBench(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), "gasfees-history-bench-"));
  const bundle = join(dir, "historyBenchWorker.mjs");
  buildSync({ entryPoints: [WORKER], bundle: true, platform: "node", format: "esm", outfile: bundle, logLevel: "error" });
  let week: WorkerAnswer, alert: WorkerAnswer, blob: WorkerAnswer, small: WorkerAnswer, seven: WorkerAnswer, empty: WorkerAnswer;
  let rules: WorkerAnswer, day: WorkerAnswer, oneChain: WorkerAnswer, oneChainBlobs: WorkerAnswer;
  try {
    week = worker(bundle, ["block", "arbitrum-week"]);
    alert = worker(bundle, ["block", "arbitrum-week-alert"]);
    blob = worker(bundle, ["block", "arbitrum-week-blob"]);
    rules = worker(bundle, ["block", "arbitrum-week-rules"]);
    day = worker(bundle, ["block", "arbitrum-week-24h"]);
    oneChain = worker(bundle, ["memory", "arbitrum"]);
    oneChainBlobs = worker(bundle, ["memory", "arbitrum-blob"]);
    small = worker(bundle, ["block", "500-blocks"]);
    seven = worker(bundle, ["memory", "seven-chains"]);
    empty = worker(bundle, ["memory", "empty"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return Promise.resolve([
    {
      name: "a new block: CPU per block, window of 2.4 M blocks (7 d of 0.25 s blocks): history, statistics, answers",
      value: week.cpuMsPerBlock,
      unit: "ms",
      baselineName: "same path, 500-block window",
      baseline: small.cpuMsPerBlock,
      goal: "≤ 1 ms",
    },
    {
      name: "a new block: CPU per block, the same with a second window of 2.4 M blocks asked its p20 per block (an alert's)",
      value: alert.cpuMsPerBlock,
      unit: "ms",
      baselineName: "the statistics window alone",
      baseline: week.cpuMsPerBlock,
      goal: "≤ 1 ms",
    },
    {
      name: "a new block: CPU per block, the same with blob fees (each block's blob base fee and ratios kept, the window's blob p50/p90 beside)",
      value: blob.cpuMsPerBlock,
      unit: "ms",
      baselineName: "the base fee alone",
      baseline: week.cpuMsPerBlock,
      goal: "≤ 1 ms",
    },
    {
      name: "memory per block held, 7 d of 0.25 s blocks with blob fields (resident, whole process, over the blocks held)",
      value: (oneChainBlobs.rssMb * 2 ** 20) / oneChainBlobs.blocksHeld,
      unit: "bytes",
      baselineName: "the same history without blob fields",
      baseline: (oneChain.rssMb * 2 ** 20) / oneChain.blocksHeld,
      goal: "—",
    },
    {
      name: "a window's first ask (alerts): its tracker built over 2.4 M blocks, once",
      value: alert.firstAskMs,
      unit: "ms",
      baselineName: "one exact pass over it, kept nowhere (asks past 16 windows)",
      baseline: alert.onePassMs,
      goal: "—",
    },
    {
      name: "a new block with the worst alert-rule set the settings accept (200 percentile rules, 16 windows spanning 13 d 17 h of 0.25 s blocks), every threshold asked: CPU per block",
      value: rules.cpuMsPerBlock,
      unit: "ms",
      baselineName: "the same week, no rules",
      baseline: day.cpuMsPerBlock,
      goal: "< 1 ms",
    },
    {
      name: "the same: resident memory, the week held and every rule's window tracked",
      value: rules.rssMb,
      unit: "MB",
      baselineName: "the same week, no rules",
      baseline: day.rssMb,
      goal: "< 300 MB",
    },
    {
      name: "the same: the first block after the rules are loaded (each window's tracker built, once)",
      value: rules.firstAskMs,
      unit: "ms",
      baselineName: "one exact pass over a 2.4 M-block window",
      baseline: alert.onePassMs,
      goal: "—",
    },
    {
      name: "a new block: slowest 1% (wall), window of 2.4 M blocks",
      value: week.wallMsPerBlockP99,
      unit: "ms",
      baselineName: "same path, 500-block window",
      baseline: small.wallMsPerBlockP99,
      goal: "—",
    },
    {
      name: "a 1,024-block backfilled page into a 2.4 M-block history (memory side)",
      value: week.fillMsPer1024,
      unit: "ms",
      baselineName: "reading the page's eth_feeHistory answer (JSON, hex to bigint)",
      baseline: week.parseMsPer1024,
      goal: "< 5 ms with the store",
    },
    {
      name: `resident memory, 7 chains with full 7-day histories (${(seven.blocksHeld / 1e6).toFixed(2)} M blocks, Arbitrum-sized among them)`,
      value: seven.rssMb,
      unit: "MB",
      baselineName: "the same process, empty histories",
      baseline: empty.rssMb,
      goal: "< 200 MB",
    },
  ]);
}
