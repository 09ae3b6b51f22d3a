import assert from "node:assert/strict";
import { after, test } from "node:test";
import { ChainFeed, type ChainFeedOptions, HEADERS_TO_LEARN } from "../../shared/rpc/feed/chainFeed.ts";
import type { FeedReport } from "../../shared/rpc/feed/feedReport.ts";
import { startFaultProxy, type FaultProxy } from "../support/faultProxy.ts";
import { FeedReports, recordingLogger, sleep, startScriptedEndpoint, startTestChain, type TestChain } from "../support/feedHarness.ts";
import { waitFor } from "../support/waitFor.ts";
import { startHostileRpcServer } from "../support/hostileRpcServer.ts";

// A feed not told its polling interval times its polls by the chain's blocks, reading the newest header with each
// poll's fees. No test here times the feed (how soon a block arrives belongs to `npm run bench -- freshness`): they
// check what it asks for, what its reports carry, and bounds that hold however loaded the machine is.

const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function setup(blocks: number): Promise<{ chain: TestChain; proxy: FaultProxy }> {
  const chain = await startTestChain(blocks, { chainId: 1 });
  const proxy = await startFaultProxy(chain.node.url);
  cleanups.push(
    () => chain.node.stop(),
    () => proxy.close(),
  );
  return { chain, proxy };
}

function feed(options: Partial<ChainFeedOptions> & Pick<ChainFeedOptions, "rpcUrls">): ChainFeed {
  const created = new ChainFeed({ chainId: 1, blockTimeMs: 1000, windowBlocks: 500, logger: recordingLogger(), ...options });
  cleanups.push(() => created.stop());
  return created;
}

interface Header {
  readonly number: string;
  readonly timestamp: string;
}

/** The node's own (block, timestamp) for each block in `from..to`. */
async function headersOf(chain: TestChain, from: bigint, to: bigint): Promise<Array<{ block: bigint; timestamp: number }>> {
  const headers: Array<{ block: bigint; timestamp: number }> = [];
  for (let block = from; block <= to; block++) {
    const header = await chain.node.request<Header>("eth_getBlockByNumber", [`0x${block.toString(16)}`, false]);
    headers.push({ block, timestamp: Number(BigInt(header.timestamp)) });
  }
  return headers;
}

/**
 * Mines `count` blocks in slots of `slotMs` (whole seconds), each stamped with its slot's start and mined 50 ms into
 * it, as a real chain does. The test chain's timestamps run ahead of the clock (its first blocks were mined at once),
 * so the stamps go on from its newest one: a constant offset, as between a chain's clock and a local one.
 */
async function mineSlots(chain: TestChain, count: number, slotMs: number): Promise<void> {
  const newest = await chain.node.request<Header>("eth_getBlockByNumber", ["latest", false]);
  const firstStamp = Number(BigInt(newest.timestamp)) + slotMs / 1000;
  const firstSlotAt = Date.now() + slotMs;
  for (let k = 0; k < count; k++) {
    await chain.node.request("evm_setNextBlockTimestamp", [`0x${(firstStamp + (k * slotMs) / 1000).toString(16)}`]);
    await sleep(firstSlotAt + k * slotMs + 50 - Date.now());
    await chain.mine(1);
  }
}

const anchorsOf = (reports: readonly FeedReport[]) => reports.flatMap((report) => report.anchors ?? []);

test("http polls read the newest header in the same batch as their fees while the rhythm is learned, then one in 16 blocks; each header goes out as the report's anchor", async () => {
  const { chain, proxy } = await setup(40);
  const reports = new FeedReports();
  const chainFeed = feed({ rpcUrls: [proxy.url], onReport: reports.onReport });
  chainFeed.start();
  const backfill = await reports.until((report) => report.snapshot !== undefined, "the backfill");
  // The endpoint's check read the newest header: the backfill's report carries it.
  assert.deepEqual(backfill.anchors, await headersOf(chain, 40n, 40n));
  assert.deepEqual(proxy.counts(), { eth_chainId: 1, eth_getBlockByNumber: 1, eth_feeHistory: 1 });
  proxy.resetCounts();

  await mineSlots(chain, 8, 1000);
  await reports.until((report) => report.snapshot?.newestBlock === 48n, "block 48");
  // While the rhythm is learned (HEADERS_TO_LEARN headers, the check's among them), polls ask for the header with the
  // fees (one batch each), and nothing else.
  const learning = proxy.counts();
  assert.deepEqual(Object.keys(learning).sort(), ["eth_feeHistory", "eth_getBlockByNumber"]);
  assert.ok(learning.eth_getBlockByNumber! >= HEADERS_TO_LEARN - 2 && learning.eth_getBlockByNumber! <= HEADERS_TO_LEARN - 1, JSON.stringify(learning));
  // The newest header of each poll that found a new block went out once, exactly as the node has it (a poll that
  // found two new blocks has the newer one's), in order.
  const anchors = anchorsOf(reports.all.slice(reports.all.indexOf(backfill) + 1));
  const headers = await headersOf(chain, 41n, 48n);
  assert.ok(anchors.length >= 2, `${anchors.length} anchors`);
  for (const anchor of anchors) assert.deepEqual(anchor, headers[Number(anchor.block - 41n)]);
  assert.ok(
    anchors.every((anchor, i) => i === 0 || anchor.block > anchors[i - 1]!.block),
    "each block once, in order",
  );
  assert.ok(reports.all.every((report) => Object.isFrozen(report.anchors)));

  // Then a header every HEADER_EVERY_BLOCKS blocks, each block still at the first poll after it.
  proxy.resetCounts();
  const reportsBefore = reports.all.length;
  await mineSlots(chain, 20, 1000);
  await reports.until((report) => report.snapshot?.newestBlock === 68n, "block 68");
  const following = proxy.counts();
  assert.ok(following.eth_feeHistory! >= 20, JSON.stringify(following));
  assert.ok((following.eth_getBlockByNumber ?? 0) >= 1 && (following.eth_getBlockByNumber ?? 0) <= 2, `headers for 20 blocks: ${JSON.stringify(following)}`);
  const later = anchorsOf(reports.all.slice(reportsBefore));
  const laterHeaders = await headersOf(chain, 49n, 68n);
  for (const anchor of later) assert.deepEqual(anchor, laterHeaders[Number(anchor.block - 49n)], "an anchor is a header the node has, never a guess");
});

