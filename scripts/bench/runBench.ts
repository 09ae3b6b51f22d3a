// npm run bench: each measurement beside a baseline measured in the same run, with their ratio.
// Each bench module returns rows; add a module to BENCHES to add its rows to the table.
import { cpus, totalmem } from "node:os";
import type { BenchRow } from "./benchRow.ts";
import { runFeedBench } from "./feedBench.ts";
import { runFreshnessBench } from "./freshnessBench.ts";
import { runHistoryBench } from "./historyBench.ts";
import { runHistoryStoreBench } from "./historyStoreBench.ts";
import { runDashboardBench } from "./dashboardBench.ts";
import { runServerBench } from "./serverBench.ts";
import { runSoakBench, soakSeconds } from "./soakBench.ts";
import { runStatsBench } from "./statsBench.ts";
import { runStoreLockBench } from "./storeLockBench.ts";
import { runBackfillBench } from "./backfillBench.ts";
import { runBackfillStoredBench } from "./backfillStoredBench.ts";
import { runTenChainsBench } from "./tenChainsBench.ts";
import { runPressureBench } from "./pressureBench.ts";
import { runCostsBench } from "./costsBench.ts";
import { runServedBench } from "./servedBench.ts";
import { runCrossCheckBench } from "./crossCheckBench.ts";
import { runOutlookBench } from "./outlookBench.ts";
import { runHourlySummaryBench } from "./hourlySummaryBench.ts";
import { runOutlookBackfillBench } from "./outlookBackfillBench.ts";

const BENCHES: ReadonlyArray<{ name: string; run: () => Promise<BenchRow[]> }> = [
  { name: "chain feed", run: () => runFeedBench() },
  { name: "freshness", run: () => runFreshnessBench() },
  { name: "dashboard", run: () => runDashboardBench() },
  { name: "server", run: () => runServerBench() },
  { name: "served by wrk", run: () => runServedBench() },
  { name: "ten chains", run: () => runTenChainsBench() },
  { name: "history", run: () => runHistoryBench() },
  { name: "store", run: () => runHistoryStoreBench() },
  { name: "lock", run: () => runStoreLockBench() },
  { name: "stats", run: () => runStatsBench() },
  { name: "pressure", run: () => runPressureBench() },
  { name: "backfill", run: () => runBackfillBench() },
  { name: "backfill kept", run: () => runBackfillStoredBench() },
  { name: "costs", run: () => runCostsBench() },
  { name: "crosscheck", run: () => runCrossCheckBench() },
  { name: "outlook", run: () => runOutlookBench() },
  { name: "hours", run: () => runHourlySummaryBench() },
  { name: "outlook backfill", run: () => runOutlookBackfillBench() },
  // Short by default; `npm run bench -- soak` (which also selects it alone) or GASFEES_SOAK_MINUTES runs it long.
  { name: "soak", run: () => runSoakBench(soakSeconds(process.argv.slice(2))) },
];

/** The word that selects each bench on the command line (a word selects every bench whose name holds it). */
const WORDS = "feed|freshness|dashboard|server|wrk|ten|history|store|lock|stats|pressure|backfill|kept|costs|crosscheck|hours|outlook|soak";

const USAGE = `Usage: npm run bench -- [${WORDS} ...]

Runs the benchmarks (about 11 minutes), or only those named, and prints one Markdown table: each measurement beside a
baseline measured in the same run, with their ratio and the goal.

  feed       the chain feed: RPC requests and time to first data, requests per new block
  freshness  lag from a block at the RPC to its /events event, over http (fixed and jittered slots) and ws (under 2 min)
  dashboard  the dashboard in Chromium: first chart, scripting and main-thread time per live block
  server     the API against a bare node:http server: requests per second, p99 latency, CPU per request
  wrk        busyThreshold of npm run serve --demo against a bare node:http server, load from wrk (needs wrk)
  ten        ten chains followed by one serve process: requests per block, resident memory
  history    a new block with a week of Arbitrum in the window; memory of 7 chains' full 7-day histories
  store      the history's SQLite store beside a row per block: pages, weeks, bytes per block, loading (under a minute)
  lock       another process holding the history file's write lock for 15 s: /healthz p99, blocks missing afterwards
  stats      baseFeeStats and the CSV export over a week of Arbitrum (2.4 million blocks)
  pressure   the same week held while one key attacks with history scans: /healthz, busyThreshold, /events (~1 min)
  backfill   the history's backfill, fetch side, cap lifted: a week of a 12 s and of a 0.25 s chain; calls after a day away
  kept       the same weeks fetched and kept end to end: the chain's record in memory and its SQLite store
  costs      RPC calls per hour that prices and L1 fees add to a chain beside its feed's; /costs beside busyThreshold
  crosscheck calls per new block over http with three endpoints checking each other, beside one endpoint (~2 min)
  outlook    /outlook p50/p99 beside busyThreshold on the same service with a year of hourly summaries (~40 s)
  hours      the hourly summaries of 10 chains x a year on disk, beside the same as CSV (goal: under 20 MB)
             and the outlook backfill's 8 weeks per chain (12 s, 2 s, 0.25 s): pages, calls counted, minutes at 2 calls/s (~30 s)
  soak       the service under load for 30 s (5 minutes when named; GASFEES_SOAK_MINUTES sets it)
  --help     this help`;

const format = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(value < 10 ? 2 : 1));
const only = process.argv.slice(2);
if (only.includes("--help") || only.includes("-h")) {
  console.log(USAGE);
  process.exit(0);
}
// A word selects the benches whose name holds it; one that selects none is a typo, not an empty table.
const unknown = only.find((word) => word === "" || !BENCHES.some((bench) => bench.name.includes(word)));
if (unknown !== undefined) {
  const problem = unknown.startsWith("-") ? `unknown option '${unknown}'` : `no bench is called '${unknown}'`;
  process.stderr.write(`gasfees bench: ${problem}: name one of ${WORDS.split("|").join(", ")}\n\n${USAGE}\n`);
  process.exit(2);
}

console.log(`gasfees bench — node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, ${Math.round(totalmem() / 2 ** 30)} GiB\n`);
console.log("| measurement | gasfees | baseline (same run) | ratio | goal |");
console.log("|---|---|---|---|---|");
for (const bench of BENCHES.filter((candidate) => only.length === 0 || only.some((name) => candidate.name.includes(name)))) {
  for (const row of await bench.run()) {
    const ratio = row.baseline === 0 ? "—" : (row.value / row.baseline).toFixed(3);
    console.log(`| ${row.name} | ${format(row.value)} ${row.unit} | ${format(row.baseline)} ${row.unit} (${row.baselineName}) | ${ratio} | ${row.goal} |`);
  }
}
