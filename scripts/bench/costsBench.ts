// Costs in money: the RPC calls that prices and L1 fees add per chain beside the feed's own (a Hardhat chain with
// Chainlink's aggregator and the OP-stack oracle, a block every 2 s like the demo's), and /costs' throughput beside
// busyThreshold's on the same service (autocannon, A B B A, in this process: the ratio, not the absolute rate, is the
// measure).
import autocannon from "autocannon";
import { startLocalService } from "../../test/support/startLocalService.ts";
import { deployPriceFeed, placeOpStackPredeploys, writeRound } from "../../shared/demo/costContracts.ts";
import { startEvmNode } from "../../shared/demo/startEvmNode.ts";
import type { BenchRow } from "./benchRow.ts";

const KEY = "0123456789abcdef0123456789abcdef";
const CHAIN_ID = 31337;
const BLOCK_MS = 2000;
const FEED_SECONDS = 20;
const LOAD_SECONDS = Number(process.env.GASFEES_BENCH_SECONDS ?? 3);
/** The feed's past rounds the service reads back at its start: a week of heartbeat rounds, one an hour. */
const PAST_ROUNDS = 7 * 24;

async function rps(url: string, seconds: number): Promise<number> {
  const result = await autocannon({
    url,
    connections: 10,
    duration: seconds,
    headers: { authorization: `Basic ${Buffer.from(`${KEY}:`).toString("base64")}` },
  });
  if (result.non2xx + result.errors > 0) throw new Error(`${url}: ${result.non2xx + result.errors} failed requests`);
  return result.requests.average;
}

export async function runCostsBench(): Promise<BenchRow[]> {
  const node = await startEvmNode({ chainId: CHAIN_ID });
  const service = await (async () => {
    await node.mineBlocks([20_000_000_000n, 21_000_000_000n]);
    const feed = await deployPriceFeed(node, 8, 189_351_000_000n);
    const nowS = Math.floor(Date.now() / 1000);
    for (let round = 1; round <= PAST_ROUNDS; round++) {
      await writeRound(node, feed, { roundId: BigInt(round), answer: 189_351_000_000n + BigInt(round), updatedAt: nowS - (PAST_ROUNDS - round) * 3600 });
    }
    await placeOpStackPredeploys(node, {
      baseFeeScalar: 1368,
      blobBaseFeeScalar: 810_949,
      l1BaseFeeWei: 31_000_000_000n,
      l1BlobBaseFeeWei: 1n,
      l1Number: 1n,
      l1Timestamp: 1,
    });
    return startLocalService(
      [
        {
          chainId: CHAIN_ID,
          name: "bench",
          rpcUrls: [node.url],
          blockTimeMs: BLOCK_MS,
          l1FeeKind: "op-stack",
          priceFeed: { address: feed, token: "ETH", description: "v0.8/tests/MockV3Aggregator.sol", heartbeatSeconds: 3600 },
        },
      ],
      [{ key: KEY }],
      { backfill: false },
    );
  })();
  const startedMs = performance.now();
  try {
    // The week of rounds read back once at start (before the feed's own calls are counted below): every point held.
    const priceHistoryUrl = `${service.url}/networks/${CHAIN_ID}/priceHistory`;
    const authorization = `Basic ${Buffer.from(`${KEY}:`).toString("base64")}`;
    for (;;) {
      const points = (await (await fetch(priceHistoryUrl, { headers: { authorization } })).json()) as unknown[];
      if (points.length >= PAST_ROUNDS) break;
      if (performance.now() - startedMs > 60_000) throw new Error(`only ${points.length} of ${PAST_ROUNDS} past rounds read back in 60 s`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const pastReadMs = performance.now() - startedMs;
    const pastCalls = service.costReaders.callCounts().get(CHAIN_ID) ?? 0;
    // Blocks every 2 s while the feed is followed; the cost readers' first round (with the feed's setup) runs meanwhile.
    const mining = setInterval(() => void node.mineBlocks([21_000_000_000n]).catch(() => {}), BLOCK_MS);
    const callsOfFeed = () => (service.service.get(CHAIN_ID)?.callCounts ?? []).reduce((sum, count) => sum + count.calls, 0);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const feedBefore = callsOfFeed();
    await new Promise((resolve) => setTimeout(resolve, FEED_SECONDS * 1000));
    const feedPerHour = ((callsOfFeed() - feedBefore) * 3600) / FEED_SECONDS;
    clearInterval(mining);
    // One round of reads as the timer makes it once a minute: its calls, times 60.
    const before = service.costReaders.callCounts().get(CHAIN_ID) ?? 0;
    await service.costReaders.readAll();
    const perRound = (service.costReaders.callCounts().get(CHAIN_ID) ?? 0) - before;

    const costsUrl = `${service.url}/networks/${CHAIN_ID}/costs`;
    const busyUrl = `${service.url}/networks/${CHAIN_ID}/busyThreshold`;
    await rps(costsUrl, 1);
    await rps(busyUrl, 1);
    const busy = [await rps(busyUrl, LOAD_SECONDS)];
    const costs = [await rps(costsUrl, LOAD_SECONDS), await rps(costsUrl, LOAD_SECONDS)];
    busy.push(await rps(busyUrl, LOAD_SECONDS));
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    return [
      {
        name: "prices, L1 and operator fees: RPC calls per hour added to an OP-stack chain (feed + oracle, 4 action sizes and gas amounts, once a minute)",
        value: perRound * 60,
        unit: "calls/h",
        baselineName: `the chain feed's own calls per hour (a block every ${BLOCK_MS / 1000} s)`,
        baseline: feedPerHour,
        goal: "—",
      },
      {
        name: `prices: RPC calls to read back a week of a feed's rounds (${PAST_ROUNDS}, hourly) once at first start, with the first reads of price, L1 fee and blob schedule (in ${(pastReadMs / 1000).toFixed(1)} s, 32 calls a batch)`,
        value: pastCalls,
        unit: "calls",
        baselineName: "the chain feed's own calls per hour",
        baseline: feedPerHour,
        goal: "—",
      },
      {
        name: "costs: requests per second (10 connections)",
        value: mean(costs),
        unit: "req/s",
        baselineName: "busyThreshold, same service",
        baseline: mean(busy),
        goal: "—",
      },
    ];
  } finally {
    await service.stop();
    await node.stop();
  }
}
