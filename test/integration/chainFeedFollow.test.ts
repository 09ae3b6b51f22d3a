import assert from "node:assert/strict";
import { after, test } from "node:test";
import { ChainFeed, type ChainFeedOptions } from "../../shared/rpc/feed/chainFeed.ts";
import { startFaultProxy, type FaultProxy } from "../support/faultProxy.ts";
import { FeedReports, MAINNET_FEES_WEI, recordingLogger, sleep, startTestChain, type TestChain } from "../support/feedHarness.ts";
import { waitFor } from "../support/waitFor.ts";
import type { SeenReport } from "../support/feedHarness.ts";
import { expectedPercentile } from "../support/independentFees.ts";

// No test here times the feed: each counts the requests a counting proxy saw and waits for the feed's reports.
// How fast the feed is belongs to `npm run bench -- feed`.

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

/** Reports that record the proxy's eth_feeHistory count at each one. */
function countingReports(proxy: FaultProxy): FeedReports {
  return new FeedReports({ countRequests: () => proxy.count("eth_feeHistory") });
}

/** Starts the feed, waits for the backfill and resets the proxy's counts (no request is under way then). */
async function backfilled(chainFeed: ChainFeed, reports: FeedReports, proxy: FaultProxy): Promise<SeenReport> {
  chainFeed.start();
  const backfill = await reports.until((report) => report.snapshot !== undefined, "the backfill");
  proxy.resetCounts();
  return backfill;
}

/**
 * Waits for the report carrying `block` and says how many eth_feeHistory requests the proxy had seen by then since
 * `mined` (its count once the block was mined): 1 when the first poll after the block brought it, 0 when a poll
 * already under way did, more when a poll missed it.
 */
async function pollsUntilBlock(reports: FeedReports, block: bigint, mined: number): Promise<{ report: SeenReport; polls: number }> {
  const report = await reports.until((candidate) => candidate.snapshot?.newestBlock === block, `block ${block}`);
  return { report, polls: reports.requestsAt(report) - mined };
}

test("a new block reaches the data at the first poll after it is mined, exact, and polls that find nothing say nothing", async () => {
  const { chain, proxy } = await setup(600);
  const reports = countingReports(proxy);
  const chainFeed = feed({ rpcUrls: [proxy.url], pollIntervalMs: 300, onReport: reports.onReport });
  const backfill = await backfilled(chainFeed, reports, proxy);
  // Two polls that find nothing new say nothing: no report, so the data's time stays the backfill's (it is not new).
  await waitFor("two polls after the backfill", () => proxy.count("eth_feeHistory") >= 2);
  assert.deepEqual(reports.all, [backfill], "no report for polls that found nothing new");
  for (let i = 0; i < 3; i++) {
    const block = await chain.mineFee(MAINNET_FEES_WEI[1000 + i]!);
    const { polls } = await pollsUntilBlock(reports, block, proxy.count("eth_feeHistory"));
    assert.ok(polls <= 1, `block ${block} came ${polls} polls after it was mined`);
  }
  const { snapshot } = reports.latest!;
  assert.equal(snapshot!.historyWei.length, 500);
  assert.deepEqual(snapshot!.historyWei, chain.fees(104n, 603n));
  assert.deepEqual(snapshot!.historyWei.slice(-3), MAINNET_FEES_WEI.slice(1000, 1003));
  assert.equal(reports.all.filter((report) => report.changed.blocks).length, 4);
  assert.ok(
    reports.all.every((report, i) => i === 0 || report.newDataAt! > reports.all[i - 1]!.newDataAt!),
    "each report's data time is that of its new blocks",
  );
  assert.deepEqual(Object.keys(proxy.counts()), ["eth_feeHistory"], "no eth_blockNumber, no chain id check while following");
});

