import assert from "node:assert/strict";
import { after, test } from "node:test";
import { ChainFeed, type ChainFeedOptions } from "../../shared/rpc/chainFeed.ts";
import { startFaultProxy, type FaultMode, type FaultProxy } from "../support/faultProxy.ts";
import { recordingLogger, sleep, startTestChain, waitFor, type TestChain } from "../support/feedHarness.ts";

const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function setup(blocks: number, proxies = 1): Promise<{ chain: TestChain; proxies: FaultProxy[] }> {
  const chain = await startTestChain(blocks, { chainId: 1 });
  cleanups.push(() => chain.node.stop());
  const started: FaultProxy[] = [];
  for (let i = 0; i < proxies; i++) {
    const proxy = await startFaultProxy(chain.node.url);
    cleanups.push(() => proxy.close());
    started.push(proxy);
  }
  return { chain, proxies: started };
}

function feed(options: Partial<ChainFeedOptions> & Pick<ChainFeedOptions, "rpcUrls">): ChainFeed {
  const created = new ChainFeed({
    chainId: 1,
    blockTimeMs: 1000,
    windowBlocks: 500,
    logger: recordingLogger(),
    pollIntervalMs: 150,
    requestTimeoutMs: 400,
    backoff: { initialMs: 100, maxMs: 400 },
    ...options,
  });
  cleanups.push(() => created.stop());
  return created;
}

test("an endpoint reporting another chain id is never used; the feed fails over to the next one", async () => {
  const { chain, proxies } = await setup(600, 2);
  const [wrong, good] = proxies as [FaultProxy, FaultProxy];
  wrong.setFaults({ chainId: 5 });
  const logger = recordingLogger();
  const chainFeed = feed({ rpcUrls: [wrong.url, good.url], logger });
  chainFeed.start();
  await waitFor(() => chainFeed.window.size > 0, "the backfill");
  assert.deepEqual(chainFeed.window.baseFeesWei, chain.fees(101n, 600n));
  await chain.mine(2);
  await waitFor(() => chainFeed.window.newestBlock === 602n, "block 602");
  assert.deepEqual(wrong.counts(), { eth_chainId: 1 }, "only asked for its chain id, never for data");
  assert.equal(good.count("eth_chainId"), 1);
  const [wrongStatus, goodStatus] = chainFeed.endpoints();
  assert.equal(wrongStatus!.state, "wrong-chain");
  assert.equal(wrongStatus!.reportedChainId, 5);
  assert.equal(wrongStatus!.active, false);
  assert.match(wrongStatus!.lastError!, /serves chain 5, not chain 1/);
  assert.equal(goodStatus!.state, "ok");
  assert.equal(goodStatus!.active, true);
  assert.equal(chainFeed.degraded, false);
  assert.equal(logger.lines.filter((line) => /error .*serves chain 5, not chain 1/.test(line)).length, 1);
});

test("with only wrong-chain endpoints the chain holds no data and is degraded", async () => {
  const { proxies } = await setup(600, 2);
  for (const proxy of proxies) proxy.setFaults({ chainId: 137 });
  const chainFeed = feed({ rpcUrls: proxies.map((proxy) => proxy.url) });
  chainFeed.start();
  await waitFor(() => chainFeed.degraded, "degraded");
  await sleep(300);
  assert.equal(chainFeed.window.size, 0);
  assert.equal(chainFeed.confirmedAt, undefined);
  for (const proxy of proxies) assert.equal(proxy.count("eth_feeHistory") + proxy.count("eth_getBlockByNumber"), 0);
  assert.deepEqual(
    chainFeed.endpoints().map((endpoint) => endpoint.state),
    ["wrong-chain", "wrong-chain"],
  );
});