test("however the blocks come, an http endpoint is never polled more than twice per block time; a stalled chain once per block time", async () => {
  const { chain, proxy } = await setup(40);
  const reports = new FeedReports();
  const chainFeed = feed({ rpcUrls: [proxy.url], onReport: reports.onReport });
  chainFeed.start();
  await reports.until((report) => report.snapshot !== undefined, "the backfill");
  proxy.resetCounts();
  const startedAt = Date.now();
  await mineSlots(chain, 12, 1000);
  await reports.until((report) => report.snapshot?.newestBlock === 52n, "block 52");
  const minedForMs = Date.now() - startedAt;
  const polled = proxy.count("eth_feeHistory");
  assert.ok(polled <= 2 * Math.ceil(minedForMs / 1000) + 1, `${polled} polls in ${minedForMs} ms of 1 s blocks`);
  // The chain stops: the feed keeps asking, without a busy loop.
  proxy.resetCounts();
  const stoppedAt = Date.now();
  await sleep(5000);
  const stoppedForMs = Date.now() - stoppedAt;
  const asked = proxy.count("eth_feeHistory");
  assert.ok(asked >= 1, "it keeps asking");
  assert.ok(asked <= 2 * Math.ceil(stoppedForMs / 1000) + 1, `${asked} polls in ${stoppedForMs} ms of a stalled chain`);
});

test("ws: each newHeads notification's header goes out as an anchor with the blocks it announced", async () => {
  const { chain } = await setup(40);
  const reports = new FeedReports();
  const chainFeed = feed({ rpcUrls: [chain.node.wsUrl], onReport: reports.onReport });
  chainFeed.start();
  const backfill = await reports.until((report) => report.snapshot !== undefined, "the backfill");
  await chain.mine(1);
  await chain.mine(1);
  await chain.mine(1);
  await reports.until((report) => report.snapshot?.newestBlock === 43n, "block 43");
  await waitFor("block 43's anchor", () => anchorsOf(reports.all).some((anchor) => anchor.block === 43n));
  assert.deepEqual(anchorsOf(reports.all.slice(reports.all.indexOf(backfill) + 1)), await headersOf(chain, 41n, 43n));
});

test("an endpoint that answers no batches is followed on its fees alone, said once", async () => {
  // The synthetic endpoint answers single calls only: it reads a batch as one call of no method, and refuses it.
  const server = await startHostileRpcServer({ chainId: 1 });
  const proxy = await startFaultProxy(server.httpUrl);
  cleanups.push(
    () => server.close(),
    () => proxy.close(),
  );
  const logger = recordingLogger();
  const reports = new FeedReports();
  const chainFeed = feed({ rpcUrls: [proxy.url], logger, onReport: reports.onReport });
  chainFeed.start();
  await reports.until((report) => report.snapshot !== undefined, "the backfill");
  server.mine(2);
  await reports.until((report) => report.snapshot?.newestBlock === server.head, "the new blocks");
  await waitFor("more polls", () => proxy.count("eth_feeHistory") >= 5);
  // The endpoint's check (1), then the one batch tried (1): every later poll asks for the fees alone.
  assert.equal(proxy.count("eth_getBlockByNumber"), 2);
  assert.equal(chainFeed.report.phase, "ok");
  assert.equal(chainFeed.report.endpoints[0]!.state, "ok");
  assert.equal(logger.lines.filter((line) => line.includes("answers no JSON-RPC batches")).length, 1);
});

test("a header from far in the future is no anchor, and the feed follows the chain all the same", async () => {
  const endpoint = await startScriptedEndpoint({
    eth_chainId: { result: "0x1" },
    // An hour ahead of the local clock: not believed.
    eth_getBlockByNumber: { result: { number: "0x1f3", timestamp: `0x${(Math.floor(Date.now() / 1000) + 3600).toString(16)}`, baseFeePerGas: "0x3b9aca00" } },
    eth_feeHistory: { result: { oldestBlock: "0x0", baseFeePerGas: Array(501).fill("0x3b9aca00"), gasUsedRatio: Array(500).fill(0.5) } },
  });
  cleanups.push(() => endpoint.close());
  const logger = recordingLogger();
  const reports = new FeedReports();
  feed({ rpcUrls: [endpoint.url], logger, onReport: reports.onReport }).start();
  const backfill = await reports.until((report) => report.snapshot !== undefined, "the backfill");
  assert.equal(backfill.snapshot!.newestBlock, 499n);
  assert.deepEqual(backfill.anchors, []);
  assert.equal(logger.lines.filter((line) => /block 499's timestamp \d+ from http:\/\/127\.0\.0\.1:\d+ is not believed/.test(line)).length, 1);
});
