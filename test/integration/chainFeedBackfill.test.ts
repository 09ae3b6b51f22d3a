import assert from "node:assert/strict";
import { after, test } from "node:test";
import { ChainFeed, type ChainFeedOptions } from "../../shared/rpc/chainFeed.ts";
import { startFaultProxy, type FaultProxy } from "../support/faultProxy.ts";
import { recordingLogger, startTestChain, waitFor, type TestChain } from "../support/feedHarness.ts";

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

test("backfill: the newest 500 real mainnet base fees, oldest first, exact, with one eth_feeHistory", async () => {
  const { chain, proxy } = await setup(600);
  let dataEvents = 0;
  const chainFeed = feed({ rpcUrls: [proxy.url], onData: () => dataEvents++ });
  chainFeed.start();
  await waitFor(() => chainFeed.window.size > 0, "the backfill");
  assert.equal(chainFeed.window.oldestBlock, 101n);
  assert.equal(chainFeed.window.newestBlock, 600n);
  assert.deepEqual(chainFeed.window.baseFeesWei, chain.fees(101n, 600n));
  // Block 101 carries mainnet block 17,180,100's fee (the CSV's row 17180100,77317597731).
  assert.equal(chainFeed.window.baseFeesWei[0], 77_317_597_731n);
  // Hardhat's next base fee after an empty block: 7/8 of the last (EIP-1559), as eth_feeHistory reports it.
  assert.equal(chainFeed.nextBaseFeeWei, (chain.feesWei[600]! * 7n) / 8n);
  assert.deepEqual(proxy.counts(), { eth_chainId: 1, eth_getBlockByNumber: 1, eth_feeHistory: 1 });
  assert.equal(dataEvents, 1);
  assert.ok(chainFeed.confirmedAt! <= Date.now() && chainFeed.confirmedAt! > Date.now() - 5000);
  assert.deepEqual(chainFeed.endpoints(), [{ url: proxy.url, transport: "http", state: "ok", active: true, reportedChainId: 1 }]);
  assert.equal(chainFeed.degraded, false);
  assert.equal(chainFeed.noBaseFee, false);
});

test("a chain younger than 500 blocks: every block it has, from genesis, in one request", async () => {
  const { chain, proxy } = await setup(120);
  const chainFeed = feed({ rpcUrls: [proxy.url] });
  chainFeed.start();
  await waitFor(() => chainFeed.window.size > 0, "the backfill");
  assert.equal(chainFeed.window.oldestBlock, 0n);
  assert.equal(chainFeed.window.size, 121);
  assert.deepEqual(chainFeed.window.baseFeesWei, chain.fees(0n, 120n));
  assert.equal(chainFeed.window.baseFeesWei[0], 1_000_000_000n);
  assert.equal(proxy.count("eth_feeHistory"), 1);
});

test("a 1000-block statistics window from an endpoint capped at 300 blocks: split requests, cap remembered, no gap", async () => {
  const { chain, proxy } = await setup(1200);
  proxy.setFaults({ feeHistoryMaxBlocks: 300 });
  const chainFeed = feed({ rpcUrls: [proxy.url], windowBlocks: 1000, pollIntervalMs: 100, blockTimeMs: 1000 });
  chainFeed.start();
  await waitFor(() => chainFeed.window.size > 0, "the backfill");
  assert.equal(chainFeed.window.oldestBlock, 201n);
  assert.equal(chainFeed.window.newestBlock, 1200n);
  assert.deepEqual(chainFeed.window.baseFeesWei, chain.fees(201n, 1200n));
  // One refused (1000 > 300), then 300 + 300 + 300 + 100.
  assert.equal(proxy.count("eth_feeHistory"), 5);
  proxy.resetCounts();
  await chain.mine(2);
  await waitFor(() => chainFeed.window.newestBlock === 1202n, "the next blocks");
  assert.deepEqual(chainFeed.window.baseFeesWei, chain.fees(203n, 1202n));
  // The remembered cap keeps polls under it: no refused request.
  const polls = proxy.count("eth_feeHistory");
  assert.ok(polls >= 1 && polls <= 3, `${polls} polls`);
});

test("an endpoint that silently answers fewer blocks than asked (as geth truncates) is walked back to fill the window", async () => {
  const { chain, proxy } = await setup(700);
  proxy.setFaults({ feeHistoryTruncateTo: 128 });
  const chainFeed = feed({ rpcUrls: [proxy.url] });
  chainFeed.start();
  await waitFor(() => chainFeed.window.size > 0, "the backfill");
  assert.equal(chainFeed.window.oldestBlock, 201n);
  assert.deepEqual(chainFeed.window.baseFeesWei, chain.fees(201n, 700n));
  // 128 (short: the cap is learnt) + 128 + 128 + 116.
  assert.equal(proxy.count("eth_feeHistory"), 4);
});
