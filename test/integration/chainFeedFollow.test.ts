import assert from "node:assert/strict";
import { after, test } from "node:test";
import { ChainFeed, type ChainFeedOptions } from "../../shared/rpc/chainFeed.ts";
import { startFaultProxy, type FaultProxy } from "../support/faultProxy.ts";
import { MAINNET_FEES_WEI, recordingLogger, sleep, startTestChain, waitFor, type TestChain } from "../support/feedHarness.ts";

const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function setup(blocks: number, options: { hardfork?: string } = {}): Promise<{ chain: TestChain; proxy: FaultProxy }> {
  const chain = await startTestChain(blocks, { chainId: 1, ...options });
  const proxy = await startFaultProxy(chain.node.url);
  cleanups.push(
    () => chain.node.stop(),
    () => proxy.close(),
  );
  return { chain, proxy };
}

function feed(options: Partial<ChainFeedOptions> & Pick<ChainFeedOptions, "rpcUrls">): ChainFeed {
  const created = new ChainFeed({ chainId: 1, blockTimeMs: 1000, windowBlocks: 500, logger: recordingLogger(), pollIntervalMs: 300, ...options });
  cleanups.push(() => created.stop());
  return created;
}

async function backfilled(chainFeed: ChainFeed, proxy: FaultProxy): Promise<void> {
  chainFeed.start();
  await waitFor(() => chainFeed.window.size > 0, "the backfill");
  proxy.resetCounts();
}

test("a new block reaches the window within one polling interval, exact, and polls that find nothing say nothing", async () => {
  const { chain, proxy } = await setup(600);
  let dataEvents = 0;
  const chainFeed = feed({ rpcUrls: [proxy.url], pollIntervalMs: 300, onData: () => dataEvents++ });
  await backfilled(chainFeed, proxy);
  const confirmedBefore = chainFeed.confirmedAt!;
  await sleep(700);
  assert.equal(dataEvents, 1, "no onData for polls that found nothing new");
  assert.ok(chainFeed.confirmedAt! > confirmedBefore, "confirmedAt moves on with each successful poll");
  for (let i = 0; i < 3; i++) {
    const block = await chain.mineFee(MAINNET_FEES_WEI[1000 + i]!);
    const elapsedMs = await waitFor(() => chainFeed.window.newestBlock === block, `block ${block}`);
    assert.ok(elapsedMs <= 300 + 250, `block ${block} took ${elapsedMs} ms`);
  }
  assert.equal(chainFeed.window.size, 500);
  assert.deepEqual(chainFeed.window.baseFeesWei, chain.fees(104n, 603n));
  assert.deepEqual(chainFeed.window.newest(3), MAINNET_FEES_WEI.slice(1000, 1003));
  assert.equal(dataEvents, 4);
  assert.deepEqual(Object.keys(proxy.counts()), ["eth_feeHistory"], "no eth_blockNumber, no chain id check while following");
});

test("steady state: at most one request per new block, and several blocks between polls arrive with no gap or duplicate", async () => {
  const { chain, proxy } = await setup(600);
  const chainFeed = feed({ rpcUrls: [proxy.url], pollIntervalMs: 250, blockTimeMs: 250 });
  await backfilled(chainFeed, proxy);
  const blocks = 8;
  for (let i = 0; i < blocks; i++) {
    await chain.mine(1);
    await sleep(250);
  }
  await waitFor(() => chainFeed.window.newestBlock === 608n, "block 608");
  const requests = proxy.total();
  assert.equal(proxy.count("eth_feeHistory"), requests, `only eth_feeHistory: ${JSON.stringify(proxy.counts())}`);
  assert.ok(requests <= blocks + 1, `${requests} requests for ${blocks} blocks`);
  // A burst: 45 blocks at once, more than one poll's usual reach.
  proxy.resetCounts();
  await chain.mine(45);
  await waitFor(() => chainFeed.window.newestBlock === 653n, "block 653");
  assert.deepEqual(chainFeed.window.baseFeesWei, chain.fees(154n, 653n));
  assert.ok(proxy.count("eth_feeHistory") <= 2, `${proxy.count("eth_feeHistory")} requests for the burst`);
});

