import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { after, test } from "node:test";
import { ChainFeed, type ChainFeedOptions } from "../../shared/rpc/feed/chainFeed.ts";
import { startFaultProxy, type FaultMode, type FaultProxy } from "../support/faultProxy.ts";
import { FeedReports, recordingLogger, startScriptedEndpoint, startTestChain, type TestChain } from "../support/feedHarness.ts";
import { waitFor } from "../support/waitFor.ts";

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
  const reports = new FeedReports();
  const chainFeed = feed({ rpcUrls: [wrong.url, good.url], logger, onReport: reports.onReport });
  chainFeed.start();
  const backfill = await reports.until((report) => report.snapshot !== undefined, "the backfill");
  assert.deepEqual(backfill.snapshot!.historyWei, chain.fees(101n, 600n));
  await chain.mine(2);
  await reports.until((report) => report.snapshot?.newestBlock === 602n, "block 602");
  assert.deepEqual(wrong.counts(), { eth_chainId: 1 }, "only asked for its chain id, never for data");
  assert.equal(good.count("eth_chainId"), 1);
  const [wrongStatus, goodStatus] = chainFeed.report.endpoints;
  assert.equal(wrongStatus!.state, "wrong-chain");
  assert.equal(wrongStatus!.reportedChainId, 5);
  assert.equal(wrongStatus!.active, false);
  assert.match(wrongStatus!.lastError!, /serves chain 5, not chain 1/);
  assert.equal(goodStatus!.state, "ok");
  assert.equal(goodStatus!.active, true);
  assert.equal(chainFeed.report.phase, "ok");
  assert.equal(logger.lines.filter((line) => /error .*serves chain 5, not chain 1/.test(line)).length, 1);
});

test("with only wrong-chain endpoints the chain holds no data and is unreachable, and the log says once that no endpoint answers", async () => {
  const { proxies } = await setup(600, 2);
  for (const proxy of proxies) proxy.setFaults({ chainId: 137 });
  const logger = recordingLogger();
  const reports = new FeedReports();
  const chainFeed = feed({ rpcUrls: proxies.map((proxy) => proxy.url), logger, onReport: reports.onReport });
  chainFeed.start();
  await reports.until((report) => report.phase === "unreachable", "unreachable");
  // Each endpoint checked again after its wait, and found serving chain 137 again.
  await waitFor("a second check of each endpoint", () => proxies.every((proxy) => proxy.count("eth_chainId") >= 2));
  const { report } = chainFeed;
  assert.equal(report.phase, "unreachable");
  assert.equal(report.newestBlock, undefined);
  assert.equal(report.newDataAt, undefined);
  assert.ok(
    reports.all.every((each) => each.phase !== "degraded"),
    "never degraded: it had no data to serve",
  );
  for (const proxy of proxies) assert.equal(proxy.count("eth_feeHistory") + proxy.count("eth_getBlockByNumber"), 0);
  assert.deepEqual(
    report.endpoints.map((endpoint) => endpoint.state),
    ["wrong-chain", "wrong-chain"],
  );
  const said = logger.lines.filter((line) => line.includes("no RPC endpoint answers"));
  assert.equal(said.length, 1, said.join(""));
  assert.match(said[0]!, /error +chain 1: no RPC endpoint answers \(2 tried; last: http:\/\/127\.0\.0\.1:\d+ serves chain 137\); no data until one does\n$/);
  assert.ok(!logger.lines.some((line) => line.includes("serving the")), "no data held, so none served");
});