for (const mode of ["down", "http500", "http429", "malformed", "wrong-shape", "absurd-fees"] satisfies FaultMode[]) {
  test(`the only endpoint ${mode}: data kept, degraded, then caught up with no gap once it recovers`, async () => {
    const { chain, proxies } = await setup(600);
    const proxy = proxies[0]!;
    let healthEvents = 0;
    const chainFeed = feed({ rpcUrls: [proxy.url], onHealth: () => healthEvents++ });
    chainFeed.start();
    await waitFor(() => chainFeed.window.size > 0, "the backfill");
    const held = [...chainFeed.window.baseFeesWei];
    const confirmedAt = chainFeed.confirmedAt;
    proxy.setFaults({ mode });
    await chain.mine(30);
    await waitFor(() => chainFeed.degraded, "degraded");
    assert.deepEqual(chainFeed.window.baseFeesWei, held, "the data held is kept, unchanged (garbage never becomes data)");
    assert.equal(chainFeed.window.newestBlock, 600n);
    assert.equal(chainFeed.confirmedAt, confirmedAt);
    const [status] = chainFeed.endpoints();
    assert.equal(status!.state, "failing");
    assert.equal(status!.active, false);
    assert.ok(status!.retryAt! > Date.now() - 1000 && status!.retryAt! <= Date.now() + 400, "backs off, briefly");
    assert.ok(status!.lastError && status!.lastError.length > 0);
    assert.ok(healthEvents >= 2);
    const chainIdChecks = proxy.count("eth_chainId");
    proxy.reset();
    await waitFor(() => chainFeed.window.newestBlock === 630n && !chainFeed.degraded, "the catch-up", 3000);
    assert.deepEqual(chainFeed.window.baseFeesWei, chain.fees(131n, 630n));
    assert.equal(chainFeed.window.size, 500);
    assert.ok(proxy.count("eth_chainId") > chainIdChecks, "the chain id is checked again after recovery");
    assert.equal(chainFeed.endpoints()[0]!.state, "ok");
  });
}

test("failover: a timing-out primary hands over to the secondary with no gap, and is used again once it recovers", async () => {
  const { chain, proxies } = await setup(600, 2);
  const [primary, secondary] = proxies as [FaultProxy, FaultProxy];
  const chainFeed = feed({ rpcUrls: [primary.url, secondary.url], requestTimeoutMs: 300 });
  chainFeed.start();
  await waitFor(() => chainFeed.window.size > 0, "the backfill");
  assert.equal(secondary.total(), 0, "the secondary is not touched while the primary answers");
  primary.setFaults({ delayMs: 2000 });
  await chain.mine(3);
  await waitFor(() => chainFeed.window.newestBlock === 603n, "block 603 through the secondary", 3000);
  assert.deepEqual(
    chainFeed.endpoints().map((endpoint) => [endpoint.state, endpoint.active]),
    [
      ["failing", false],
      ["ok", true],
    ],
  );
  assert.match(chainFeed.endpoints()[0]!.lastError!, /timed out/);
  assert.equal(chainFeed.degraded, false, "one endpoint still answers");
  primary.reset();
  await waitFor(() => chainFeed.endpoints()[0]!.active, "back on the primary", 3000);
  await chain.mine(2);
  await waitFor(() => chainFeed.window.newestBlock === 605n, "block 605");
  assert.deepEqual(chainFeed.window.baseFeesWei, chain.fees(106n, 605n));
});

test("URLs are redacted in endpoint statuses and logs", async () => {
  const { proxies } = await setup(10);
  const secretUrl = `${proxies[0]!.url}/v3/abcdef0123456789abcdef0123456789`;
  const logger = recordingLogger();
  proxies[0]!.setFaults({ mode: "http500" });
  const chainFeed = feed({ rpcUrls: [secretUrl], logger });
  chainFeed.start();
  await waitFor(() => chainFeed.degraded, "degraded");
  const [status] = chainFeed.endpoints();
  assert.equal(status!.url, `${proxies[0]!.url}/v3/***`);
  assert.ok(!JSON.stringify(chainFeed.endpoints()).includes("abcdef0123456789"));
  assert.ok(logger.lines.length > 0 && logger.lines.every((line) => !line.includes("abcdef0123456789")));
});

test("a ws endpoint whose socket drops: degraded meanwhile, then reconnected, resubscribed and caught up with no gap", async () => {
  const { chain, proxies } = await setup(600);
  const proxy = proxies[0]!;
  const chainFeed = feed({ rpcUrls: [proxy.wsUrl], pollIntervalMs: 60_000, blockTimeMs: 12_000 });
  chainFeed.start();
  await waitFor(() => chainFeed.window.size > 0 && proxy.count("eth_subscribe") === 1, "the backfill and subscription");
  proxy.setFaults({ mode: "down" });
  await waitFor(() => chainFeed.degraded, "degraded");
  await chain.mine(20);
  assert.equal(chainFeed.window.newestBlock, 600n);
  proxy.reset();
  await waitFor(() => chainFeed.window.newestBlock === 620n, "the catch-up", 3000);
  await waitFor(() => proxy.count("eth_subscribe") === 2, "the new subscription");
  const block = await chain.mine(1);
  await waitFor(() => chainFeed.window.newestBlock === block, "a head on the new subscription", 1000);
  assert.deepEqual(chainFeed.window.baseFeesWei, chain.fees(122n, 621n));
  assert.equal(chainFeed.degraded, false);
});