test("a reorganised tip: the re-mined blocks' base fees replace the old ones within one poll", async () => {
  const { chain, proxy } = await setup(600);
  const chainFeed = feed({ rpcUrls: [proxy.url], pollIntervalMs: 300 });
  await backfilled(chainFeed, proxy);
  const snapshot = await chain.node.request<string>("evm_snapshot");
  await chain.mineFee(50_000_000_001n);
  await chain.mineFee(50_000_000_002n);
  await waitFor(() => chainFeed.window.newestBlock === 602n, "blocks 601 and 602");
  assert.deepEqual(chainFeed.window.newest(2), [50_000_000_001n, 50_000_000_002n]);
  assert.equal(await chain.node.request("evm_revert", [snapshot]), true);
  const replaced = [MAINNET_FEES_WEI[5000]!, MAINNET_FEES_WEI[5001]!];
  await chain.mineFee(replaced[0]!);
  await chain.mineFee(replaced[1]!);
  const elapsedMs = await waitFor(() => chainFeed.window.newest(2).every((fee, i) => fee === replaced[i]), "the re-mined fees");
  assert.ok(elapsedMs <= 300 + 250, `corrected after ${elapsedMs} ms`);
  assert.equal(chainFeed.window.newestBlock, 602n);
  assert.deepEqual(chainFeed.window.baseFeesWei, chain.fees(103n, 602n));
  assert.ok(!chainFeed.window.baseFeesWei.includes(50_000_000_001n) && !chainFeed.window.sortedBaseFeesWei.includes(50_000_000_002n));
});

test("a ws endpoint is followed through newHeads: each block at once, one eth_feeHistory per block", async () => {
  const { chain, proxy } = await setup(600);
  // Polling every minute: only the subscription can bring the blocks in time.
  const chainFeed = feed({ rpcUrls: [proxy.wsUrl], pollIntervalMs: 60_000, blockTimeMs: 12_000 });
  chainFeed.start();
  await waitFor(() => chainFeed.window.size > 0, "the backfill");
  assert.deepEqual(chainFeed.window.baseFeesWei, chain.fees(101n, 600n));
  await waitFor(() => proxy.count("eth_subscribe") === 1, "the subscription");
  assert.deepEqual(proxy.counts(), { eth_chainId: 1, eth_getBlockByNumber: 1, eth_subscribe: 1, eth_feeHistory: 1 });
  for (let i = 0; i < 4; i++) {
    const block = await chain.mine(1);
    const elapsedMs = await waitFor(() => chainFeed.window.newestBlock === block, `block ${block}`);
    assert.ok(elapsedMs < 1000, `block ${block} took ${elapsedMs} ms`);
  }
  assert.deepEqual(chainFeed.window.baseFeesWei, chain.fees(105n, 604n));
  assert.equal(proxy.count("eth_feeHistory"), 1 + 4);
  assert.deepEqual(
    chainFeed.endpoints().map((endpoint) => [endpoint.transport, endpoint.state, endpoint.active]),
    [["ws", "ok", true]],
  );
});

test("a chain without EIP-1559 (berlin) is noBaseFee: no fee request, no data, health reported", async () => {
  const { proxy } = await setup(5, { hardfork: "berlin" });
  let healthEvents = 0;
  const chainFeed = feed({ rpcUrls: [proxy.url], pollIntervalMs: 100, onHealth: () => healthEvents++ });
  chainFeed.start();
  await waitFor(() => chainFeed.noBaseFee, "noBaseFee");
  await sleep(400);
  assert.equal(chainFeed.window.size, 0);
  assert.equal(chainFeed.nextBaseFeeWei, undefined);
  assert.equal(chainFeed.degraded, false);
  assert.ok(healthEvents >= 1);
  assert.deepEqual(proxy.counts(), { eth_chainId: 1, eth_getBlockByNumber: 1 });
});

test("stop() resolves promptly, even with a request hanging, and nothing is requested after it", async () => {
  const { proxy } = await setup(600);
  const chainFeed = feed({ rpcUrls: [proxy.url], pollIntervalMs: 100 });
  await backfilled(chainFeed, proxy);
  proxy.setFaults({ delayMs: 5000 });
  await waitFor(() => proxy.count("eth_feeHistory") >= 1, "a hanging poll");
  const started = Date.now();
  await chainFeed.stop();
  assert.ok(Date.now() - started < 100);
  const countsAtStop = proxy.total();
  proxy.reset();
  await sleep(350);
  assert.equal(proxy.total(), countsAtStop);
  assert.equal(chainFeed.window.size, 500, "stopping keeps the data");
});