for (const mode of ["down", "http500", "http429", "malformed", "wrong-shape", "absurd-fees"] satisfies FaultMode[]) {
  test(`the only endpoint ${mode}: data kept, degraded, then caught up with no gap once it recovers`, async () => {
    const { chain, proxies } = await setup(600);
    const proxy = proxies[0]!;
    const logger = recordingLogger();
    const reports = new FeedReports();
    const chainFeed = feed({ rpcUrls: [proxy.url], logger, onReport: reports.onReport });
    const startedAt = Date.now();
    chainFeed.start();
    const backfill = await reports.until((report) => report.snapshot !== undefined, "the backfill");
    const held = backfill.snapshot!;
    proxy.setFaults({ mode });
    await chain.mine(30);
    const degraded = await reports.until((report) => report.phase === "degraded", "degraded");
    assert.equal(degraded.snapshot, held, "the data held is kept, unchanged (garbage never becomes data)");
    assert.equal(degraded.snapshot.newestBlock, 600n);
    assert.deepEqual(degraded.snapshot.historyWei, chain.fees(101n, 600n));
    assert.equal(degraded.newDataAt, backfill.newDataAt);
    const [status] = degraded.endpoints;
    assert.equal(status!.state, "failing");
    assert.equal(status!.active, false);
    // It failed after the start and before this report: its retry is at least the shortest wait (100 ms) after the
    // start, and at most the longest (400 ms) after the report.
    assert.ok(status!.retryAt! >= startedAt + 100 && status!.retryAt! <= reports.arrivedAt(degraded) + 400, "backs off, briefly");
    assert.ok(status!.lastError && status!.lastError.length > 0);
    assert.ok(reports.all.filter((report) => report.changed.health).length >= 2);
    const said = logger.lines.filter((line) => line.includes("every RPC endpoint is failing"));
    assert.equal(said.length, 1, said.join(""));
    assert.match(said[0]!, /warn +chain 1: every RPC endpoint is failing; serving the 500 blocks held until one answers/);
    assert.ok(!logger.lines.some((line) => line.includes("no RPC endpoint answers")), "it had data");
    const chainIdChecks = proxy.count("eth_chainId");
    proxy.reset();
    const caughtUp = await reports.until((report) => report.snapshot?.newestBlock === 630n && report.phase === "ok", "the catch-up");
    assert.deepEqual(caughtUp.snapshot!.historyWei, chain.fees(131n, 630n));
    assert.equal(caughtUp.snapshot!.historyWei.length, 500);
    assert.ok(proxy.count("eth_chainId") > chainIdChecks, "the chain id is checked again after recovery");
    assert.equal(chainFeed.report.endpoints[0]!.state, "ok");
  });
}

test("failover: a timing-out primary hands over to the secondary with no gap, and is used again once it recovers", async () => {
  const { chain, proxies } = await setup(600, 2);
  const [primary, secondary] = proxies as [FaultProxy, FaultProxy];
  const reports = new FeedReports();
  const chainFeed = feed({ rpcUrls: [primary.url, secondary.url], requestTimeoutMs: 300, onReport: reports.onReport });
  chainFeed.start();
  await reports.until((report) => report.snapshot !== undefined, "the backfill");
  assert.equal(secondary.total(), 0, "the secondary is not touched while the primary answers");
  primary.setFaults({ delayMs: 2000 });
  await chain.mine(3);
  await reports.until((report) => report.snapshot?.newestBlock === 603n, "block 603 through the secondary");
  assert.deepEqual(
    chainFeed.report.endpoints.map((endpoint) => [endpoint.state, endpoint.active]),
    [
      ["failing", false],
      ["ok", true],
    ],
  );
  assert.match(chainFeed.report.endpoints[0]!.lastError!, /timed out/);
  assert.equal(chainFeed.report.phase, "ok", "one endpoint still answers");
  primary.reset();
  await reports.until((report) => report.endpoints[0]!.active, "back on the primary");
  await chain.mine(2);
  const caughtUp = await reports.until((report) => report.snapshot?.newestBlock === 605n, "block 605");
  assert.deepEqual(caughtUp.snapshot!.historyWei, chain.fees(106n, 605n));
});

test("URLs are redacted in endpoint statuses and logs, and a chain that never had data says that no endpoint answers", async () => {
  const { proxies } = await setup(10);
  const secretUrl = `${proxies[0]!.url}/v3/abcdef0123456789abcdef0123456789`;
  const logger = recordingLogger();
  proxies[0]!.setFaults({ mode: "http500" });
  const reports = new FeedReports();
  const chainFeed = feed({ rpcUrls: [secretUrl], logger, onReport: reports.onReport });
  chainFeed.start();
  await reports.until((report) => report.phase === "unreachable", "unreachable");
  const [status] = chainFeed.report.endpoints;
  assert.equal(status!.url, `${proxies[0]!.url}/…`);
  assert.ok(!JSON.stringify(reports.all).includes("abcdef0123456789"));
  assert.ok(logger.lines.length > 0 && logger.lines.every((line) => !line.includes("abcdef0123456789")));
  const said = logger.lines.filter((line) => line.includes("no RPC endpoint answers"));
  assert.equal(said.length, 1, said.join(""));
  // The chain's line is short: the cause in a few words; the whole error is in the failure's debug line.
  assert.ok(
    said[0]!.endsWith(`chain 1: no RPC endpoint answers (1 tried; last: ${proxies[0]!.url}/…: HTTP 500 "Internal Server Error"); no data until one does\n`),
    said[0],
  );
  assert.ok(
    logger.lines.some(
      (line) => /debug +chain 1: RPC endpoint .* failed; retrying/.test(line) && line.includes(`eth_chainId at ${proxies[0]!.url}/… failed: HTTP 500`),
    ),
    logger.lines.join(""),
  );
});

