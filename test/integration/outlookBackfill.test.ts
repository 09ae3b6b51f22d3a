// The outlook backfill (the hours before the history) against real JSON-RPC servers on 127.0.0.1: the project's
// stand-in, test/support/syntheticChainServer.ts, which serves chains of millions of blocks (a slow 12 s chain, and an
// Arbitrum-like one of 0.25 s blocks) and can lie on purpose. Through the real endpoint layer and backfill runner.
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { OutlookBackfill } from "../../shared/backfill/outlookBackfill.ts";
import { HOUR_SECONDS, hourStartOf, type HourlySummary } from "../../shared/core/outlook/hourlySummary.ts";
import { summarizeHour } from "../../shared/core/outlook/summarizeHour.ts";
import { ChainEndpoints } from "../../shared/rpc/endpoints/chainEndpoints.ts";
import { recordingLogger } from "../support/feedHarness.ts";
import { startSyntheticChainServer, type SyntheticChainServer, type SyntheticFault } from "../support/syntheticChainServer.ts";

const cleanups: (() => Promise<void> | void)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const HOUR = HOUR_SECONDS;
const honestFee = (block: bigint) => 1_000_000_000n + ((block * 7_919n) % 50_000_000_000n);

async function chain(
  options: { lying?: boolean; timestampOf?: (block: bigint) => number; head?: bigint; fault?: SyntheticFault } = {},
): Promise<SyntheticChainServer> {
  const started = await startSyntheticChainServer({
    head: options.head ?? 2_000_000n,
    ...(options.fault ? { fault: options.fault } : {}),
    baseFeeOf: options.lying ? (block) => 2n * honestFee(block) : honestFee,
    ...(options.timestampOf ? { timestampOf: options.timestampOf } : {}),
  });
  cleanups.push(() => started.close());
  return started;
}

/** Every block's summary of the hours `fromTime..toTime`, as the chain has them. */
function expectedHours(server: SyntheticChainServer, floorBlock: bigint, fromTime: number, toTime: number): HourlySummary[] {
  const byHour = new Map<number, bigint[]>();
  for (let block = floorBlock - 1n; block >= 0n; block--) {
    const time = server.timestampOf(block);
    if (time < fromTime) break;
    if (time >= toTime) continue;
    const fees = byHour.get(hourStartOf(time)) ?? [];
    fees.unshift(server.baseFeeOf(block));
    byHour.set(hourStartOf(time), fees);
  }
  return [...byHour].map(([start, fees]) => summarizeHour(start, fees)).sort((a, b) => a.start - b.start);
}

interface Held {
  readonly summaries: Map<number, HourlySummary>;
}

function outlook(
  server: SyntheticChainServer,
  layer: ChainEndpoints,
  floorBlock: bigint,
  spanSeconds: number,
  held: Held,
  extra: { floorSource?: string; spacingSeconds?: number } = {},
) {
  const logger = recordingLogger();
  const backfill = new OutlookBackfill({
    chainId: 1,
    endpoints: layer,
    floor: { block: floorBlock, timestamp: server.timestampOf(floorBlock) },
    floorFee: () => ({ baseFeeWei: honestFee(floorBlock), source: extra.floorSource }),
    spanSeconds,
    blockSpacingSeconds: extra.spacingSeconds ?? 12,
    heldHours: [...held.summaries.values()],
    write: (summaries) => {
      for (const summary of summaries) held.summaries.set(summary.start, summary);
    },
    logger,
    runner: { requestsPerSecond: Number.POSITIVE_INFINITY, backoff: { initialMs: 20, maxMs: 200 } },
  });
  cleanups.push(() => backfill.stop());
  return { backfill, logger };
}

function layerOf(...servers: SyntheticChainServer[]): ChainEndpoints {
  const layer = new ChainEndpoints(
    1,
    servers.map((server) => server.url),
    { backoff: { initialMs: 20, maxMs: 200 } },
  );
  cleanups.push(() => layer.close());
  return layer;
}

