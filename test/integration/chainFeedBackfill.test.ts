import assert from "node:assert/strict";
import { after, test } from "node:test";
import { ChainFeed, type ChainFeedOptions } from "../../shared/rpc/feed/chainFeed.ts";
import { fetchBaseFees, type FeeHistoryLimit } from "../../shared/rpc/feed/fetchBaseFees.ts";
import { createRpcConnection } from "../../shared/rpc/connection/rpcConnection.ts";
import { startFaultProxy, type FaultProxy } from "../support/faultProxy.ts";
import { FeedReports, recordingLogger, startTestChain, type TestChain } from "../support/feedHarness.ts";
import { expectedPercentile } from "../support/independentFees.ts";

const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function setup(blocks: number, chainId = 1): Promise<{ chain: TestChain; proxy: FaultProxy }> {
  const chain = await startTestChain(blocks, { chainId });
  const proxy = await startFaultProxy(chain.node.url);
  cleanups.push(
    () => chain.node.stop(),
    () => proxy.close(),
  );
  return { chain, proxy };
}

function feed(options: Partial<ChainFeedOptions> & Pick<ChainFeedOptions, "rpcUrls">): ChainFeed {
  const created = new ChainFeed({ chainId: 1, blockTimeMs: 12_000, windowBlocks: 500, logger: recordingLogger(), pollIntervalMs: 60_000, ...options });
  cleanups.push(() => created.stop());
  return created;
}

/** The statistics a snapshot carries, computed here from the raw fees without the project's fee code. */
function statisticsOf(feesWei: readonly bigint[]) {
  const sorted = [...feesWei].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    baseFeePercentileWei: expectedPercentile(feesWei, 50),
    busyThresholdWei: expectedPercentile(feesWei, 90),
    minWei: sorted[0],
    maxWei: sorted[sorted.length - 1],
  };
}

test("backfill: the newest 500 real mainnet base fees, oldest first, exact, with one eth_feeHistory", async () => {
  const { chain, proxy } = await setup(600);
  const reports = new FeedReports();
  const chainFeed = feed({ rpcUrls: [proxy.url], onReport: reports.onReport });
  const startedAt = Date.now();
  chainFeed.start();
  const report = await reports.until((r) => r.snapshot !== undefined, "the backfill");
  const snapshot = report.snapshot!;
  assert.equal(snapshot.newestBlock, 600n);
  assert.deepEqual(snapshot.historyWei, chain.fees(101n, 600n));
  // Block 101 carries mainnet block 17,180,100's fee (the CSV's row 17180100,77317597731).
  assert.equal(snapshot.historyWei[0], 77_317_597_731n);
  // Hardhat's next base fee after an empty block: 7/8 of the last (EIP-1559), as eth_feeHistory reports it.
  assert.equal(snapshot.currentBaseFeeWei, (chain.feesWei[600]! * 7n) / 8n);
  assert.deepEqual(proxy.counts(), { eth_chainId: 1, eth_getBlockByNumber: 1, eth_feeHistory: 1 });
  assert.equal(reports.all.length, 1, "one report: the data and the endpoint's health together");
  assert.deepEqual(report.changed, { blocks: true, health: true });
  assert.ok(report.newDataAt! >= startedAt && report.newDataAt! <= Date.now());
  assert.deepEqual(report.endpoints, [{ url: proxy.url, transport: "http", state: "ok", active: true, reportedChainId: 1 }]);
  assert.equal(report.phase, "ok");
  assert.equal(report.chainId, 1);
  assert.equal(chainFeed.report.blocks, report.blocks, "the feed's newest report is the one handed on");
  assert.ok(Object.isFrozen(report) && Object.isFrozen(report.changed) && Object.isFrozen(report.endpoints) && Object.isFrozen(report.endpoints[0]));
  assert.deepEqual(
    report.blocks.map((blocks) => [blocks.firstBlock, blocks.baseFeesWei]),
    [[101n, chain.fees(101n, 600n)]],
    "the report carries the blocks themselves",
  );
  assert.ok(Object.isFrozen(report.blocks) && Object.isFrozen(report.blocks[0]) && Object.isFrozen(report.blocks[0]!.baseFeesWei));
});