test("steady state: one request per poll, each block at the first poll after it, and several blocks between polls arrive with no gap or duplicate", async () => {
  const { chain, proxy } = await setup(600);
  const reports = countingReports(proxy);
  const chainFeed = feed({ rpcUrls: [proxy.url], pollIntervalMs: 250, blockTimeMs: 250, onReport: reports.onReport });
  const backfill = await backfilled(chainFeed, reports, proxy);
  const blocks = 8;
  let last = backfill;
  for (let i = 0; i < blocks; i++) {
    const block = await chain.mine(1);
    const { report, polls } = await pollsUntilBlock(reports, block, proxy.count("eth_feeHistory"));
    assert.ok(polls <= 1, `block ${block} came ${polls} polls after it was mined`);
    last = report;
  }
  assert.deepEqual(last.snapshot!.historyWei, chain.fees(109n, 608n));
  // A block a poll: each poll that brought its block published a report, so requests per report is requests per poll.
  const requests = reports.requestsAt(last);
  const polls = reports.between(backfill, last);
  assert.equal(proxy.count("eth_feeHistory"), proxy.total(), `only eth_feeHistory: ${JSON.stringify(proxy.counts())}`);
  assert.ok(requests <= polls, `${requests} requests for ${polls} polls`);
  // Several blocks between two polls.
  const three = await pollsUntilBlock(reports, await chain.mine(3), proxy.count("eth_feeHistory"));
  assert.ok(three.polls <= 1, `3 blocks came ${three.polls} polls after they were mined`);
  assert.deepEqual(three.report.snapshot!.historyWei, chain.fees(112n, 611n));
  // A burst: 45 blocks at once, more than a poll asks for (the blocks due and a small overlap): the poll that meets it
  // walks back once for the rest, no gap. (The count is read once the 45 blocks are mined: polls while they are being
  // mined may bring some of them.)
  const burst = await pollsUntilBlock(reports, await chain.mine(45), proxy.count("eth_feeHistory"));
  assert.equal(burst.report.snapshot!.newestBlock, 656n);
  assert.deepEqual(burst.report.snapshot!.historyWei, chain.fees(157n, 656n));
  const burstRequests = reports.requestsAt(burst.report) - reports.requestsAt(three.report);
  const burstPolls = reports.between(three.report, burst.report);
  assert.ok(burstRequests <= burstPolls + 1, `${burstRequests} requests for the burst in ${burstPolls} polls`);
  assert.ok(burst.polls <= 2, `the burst's last blocks came ${burst.polls} eth_feeHistory calls (a poll and its walk back) after they were mined`);
});

test("a reorganised tip: the re-mined blocks' base fees replace the old ones at the first poll after them, statistics included", async () => {
  const { chain, proxy } = await setup(600);
  const reports = countingReports(proxy);
  const chainFeed = feed({ rpcUrls: [proxy.url], pollIntervalMs: 300, onReport: reports.onReport });
  await backfilled(chainFeed, reports, proxy);
  const snapshot = await chain.node.request<string>("evm_snapshot");
  // The second abandoned fee is far above any real one, so that a statistic still counting it would show it.
  const abandoned = [50_000_000_001n, 5_000_000_000_002n];
  await chain.mineFee(abandoned[0]!);
  await chain.mineFee(abandoned[1]!);
  const forked = await reports.until((report) => report.snapshot?.newestBlock === 602n, "blocks 601 and 602");
  assert.deepEqual(forked.snapshot!.historyWei.slice(-2), abandoned);
  assert.equal(forked.snapshot!.maxWei, abandoned[1]);
  assert.equal(await chain.node.request("evm_revert", [snapshot]), true);
  const replaced = [MAINNET_FEES_WEI[5000]!, MAINNET_FEES_WEI[5001]!];
  await chain.mineFee(replaced[0]!);
  await chain.mineFee(replaced[1]!);
  const mined = proxy.count("eth_feeHistory");
  const corrected = await reports.until((report) => report.snapshot!.historyWei.slice(-2).every((fee, i) => fee === replaced[i]), "the re-mined fees");
  const polls = reports.requestsAt(corrected) - mined;
  assert.ok(polls <= 1, `corrected ${polls} polls after the re-mining`);
  const history = corrected.snapshot!.historyWei;
  assert.equal(corrected.snapshot!.newestBlock, 602n);
  assert.deepEqual(history, chain.fees(103n, 602n));
  assert.ok(!history.includes(abandoned[0]!) && !history.includes(abandoned[1]!));
  const sorted = [...history].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  assert.deepEqual(
    [corrected.snapshot!.minWei, corrected.snapshot!.maxWei, corrected.snapshot!.baseFeePercentileWei, corrected.snapshot!.busyThresholdWei],
    [sorted[0], sorted[sorted.length - 1], expectedPercentile(history, 50), expectedPercentile(history, 90)],
    "the statistics forget the abandoned fees",
  );
});

