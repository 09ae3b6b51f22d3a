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
import { startSyntheticChainServer, type SyntheticChainServer } from "../support/syntheticChainServer.ts";

const cleanups: (() => Promise<void> | void)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const HOUR = HOUR_SECONDS;
const honestFee = (block: bigint) => 1_000_000_000n + ((block * 7_919n) % 50_000_000_000n);

async function chain(options: { lying?: boolean; timestampOf?: (block: bigint) => number; head?: bigint } = {}): Promise<SyntheticChainServer> {
  const started = await startSyntheticChainServer({
    head: options.head ?? 2_000_000n,
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

function outlook(server: SyntheticChainServer, layer: ChainEndpoints, floorBlock: bigint, spanSeconds: number, held: Held, extra: { floorSource?: string } = {}) {
  const logger = recordingLogger();
  const backfill = new OutlookBackfill({
    chainId: 1,
    endpoints: layer,
    floor: { block: floorBlock, timestamp: server.timestampOf(floorBlock) },
    floorFee: () => ({ baseFeeWei: honestFee(floorBlock), source: extra.floorSource }),
    spanSeconds,
    blockSpacingSeconds: 12,
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