test("a slow chain's hours before the history are read block by block: each summary is exact against the chain's blocks", { timeout: 120_000 }, async () => {
  const server = await chain();
  const floorBlock = 1_500_000n;
  const held: Held = { summaries: new Map() };
  const { backfill } = outlook(server, layerOf(server), floorBlock, 6 * HOUR, held);
  assert.equal(backfill.mode, "every");
  const outcome = await backfill.run();
  assert.equal(outcome.oldestReached, true);
  const toTime = hourStartOf(server.timestampOf(floorBlock));
  const expected = expectedHours(server, floorBlock, toTime - 6 * HOUR, toTime);
  assert.equal(expected.length, 6);
  assert.deepEqual(
    [...held.summaries.values()].sort((a, b) => a.start - b.start),
    expected,
  );
  assert.ok(expected.every((hour) => hour.blocks === 300 && !hour.sampled));
  assert.deepEqual(backfill.progress, { running: false, fromTime: toTime - 6 * HOUR, toTime, hoursHeld: 6, hoursWanted: 6, mode: "every" });
});

test(
  "an Arbitrum-like chain (0.25 s blocks) is sampled: one page in every hour, each summary saying so and how many blocks it saw",
  { timeout: 120_000 },
  async () => {
    const server = await chain({ head: 30_000_000n, timestampOf: (block) => 1_700_000_000 + Math.floor(Number(block) / 4) });
    const floorBlock = 20_000_000n;
    const held: Held = { summaries: new Map() };
    const { backfill } = outlook(server, layerOf(server), floorBlock, 7 * 24 * HOUR, held, { spacingSeconds: 0.25 });
    assert.equal(backfill.mode, "sampled", "every block of 7 days would take 2,365 pages");
    const outcome = await backfill.run();
    assert.equal(outcome.oldestReached, true);
    const toTime = hourStartOf(server.timestampOf(floorBlock));
    const hours = [...held.summaries.values()].sort((a, b) => a.start - b.start);
    assert.deepEqual(
      hours.map((hour) => hour.start),
      Array.from({ length: 168 }, (_, i) => toTime - (168 - i) * HOUR),
      "one summary in every hour",
    );
    assert.equal(server.calls("eth_feeHistory"), 168, "one page an hour, each aimed inside it");
    for (const hour of hours) {
      assert.equal(hour.sampled, true);
      // The page's blocks dated in the hour: all of its 1,024 blocks when it lies inside, as aimed at the hour's middle.
      assert.equal(hour.blocks, 1_024);
      const firstBlock = BigInt(hour.start + HOUR / 2 - 1_700_000_000) * 4n - 512n;
      const seen: bigint[] = [];
      for (let block = firstBlock - 600n; block < firstBlock + 1_700n; block++) {
        const time = server.timestampOf(block);
        if (time >= hour.start && time < hour.start + HOUR) seen.push(block);
      }
      const fees = seen.map((block) => server.baseFeeOf(block));
      assert.ok(hour.min >= fees.reduce((a, b) => (a < b ? a : b)) && hour.max <= fees.reduce((a, b) => (a > b ? a : b)), "the sample's fees are the hour's");
      assert.ok(hour.min <= hour.p10 && hour.p10 <= hour.p50 && hour.p50 <= hour.p90 && hour.p90 <= hour.max);
    }
    assert.equal(backfill.progress.hoursHeld, 168);
    assert.equal(backfill.progress.mode, "sampled");
  },
);