test("a ws endpoint is followed through newHeads: each block at once, one eth_feeHistory per block", async () => {
  const { chain, proxy } = await setup(600);
  const reports = countingReports(proxy);
  // Polling every minute (a ws endpoint is polled every 3 minutes then): only the subscription can bring the
  // blocks before `until` gives up.
  const chainFeed = feed({ rpcUrls: [proxy.wsUrl], pollIntervalMs: 60_000, blockTimeMs: 12_000, onReport: reports.onReport });
  chainFeed.start();
  const backfill = await reports.until((report) => report.snapshot !== undefined, "the backfill");
  assert.deepEqual(backfill.snapshot!.historyWei, chain.fees(101n, 600n));
  await waitFor("the subscription", () => proxy.count("eth_subscribe") === 1);
  assert.deepEqual(proxy.counts(), { eth_chainId: 1, eth_getBlockByNumber: 1, eth_subscribe: 1, eth_feeHistory: 1 });
  for (let i = 0; i < 4; i++) {
    const block = await chain.mine(1);
    const { polls } = await pollsUntilBlock(reports, block, proxy.count("eth_feeHistory"));
    assert.ok(polls <= 1, `block ${block} took ${polls} eth_feeHistory requests`);
  }
  assert.deepEqual(reports.latest!.snapshot!.historyWei, chain.fees(105n, 604n));
  assert.equal(proxy.count("eth_feeHistory"), 1 + 4);
  assert.deepEqual(
    chainFeed.report.endpoints.map((endpoint) => [endpoint.transport, endpoint.state, endpoint.active]),
    [["ws", "ok", true]],
  );
});

test("a chain without EIP-1559 (berlin) is no-base-fee: no fee request, no data, health reported", async () => {
  const { proxy } = await setup(5, { hardfork: "berlin" });
  const reports = countingReports(proxy);
  const chainFeed = feed({ rpcUrls: [proxy.url], pollIntervalMs: 100, onReport: reports.onReport });
  chainFeed.start();
  await reports.until((report) => report.phase === "no-base-fee", "no-base-fee");
  // Were it followed, it would be polled several times meanwhile.
  await sleep(400);
  assert.equal(chainFeed.report.newestBlock, undefined);
  assert.equal(chainFeed.report.phase, "no-base-fee");
  assert.ok(reports.all.filter((report) => report.changed.health).length >= 1);
  assert.ok(reports.all.every((report) => !report.changed.blocks));
  assert.deepEqual(proxy.counts(), { eth_chainId: 1, eth_getBlockByNumber: 1 });
});

test("stop() resolves without waiting for a request that hangs, and nothing is requested or reported after it", { timeout: 60_000 }, async () => {
  const { proxy } = await setup(600);
  const reports = countingReports(proxy);
  // The hanging answer and the request timeout are both ten minutes: a stop() that waited for either would fail
  // this test by its timeout.
  const chainFeed = feed({ rpcUrls: [proxy.url], pollIntervalMs: 100, requestTimeoutMs: 600_000, onReport: reports.onReport });
  await backfilled(chainFeed, reports, proxy);
  proxy.setFaults({ delayMs: 600_000 });
  await waitFor("a hanging poll", () => proxy.count("eth_feeHistory") >= 1);
  const reportsAtStop = reports.all.length;
  await chainFeed.stop();
  const countsAtStop = proxy.total();
  proxy.reset();
  // Several polling intervals.
  await sleep(350);
  assert.equal(proxy.total(), countsAtStop);
  assert.equal(reports.all.length, reportsAtStop, "no report after stop()");
  assert.equal(reports.latest!.snapshot!.historyWei.length, 500, "stopping keeps the data");
});
