// One measurement of historyBench.ts, in a fresh process: prints one JSON line.
//   block <arbitrum-week|500-blocks>   CPU per new block through the service's path (record, statistics, answers)
//   block arbitrum-week-alert          the same with a second window of 2.4 M blocks asked a percentile per block (an
//                                      alert's), and that window's first ask (its tracker built) beside one exact pass
//   memory <seven-chains|empty>        resident memory with 7 chains' full 7-day histories held, or none
import { HISTORY_BLOCKS } from "../../shared/core/fees/historyLength.ts";
import { parseWindowSpec } from "../../shared/core/history/duration.ts";
import { FeeOrderStatisticsScratch } from "../../shared/core/history/feeOrderStatistics.ts";
import { createLogger } from "../../shared/log/logger.ts";
import type { ChainPlan } from "../../shared/service/chainPlan.ts";
import { publish } from "../../shared/service/chainPublication.ts";
import { ChainRecord } from "../../shared/service/chainRecord.ts";
import type { FeedReport } from "../../shared/rpc/feedReport.ts";
import { moneyNotReadYet } from "../../shared/service/chainMoney.ts";

const NO_MONEY = moneyNotReadYet("USD", "none");

const [mode, variant] = process.argv.slice(2);
const logger = createLogger("error");
const START_SECONDS = 1_700_000_000;
const WEEK_SECONDS = 7 * 86_400;
const PAGE = 1_024;

/** A deterministic walk of base fees around 10 Gwei (real fees move by at most 12.5% a block). */
function feeWalk(seed: number): () => bigint {
  let state = seed;
  let fee = 10_000_000_000;
  return () => {
    state = (state * 1_103_515_245 + 12_345) & 0x7fffffff;
    fee = Math.max(7, Math.round(fee * (0.9 + (state % 2_000) / 10_000)));
    return BigInt(fee);
  };
}

/** A record holding `seconds` of a chain with blocks `spacing` seconds apart, filled as the backfill fills it. */
function filledRecord(plan: ChainPlan, seconds: number, spacing: number, seed: number): { record: ChainRecord; newest: number; fillMsPer1024: number } {
  const record = new ChainRecord(plan, { logger });
  const blocks = Math.floor(seconds / spacing);
  const next = feeWalk(seed);
  const started = performance.now();
  let pages = 0;
  for (let first = 0; first < blocks; first += PAGE) {
    const count = Math.min(PAGE, blocks - first);
    const baseFeesWei = Array.from({ length: count }, next);
    const last = first + count - 1;
    record.writePage(
      {
        firstBlock: BigInt(first),
        baseFeesWei,
        anchors: [
          { block: BigInt(first), timestamp: Math.floor(START_SECONDS + first * spacing) },
          { block: BigInt(last), timestamp: Math.floor(START_SECONDS + last * spacing) },
        ],
      },
      (START_SECONDS + seconds) * 1_000,
    );
    pages++;
  }
  return { record, newest: blocks - 1, fillMsPer1024: (performance.now() - started) / pages };
}

/** The window an alert asks about in the alert variant: as long as the statistics window, another tracker. */
const ALERT_WINDOW = parseWindowSpec("2400000 blocks")!;

function measureBlocks(): void {
  const alert = variant === "arbitrum-week-alert";
  const week = alert || variant === "arbitrum-week";
  const spacing = 0.25;
  const plan: ChainPlan = {
    chainId: 42_161,
    name: "Arbitrum One",
    rpcUrls: [],
    blockTimeMs: 250,
    ...(week ? { statsWindow: { kind: "duration", seconds: WEEK_SECONDS, text: "7d" } } : { statsWindowBlocks: HISTORY_BLOCKS }),
  };
  const { record, newest, fillMsPer1024 } = filledRecord(plan, week ? WEEK_SECONDS : 200, spacing, 7);
  const next = feeWalk(11);
  let block = newest + 1;
  let previous = publish(plan, { ...report(BigInt(newest), 0n, []), changed: { blocks: false, health: false } }, undefined, record.part(), NO_MONEY);
  let firstAskMs = 0;
  let onePassMs = 0;
  if (alert) {
    onePassMs = onePassPercentileMs(record);
    const started = performance.now();
    record.history.percentileOver(ALERT_WINDOW, 20);
    firstAskMs = performance.now() - started;
  }
  const step = (): void => {
    const timestamp = Math.floor(START_SECONDS + block * spacing);
    const fed = report(BigInt(block), next(), block % 4 === 0 ? [{ block: BigInt(block), timestamp }] : []);
    record.takeReport(fed, timestamp * 1_000);
    previous = publish(plan, fed, previous, record.part(), NO_MONEY);
    if (alert && record.history.percentileOver(ALERT_WINDOW, 20) === undefined) throw new Error("the alert's window holds blocks");
    block++;
  };
  for (let i = 0; i < HISTORY_BLOCKS; i++) step(); // the feed's window full, the code warm
  global.gc?.();
  const walls: number[] = [];
  const cpu = process.cpuUsage();
  const BLOCKS = 2_000;
  for (let i = 0; i < BLOCKS; i++) {
    const started = performance.now();
    step();
    walls.push(performance.now() - started);
  }
  const used = process.cpuUsage(cpu);
  walls.sort((a, b) => a - b);
  answer({
    cpuMsPerBlock: (used.user + used.system) / 1_000 / BLOCKS,
    wallMsPerBlockP99: walls[Math.floor(BLOCKS * 0.99)]!,
    fillMsPer1024,
    parseMsPer1024: parseMsPer1024(),
    blocksHeld: previous.status.history.blocks,
    firstAskMs,
    onePassMs,
  });
}