test("a chain younger than 500 blocks: every block it has, from genesis, in one request", async () => {
  const { chain, proxy } = await setup(120);
  const reports = new FeedReports();
  const chainFeed = feed({ rpcUrls: [proxy.url], onReport: reports.onReport });
  chainFeed.start();
  const { snapshot } = await reports.until((r) => r.snapshot !== undefined, "the backfill");
  assert.equal(snapshot!.newestBlock, 120n);
  assert.equal(snapshot!.historyWei.length, 121);
  assert.deepEqual(snapshot!.historyWei, chain.fees(0n, 120n));
  assert.equal(snapshot!.historyWei[0], 1_000_000_000n);
  assert.equal(proxy.count("eth_feeHistory"), 1);
});

test("a 1000-block statistics window from an endpoint capped at 300 blocks: split requests, cap remembered, no gap", async () => {
  const { chain, proxy } = await setup(1200);
  proxy.setFaults({ feeHistoryMaxBlocks: 300 });
  // The test's data tells a 1000-block window from a 500-block one by its statistics.
  assert.notDeepEqual(statisticsOf(chain.fees(201n, 1200n)), statisticsOf(chain.fees(701n, 1200n)));
  const reports = new FeedReports({ windowBlocks: 1000 });
  const chainFeed = feed({ rpcUrls: [proxy.url], windowBlocks: 1000, pollIntervalMs: 100, blockTimeMs: 1000, onReport: reports.onReport });
  chainFeed.start();
  const { snapshot } = await reports.until((r) => r.snapshot !== undefined, "the backfill");
  assert.equal(snapshot!.newestBlock, 1200n);
  assert.deepEqual(snapshot!.historyWei, chain.fees(701n, 1200n));
  assert.deepEqual(statisticsOf(chain.fees(201n, 1200n)), {
    baseFeePercentileWei: snapshot!.baseFeePercentileWei,
    busyThresholdWei: snapshot!.busyThresholdWei,
    minWei: snapshot!.minWei,
    maxWei: snapshot!.maxWei,
  });
  // One refused (1000 > 300), then 300 + 300 + 300 + 100.
  assert.equal(proxy.count("eth_feeHistory"), 5);
  proxy.resetCounts();
  await chain.mine(2);
  const next = await reports.until((r) => r.snapshot?.newestBlock === 1202n, "the next blocks");
  assert.deepEqual(next.snapshot!.historyWei, chain.fees(703n, 1202n));
  assert.deepEqual(statisticsOf(chain.fees(203n, 1202n)), {
    baseFeePercentileWei: next.snapshot!.baseFeePercentileWei,
    busyThresholdWei: next.snapshot!.busyThresholdWei,
    minWei: next.snapshot!.minWei,
    maxWei: next.snapshot!.maxWei,
  });
  // The remembered cap keeps polls under it: no refused request.
  const polls = proxy.count("eth_feeHistory");
  assert.ok(polls >= 1 && polls <= 3, `${polls} polls`);
});

test("the split requests of a 1000-block backfill through an endpoint capped at 300 blocks join exactly, block by block", async () => {
  // The feed publishes the newest 500 blocks and the window's statistics; here are all 1000 blocks it is made of.
  const { chain, proxy } = await setup(1200);
  proxy.setFaults({ feeHistoryMaxBlocks: 300 });
  let maxBlocks = Number.POSITIVE_INFINITY;
  const limit: FeeHistoryLimit = {
    get maxBlocks() {
      return maxBlocks;
    },
    lower: (blocks) => void (maxBlocks = Math.min(maxBlocks, blocks)),
  };
  const connection = createRpcConnection(proxy.url, { timeoutMs: 10_000 });
  const answer = await fetchBaseFees(connection, { maxBlocks: 1000, firstRequestBlocks: 1000 }, limit);
  connection.close();
  assert.equal(answer.oldestBlock, 201n);
  assert.deepEqual(answer.baseFeesWei, chain.fees(201n, 1200n));
  assert.equal(maxBlocks, 300, "the cap is learnt");
  assert.equal(proxy.count("eth_feeHistory"), 5);
});

test("an endpoint that silently answers fewer blocks than asked (as geth truncates) is walked back to fill the window", async () => {
  const { chain, proxy } = await setup(700);
  proxy.setFaults({ feeHistoryTruncateTo: 128 });
  const reports = new FeedReports();
  const chainFeed = feed({ rpcUrls: [proxy.url], onReport: reports.onReport });
  chainFeed.start();
  const { snapshot } = await reports.until((r) => r.snapshot !== undefined, "the backfill");
  assert.equal(snapshot!.newestBlock, 700n);
  assert.deepEqual(snapshot!.historyWei, chain.fees(201n, 700n));
  // 128 (short: the cap is learnt) + 128 + 128 + 116.
  assert.equal(proxy.count("eth_feeHistory"), 4);
});