test("after a restart, only the hours missing are read: the hours held are not asked for again", { timeout: 120_000 }, async () => {
  const server = await chain();
  const floorBlock = 1_500_000n;
  const toTime = hourStartOf(server.timestampOf(floorBlock));
  const expected = expectedHours(server, floorBlock, toTime - 12 * HOUR, toTime);
  // A first run stopped after its first 5 hours (the newest), as a restart would stop it.
  const held: Held = { summaries: new Map() };
  const first = outlook(server, layerOf(server), floorBlock, 12 * HOUR, held);
  const stopped = new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      if (held.summaries.size >= 5) {
        clearInterval(timer);
        resolve();
      }
    }, 1);
  });
  const firstRun = first.backfill.run();
  await stopped;
  await first.backfill.stop();
  await firstRun;
  const heldAfterFirst = held.summaries.size;
  assert.ok(heldAfterFirst >= 5 && heldAfterFirst < 12, `${heldAfterFirst} hours held after the first run`);
  const callsBefore = server.calls("eth_feeHistory");
  const second = outlook(server, layerOf(server), floorBlock, 12 * HOUR, held);
  assert.equal(second.backfill.progress.hoursHeld, heldAfterFirst);
  const outcome = await second.backfill.run();
  assert.equal(outcome.oldestReached, true);
  assert.deepEqual(
    [...held.summaries.values()].sort((a, b) => a.start - b.start),
    expected,
    "every hour exact, none read twice wrongly",
  );
  // The missing hours' blocks (300 an hour), in pages of 1,023, plus at most one page at each end of the run.
  const missingBlocks = (12 - heldAfterFirst) * 300;
  assert.ok(outcome.blocksFetched <= missingBlocks + 2 * 1_024, `${outcome.blocksFetched} blocks read for ${missingBlocks} missing`);
  assert.ok(server.calls("eth_feeHistory") - callsBefore <= Math.ceil(missingBlocks / 1_023) + 2);
  // A third start with every hour held asks nothing.
  const callsThen = server.calls();
  const third = outlook(server, layerOf(server), floorBlock, 12 * HOUR, held);
  assert.equal((await third.backfill.run()).requests, 0);
  assert.equal(server.calls(), callsThen);
});

test(
  "a lying endpoint's page does not meet the history's oldest block: it is read again elsewhere, the liar set aside, nothing of it kept",
  { timeout: 120_000 },
  async () => {
    const liar = await chain({ lying: true });
    const honest = await chain();
    const layer = layerOf(liar, honest);
    const floorBlock = 1_500_000n;
    const held: Held = { summaries: new Map() };
    // The history's oldest block was kept before a restart (its source not known): a third witness at the first seam.
    const { backfill, logger } = outlook(honest, layer, floorBlock, 6 * HOUR, held);
    const outcome = await backfill.run();
    assert.equal(outcome.oldestReached, true);
    const toTime = hourStartOf(honest.timestampOf(floorBlock));
    assert.deepEqual(
      [...held.summaries.values()].sort((a, b) => a.start - b.start),
      expectedHours(honest, floorBlock, toTime - 6 * HOUR, toTime),
    );
    const [liarStatus] = layer.statuses(undefined);
    assert.equal(liarStatus!.setAsideFor, "disagrees");
    assert.ok(
      logger.lines.some((line) => / warn .*outlook backfill sets http:\/\/127\.0\.0\.1:\d+ aside for lying/.test(line)),
      logger.lines.join(""),
    );
    assert.ok(
      layer.callCounts("outlook").some((count) => count.calls > 0),
      "read through the outlook's own lane",
    );
    assert.ok(
      layer.callCounts("backfill").every((count) => count.calls === 0),
      "not through the history's",
    );
  },
);

test(
  "a sampled page meets nothing held, yet is bounded and checked as the history's: an endpoint whose headers contradict its pages is set aside",
  { timeout: 120_000 },
  async () => {
    const timestampOf = (block: bigint) => 1_700_000_000 + Math.floor(Number(block) / 4);
    const hostile = await chain({ head: 30_000_000n, timestampOf, fault: "header-fee-mismatch" });
    const honest = await chain({ head: 30_000_000n, timestampOf });
    const layer = layerOf(hostile, honest);
    const floorBlock = 20_000_000n;
    const held: Held = { summaries: new Map() };
    const { backfill, logger } = outlook(honest, layer, floorBlock, 7 * 24 * HOUR, held, { spacingSeconds: 0.25 });
    const outcome = await backfill.run();
    assert.equal(outcome.oldestReached, true);
    assert.equal(held.summaries.size, 168, "every hour, from the honest endpoint");
    const [hostileStatus] = layer.statuses(undefined);
    assert.equal(hostileStatus!.setAsideFor, "disagrees");
    assert.match(hostileStatus!.lastError ?? "", /header has base fee \d+ where eth_feeHistory gave \d+ wei/);
    assert.ok(logger.lines.some((line) => / warn .*outlook backfill sets http:\/\/127\.0\.0\.1:\d+ aside/.test(line)));
    assert.equal(hostile.calls("eth_feeHistory"), 1, "one page from it, not kept");
  },
);