/** What answering the alert's window without a tracker costs: its fees copied out of the history and selected once. */
function onePassPercentileMs(record: ChainRecord): number {
  const newest = record.history.newest!.block;
  const started = performance.now();
  const fees = new BigUint64Array(ALERT_WINDOW.kind === "blocks" ? ALERT_WINDOW.blocks : 0);
  let count = 0;
  for (const run of record.history.runsBetweenBlocks(newest - BigInt(fees.length) + 1n, newest)) {
    fees.set(run.baseFeesWei, count);
    count += run.baseFeesWei.length;
  }
  new FeeOrderStatisticsScratch([20]).of(fees.subarray(0, count));
  return performance.now() - started;
}

/** What merely reading a 1,024-block eth_feeHistory answer costs: its JSON parsed and its hex fees made bigints. */
function parseMsPer1024(): number {
  const next = feeWalk(3);
  const answerText = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    result: {
      oldestBlock: "0x1",
      baseFeePerGas: Array.from({ length: PAGE + 1 }, () => `0x${next().toString(16)}`),
      gasUsedRatio: Array<number>(PAGE).fill(0.5),
    },
  });
  const ROUNDS = 200;
  let total = 0n;
  const started = performance.now();
  for (let i = 0; i < ROUNDS; i++) {
    const parsed = JSON.parse(answerText) as { result: { baseFeePerGas: string[] } };
    for (const fee of parsed.result.baseFeePerGas) total += BigInt(fee);
  }
  if (total < 0n) throw new Error("unreachable");
  return (performance.now() - started) / ROUNDS;
}

/** A feed's report of one new block, as the feed hands it on. */
function report(block: bigint, baseFeeWei: bigint, anchors: FeedReport["anchors"]): FeedReport {
  return {
    chainId: 42_161,
    blocks: [{ firstBlock: block, baseFeesWei: [baseFeeWei] }],
    newestBlock: block,
    nextBaseFeeWei: undefined,
    recentTips: [],
    confirmedAt: Date.now(),
    phase: "ok",
    endpoints: [],
    changed: { blocks: true, health: false },
    anchors,
    callCounts: [],
  };
}

function measureMemory(): void {
  // A week of each default chain at its block time; Arbitrum's 0.25 s make 2.4 M blocks.
  const chains: readonly [number, number][] =
    variant === "empty"
      ? []
      : [
          [1, 12],
          [8_453, 2],
          [42_161, 0.25],
          [10, 2],
          [137, 2],
          [59_144, 2],
          [11_155_111, 12],
        ];
  const records = chains.map(
    ([chainId, spacing], i) => filledRecord({ chainId, name: String(chainId), rpcUrls: [], blockTimeMs: spacing * 1_000 }, WEEK_SECONDS, spacing, i + 1).record,
  );
  for (const record of records) record.part();
  global.gc?.();
  global.gc?.();
  const memory = process.memoryUsage();
  answer({ rssMb: memory.rss / 2 ** 20, heapMb: memory.heapUsed / 2 ** 20, blocksHeld: records.reduce((sum, record) => sum + record.history.blocksHeld, 0) });
}

function answer(values: Partial<Record<string, number>>): void {
  process.stdout.write(
    `${JSON.stringify({ cpuMsPerBlock: 0, wallMsPerBlockP99: 0, fillMsPer1024: 0, parseMsPer1024: 0, rssMb: 0, heapMb: 0, blocksHeld: 0, firstAskMs: 0, onePassMs: 0, ...values })}\n`,
  );
}

if (mode === "block") measureBlocks();
else if (mode === "memory") measureMemory();
else throw new Error(`usage: historyBenchWorker.ts block|memory <variant> (got ${mode})`);
