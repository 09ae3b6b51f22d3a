// One measurement of historyBench.ts, in a fresh process: prints one JSON line.
//   block <arbitrum-week|500-blocks>   CPU per new block through the service's path (record, statistics, answers)
//   block arbitrum-week-alert          the same with a second window of 2.4 M blocks asked a percentile per block (an
//                                      alert's), and that window's first ask (its tracker built) beside one exact pass
//   block arbitrum-week-rules          a week held (24 h statistics window) and the worst alert-rule set the settings
//                                      accept: 200 percentile rules over 16 distinct windows spanning twice the
//                                      horizon's blocks, every rule's threshold asked per block; and resident memory
//   block arbitrum-week-24h            the same week and statistics window without rules (the rules' baseline)
//   block arbitrum-week-blob           the same as arbitrum-week with blob fees: every block's blob base fee and ratios
//                                      kept, and the window's blob p50/p90 beside the base fee's
//   memory <seven-chains|empty>        resident memory with 7 chains' full 7-day histories held, or none
//   memory <arbitrum|arbitrum-blob>    resident memory with one 7-day history of 0.25 s blocks, without or with blob fees
import { HISTORY_BLOCKS } from "../../shared/core/fees/historyLength.ts";
import { parseWindowSpec } from "../../shared/core/history/duration.ts";
import { FeeOrderStatisticsScratch } from "../../shared/core/history/feeOrderStatistics.ts";
import { createLogger } from "../../shared/log/logger.ts";
import type { ChainPlan } from "../../shared/service/chainPlan.ts";
import { publish } from "../../shared/service/chainPublication.ts";
import { ChainRecord } from "../../shared/service/chainRecord.ts";
import type { FeedReport } from "../../shared/rpc/feed/feedReport.ts";
import type { AlertRule } from "../../shared/core/alerts/alertRule.ts";
import { loadAlertRules } from "../../shared/alerts/loadAlertRules.ts";
import { thresholdNow } from "../../shared/alerts/ruleThreshold.ts";
import { notificationSettingsSchema } from "../../shared/config/settings.ts";
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
function filledRecord(
  plan: ChainPlan,
  seconds: number,
  spacing: number,
  seed: number,
  blobs = false,
): { record: ChainRecord; newest: number; fillMsPer1024: number } {
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
        ...(blobs ? blobFieldsOf(baseFeesWei) : {}),
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

/**
 * The worst rule set loadAlertRules accepts for a week of Arbitrum (7 d horizon, 4,838,400 blocks of budget): 16
 * distinct windows (7 d, 6 d and 14 of 61 to 74 minutes: 13 d 17 h of blocks), over 200 rules of both directions and
 * many percentiles; checked to be accepted whole.
 */
function worstAcceptedRules(plan: ChainPlan): AlertRule[] {
  const windows = ["7d", "6d", ...Array.from({ length: 14 }, (_, index) => `${61 + index}m`)];
  const raw = Array.from({ length: 200 }, (_, index) => ({
    id: `rule-${index}`,
    chainId: plan.chainId,
    when: index % 2 === 0 ? "below" : "above",
    percentile: 1 + ((index * 7) % 99),
    window: windows[index % windows.length]!,
    cooldownMinutes: 0,
  }));
  const { rules, problems } = loadAlertRules(raw, [plan], notificationSettingsSchema.parse({}));
  if (problems.length > 0) throw new Error(`the rule set is refused: ${JSON.stringify(problems[0])}`);
  return rules.filter((rule) => rule.id.startsWith("rule-"));
}

/** Blob fields for blocks with these base fees, as an Ethereum endpoint gives them: a blob fee moving on its own, ratios. */
function blobFieldsOf(baseFeesWei: readonly bigint[]): { blobBaseFeesWei: bigint[]; gasUsedRatios: number[]; blobGasUsedRatios: number[] } {
  return {
    blobBaseFeesWei: baseFeesWei.map((fee) => 1n + ((fee * 7_919n) % 30_000_000_000n)),
    gasUsedRatios: baseFeesWei.map((fee) => Number(fee % 10_000n) / 10_000),
    blobGasUsedRatios: baseFeesWei.map((fee) => (Number(fee % 22n) / 21 > 1 ? 1 : Number(fee % 22n) / 21)),
  };
}

/** The window an alert asks about in the alert variant: as long as the statistics window, another tracker. */
const ALERT_WINDOW = parseWindowSpec("2400000 blocks")!;

function measureBlocks(): void {
  const alert = variant === "arbitrum-week-alert";
  const withRules = variant === "arbitrum-week-rules";
  const day = withRules || variant === "arbitrum-week-24h";
  const blobs = variant === "arbitrum-week-blob";
  const week = alert || day || blobs || variant === "arbitrum-week";
  const spacing = 0.25;
  const plan: ChainPlan = {
    chainId: 42_161,
    name: "Arbitrum One",
    rpcUrls: [],
    blockTimeMs: 250,
    ...(day
      ? { statsWindow: { kind: "duration", seconds: 86_400, text: "24h" } }
      : week
        ? { statsWindow: { kind: "duration", seconds: WEEK_SECONDS, text: "7d" } }
        : { statsWindowBlocks: HISTORY_BLOCKS }),
  };
  const rules = withRules ? worstAcceptedRules(plan) : [];
  const { record, newest, fillMsPer1024 } = filledRecord(plan, week ? WEEK_SECONDS : 200, spacing, 7, blobs);
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
    const fed = report(BigInt(block), next(), block % 4 === 0 ? [{ block: BigInt(block), timestamp }] : [], blobs);
    record.takeReport(fed, timestamp * 1_000);
    previous = publish(plan, fed, previous, record.part(), NO_MONEY);
    if (alert && record.history.percentileOver(ALERT_WINDOW, 20) === undefined) throw new Error("the alert's window holds blocks");
    for (const rule of rules) {
      if (thresholdNow(rule, record.history) === undefined) throw new Error(`rule ${rule.id} has a threshold`);
    }
    block++;
  };
  if (withRules) {
    // The first block after the rules are loaded builds each window's tracker (a sort of its fees, once).
    const started = performance.now();
    for (const rule of rules) thresholdNow(rule, record.history);
    firstAskMs = performance.now() - started;
  }
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
  if (blobs && previous.snapshot?.blob?.statsBlocks !== previous.snapshot?.statsBlocks) throw new Error("every block of the window has a blob fee");
  global.gc?.();
  answer({
    rssMb: process.memoryUsage().rss / 2 ** 20,
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
function report(block: bigint, baseFeeWei: bigint, anchors: FeedReport["anchors"], blobs = false): FeedReport {
  return {
    chainId: 42_161,
    blocks: [{ firstBlock: block, baseFeesWei: [baseFeeWei], ...(blobs ? blobFieldsOf([baseFeeWei]) : {}) }],
    newestBlock: block,
    nextBaseFeeWei: undefined,
    nextBlobBaseFeeWei: blobs ? 1n + ((baseFeeWei * 7_919n) % 30_000_000_000n) : undefined,
    recentTips: [],
    newDataAt: Date.now(),
    phase: "ok",
    endpoints: [],
    changed: { blocks: true, health: false },
    anchors,
    callCounts: [],
  };
}

function measureMemory(): void {
  // A week of each default chain at its block time; Arbitrum's 0.25 s make 2.4 M blocks.
  const one = variant === "arbitrum" || variant === "arbitrum-blob";
  const chains: readonly [number, number][] =
    variant === "empty"
      ? []
      : one
        ? [[42_161, 0.25]]
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
    ([chainId, spacing], i) =>
      filledRecord({ chainId, name: String(chainId), rpcUrls: [], blockTimeMs: spacing * 1_000 }, WEEK_SECONDS, spacing, i + 1, variant === "arbitrum-blob")
        .record,
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
