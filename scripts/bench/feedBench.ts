// How many RPC requests following a chain costs, and how soon the first data arrives, against baselines
// measured in the same run through the same counting proxy and the same real Hardhat node.
import { createPublicClient, http } from "viem";
import { hardhat } from "viem/chains";
import { ChainFeed } from "../../shared/rpc/feed/chainFeed.ts";
import { silentLogger } from "../../shared/log/logger.ts";
import { startFaultProxy } from "../../test/support/faultProxy.ts";
import { startTestChain } from "../../test/support/feedHarness.ts";
import type { BenchRow } from "./benchRow.ts";

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runFeedBench(runs = 5, newBlocks = 50, blockIntervalMs = 250): Promise<BenchRow[]> {
  const chain = await startTestChain(600);
  const proxy = await startFaultProxy(chain.node.url);
  try {
    // The service: a 500-block backfill, timed from start() to the first data.
    const backfillRequests: number[] = [];
    const startupRequests: number[] = [];
    const firstDataMs: number[] = [];
    for (let run = 0; run < runs; run++) {
      proxy.resetCounts();
      const startedAt = performance.now();
      let firstData: () => void = () => {};
      const arrived = new Promise<void>((resolve) => (firstData = resolve));
      const feed = new ChainFeed({
        chainId: 31337,
        rpcUrls: [proxy.url],
        blockTimeMs: 60_000,
        windowBlocks: 500,
        logger: silentLogger,
        onReport: (report) => {
          if (report.newestBlock !== undefined) firstData();
        },
      });
      feed.start();
      await arrived;
      firstDataMs.push(performance.now() - startedAt);
      await feed.stop();
      backfillRequests.push(proxy.counts().eth_feeHistory ?? 0);
      startupRequests.push(proxy.total());
    }

    // Baseline: what a plain viem client does to get the same 500 base fees, one eth_getBlockByNumber per block.
    const naiveMs: number[] = [];
    let naiveRequests = 0;
    const client = createPublicClient({ chain: hardhat, transport: http(proxy.url) });
    for (let run = 0; run < runs; run++) {
      proxy.resetCounts();
      const startedAt = performance.now();
      const newest = await client.getBlockNumber({ cacheTime: 0 });
      for (let block = newest - 499n; block <= newest; block++) await client.getBlock({ blockNumber: block });
      naiveMs.push(performance.now() - startedAt);
      naiveRequests = proxy.total();
    }

    // Following 50 new blocks, one every blockIntervalMs, polled at the same interval.
    proxy.resetCounts();
    const feed = new ChainFeed({
      chainId: 31337,
      rpcUrls: [proxy.url],
      blockTimeMs: blockIntervalMs,
      pollIntervalMs: blockIntervalMs,
      windowBlocks: 500,
      logger: silentLogger,
    });
    feed.start();
    while (feed.report.newestBlock !== chain.newestBlock) await sleep(10);
    proxy.resetCounts();
    for (let block = 0; block < newBlocks; block++) {
      await chain.mine(1);
      await sleep(blockIntervalMs);
    }
    while (feed.report.newestBlock !== chain.newestBlock) await sleep(10);
    const followRequests = proxy.total();
    await feed.stop();

    // Baseline: viem's own watchBlocks, polling at the same interval, over the same number of new blocks.
    let seen = 0;
    const unwatch = client.watchBlocks({ pollingInterval: blockIntervalMs, onBlock: () => void seen++ });
    await sleep(2 * blockIntervalMs);
    proxy.resetCounts();
    seen = 0;
    for (let block = 0; block < newBlocks; block++) {
      await chain.mine(1);
      await sleep(blockIntervalMs);
    }
    await sleep(2 * blockIntervalMs);
    unwatch();
    const watchRequests = proxy.total();

    return [
      {
        name: "eth_feeHistory requests for a 500-block backfill",
        value: median(backfillRequests),
        unit: "requests",
        baselineName: "viem getBlock per block",
        baseline: naiveRequests,
        goal: "1",
      },
      {
        name: "RPC requests from start to first data, all methods (incl. the endpoint's chain id and base-fee checks)",
        value: median(startupRequests),
        unit: "requests",
        baselineName: "viem getBlock per block",
        baseline: naiveRequests,
        goal: "—",
      },
      {
        name: "time from start to first data (500 blocks)",
        value: median(firstDataMs),
        unit: "ms",
        baselineName: "viem getBlock per block",
        baseline: median(naiveMs),
        goal: "—",
      },
      {
        name: `RPC requests per new block (${newBlocks} blocks, one chain)`,
        value: followRequests / newBlocks,
        unit: "requests/block",
        baselineName: `viem watchBlocks (${seen} blocks seen)`,
        baseline: watchRequests / newBlocks,
        goal: "≤ 1",
      },
    ];
  } finally {
    await proxy.close();
    await chain.node.stop();
  }
}