test("a ws endpoint whose socket drops: degraded meanwhile, then reconnected, resubscribed and caught up with no gap", async () => {
  const { chain, proxies } = await setup(600);
  const proxy = proxies[0]!;
  const reports = new FeedReports();
  const chainFeed = feed({ rpcUrls: [proxy.wsUrl], pollIntervalMs: 60_000, blockTimeMs: 12_000, onReport: reports.onReport });
  chainFeed.start();
  await reports.until((report) => report.snapshot !== undefined, "the backfill");
  await waitFor("the subscription", () => proxy.count("eth_subscribe") === 1);
  proxy.setFaults({ mode: "down" });
  await reports.until((report) => report.phase === "degraded", "degraded");
  await chain.mine(20);
  assert.equal(chainFeed.report.newestBlock, 600n);
  proxy.reset();
  await reports.until((report) => report.snapshot?.newestBlock === 620n, "the catch-up");
  await waitFor("the new subscription", () => proxy.count("eth_subscribe") === 2);
  const block = await chain.mine(1);
  // A ws endpoint is polled every 3 minutes here: only the new subscription brings the head before `until` gives up.
  const head = await reports.until((report) => report.snapshot?.newestBlock === block, "a head on the new subscription");
  assert.deepEqual(head.snapshot!.historyWei, chain.fees(122n, 621n));
  assert.equal(chainFeed.report.phase, "ok");
});

test("an endpoint whose eth_feeHistory fails is retried with a growing wait, though it passes the chain id and block checks", async () => {
  const endpoint = await startScriptedEndpoint({
    eth_chainId: { result: "0x1" },
    eth_getBlockByNumber: { result: { number: "0x10", baseFeePerGas: "0x3b9aca00" } },
    eth_feeHistory: { error: { code: -32601, message: "the method eth_feeHistory does not exist/is not available" } },
  });
  cleanups.push(() => endpoint.close());
  const backoff = { initialMs: 50, maxMs: 800 };
  const chainFeed = feed({ rpcUrls: [endpoint.url], backoff, pollIntervalMs: 50 });
  chainFeed.start();
  const attempts = 7;
  await waitFor(`${attempts} eth_feeHistory attempts`, () => endpoint.arrivals("eth_feeHistory").length >= attempts, 30_000);
  const arrivals = endpoint.arrivals("eth_feeHistory").slice(0, attempts);
  const waitsMs = arrivals.slice(1).map((at, i) => at - arrivals[i]!);
  // Each failure doubles the wait before the next attempt (50, 100, 200, 400, 800, 800 ms): passing the cheap checks
  // of the background probe does not count as serving the feed. 5 ms of slack for timer rounding, never more.
  const expectedMs = waitsMs.map((_, i) => Math.min(backoff.maxMs, backoff.initialMs * 2 ** i));
  waitsMs.forEach((waitMs, i) =>
    assert.ok(waitMs >= expectedMs[i]! - 5, `wait ${i + 1} was ${waitMs} ms, expected at least ${expectedMs[i]} ms: ${JSON.stringify(waitsMs)}`),
  );
  // The probe still checks the endpoint before each attempt.
  assert.ok(endpoint.arrivals("eth_chainId").length >= attempts - 1);
});

test("an endpoint answering 429 with Retry-After is left alone as long as it asks, longer than the feed's own backoff", async () => {
  // Every call refused with HTTP 429 and Retry-After: 1; the feed's own backoff would ask again after 50, then 100 ms.
  const arrivals: number[] = [];
  const server = createServer((request, response) => {
    arrivals.push(Date.now());
    request.resume();
    request.on("end", () => response.writeHead(429, { "content-type": "text/plain", "retry-after": "1" }).end("Too Many Requests"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const reports = new FeedReports();
  const chainFeed = feed({ rpcUrls: [url], backoff: { initialMs: 50, maxMs: 5_000 }, onReport: reports.onReport });
  chainFeed.start();
  const failing = await reports.until((report) => report.endpoints[0]!.state === "failing", "the endpoint failing");
  const [status] = failing.endpoints;
  assert.match(status!.lastError!, /HTTP 429/);
  assert.ok(status!.retryAt! >= arrivals[0]! + 1_000, `retried at ${status!.retryAt! - arrivals[0]!} ms after the refusal, not after the 1 s it asked`);
  await waitFor("two more attempts", () => arrivals.length >= 3, 10_000);
  const waitsMs = arrivals.slice(1, 3).map((at, i) => at - arrivals[i]!);
  waitsMs.forEach((waitMs, i) => assert.ok(waitMs >= 1_000 - 5, `wait ${i + 1} was ${waitMs} ms, the endpoint asked for 1 s: ${JSON.stringify(waitsMs)}`));
});
