// The history's backfill against a real Hardhat node replaying real mainnet blocks with their real timestamps
// (3-4 May 2023, 12 s slots and a missed one now and then), through counting and fault-injecting proxies.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { BackfillPage } from "../../shared/backfill/backfillPage.ts";
import { BlockRangeSet } from "../../shared/backfill/backfillRanges.ts";
import { BackfillRunner, type BackfillRunnerOptions, type BackfillTarget } from "../../shared/backfill/backfillRunner.ts";
import { startFaultProxy, type FaultProxy } from "../support/faultProxy.ts";
import { recordingLogger } from "../support/feedHarness.ts";
import { startTimedTestChain, type TimedTestChain } from "../support/timedTestChain.ts";

const HOUR = 3600;
/** About 10 hours of mainnet blocks. */
const BLOCKS = 3_000;

let chain: TimedTestChain;
const cleanups: (() => Promise<void>)[] = [];
before(async () => {
  chain = await startTimedTestChain(BLOCKS);
  cleanups.push(() => chain.node.stop());
});
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function proxy(): Promise<FaultProxy> {
  const started = await startFaultProxy(chain.node.url);
  cleanups.push(() => started.close());
  return started;
}

function runner(options: Partial<BackfillRunnerOptions> & Pick<BackfillRunnerOptions, "rpcUrls" | "onPage">): BackfillRunner {
  const created = new BackfillRunner({ chainId: 1, horizonSeconds: 6 * HOUR, blockTimeMs: 12_000, logger: recordingLogger(), ...options });
  cleanups.push(() => created.stop());
  return created;
}

/** The live feed's newest 500 blocks, with the newest one's exact timestamp. */
function liveWindow(): BackfillTarget {
  return {
    heldRanges: [{ fromBlock: chain.newestBlock - 499n, toBlock: chain.newestBlock }],
    newest: { block: chain.newestBlock, timestamp: chain.timestampOf(chain.newestBlock) },
  };
}

/** Every page's base fees are the replayed ones, and its two ends carry the real timestamps, exactly. */
function assertExact(pages: readonly BackfillPage[]): void {
  for (const page of pages) {
    const blocks = page.baseFeesWei.map((_, i) => page.firstBlock + BigInt(i));
    assert.deepEqual(page.baseFeesWei, blocks.map(chain.baseFeeOf), `the fees of the page from block ${page.firstBlock}`);
    assert.deepEqual(
      page.gasUsedRatios,
      blocks.map(() => 0),
      "replayed blocks are empty",
    );
    const ends = [...new Set([blocks[0]!, blocks.at(-1)!])];
    assert.deepEqual(
      page.anchors,
      ends.map((block) => ({ block, timestamp: chain.timestampOf(block) })),
      `the anchors of the page from block ${page.firstBlock}`,
    );
  }
}

function heldAfter(pages: readonly BackfillPage[]): BlockRangeSet {
  return new BlockRangeSet([
    ...liveWindow().heldRanges,
    ...pages.map((page) => ({ fromBlock: page.firstBlock, toBlock: page.firstBlock + BigInt(page.baseFeesWei.length) - 1n })),
  ]);
}

test("6 hours of replayed mainnet blocks at 2 calls/s: exact fees and timestamps, newest first, back across the horizon", { timeout: 120_000 }, async () => {
  const counting = await proxy();
  const pages: BackfillPage[] = [];
  const startedAt = performance.now();
  const outcome = await runner({ rpcUrls: [counting.url], onPage: (page) => void pages.push(page) }).run(liveWindow());
  const elapsedSeconds = (performance.now() - startedAt) / 1000;

  assertExact(pages);
  assert.equal(outcome.oldestReached, true);
  assert.ok(pages[0]!.firstBlock > pages[1]!.firstBlock, "newest first");
  const held = heldAfter(pages);
  assert.equal(held.ranges.length, 1, "no gap, no overlap");
  const horizonStart = chain.timestampOf(chain.newestBlock) - 6 * HOUR;
  let firstInside = chain.newestBlock;
  while (chain.timestampOf(firstInside - 1n) >= horizonStart) firstInside--;
  const oldest = held.ranges[0]!.fromBlock;
  assert.ok(oldest < firstInside && chain.timestampOf(oldest) < horizonStart, "the oldest page crosses the horizon, proven by its exact anchor");
  assert.ok(firstInside - oldest < 1024n, "by less than a page");
  // 1,782 blocks in these 6 hours (1,800 slots of 12 s, a few of them missed), 500 of them live: two pages.
  assert.equal(chain.newestBlock - firstInside + 1n, 1_782n);
  assert.deepEqual(counting.counts(), { eth_chainId: 1, eth_feeHistory: 2, eth_getBlockByNumber: 4 });
  assert.ok(counting.total() <= 2 * (Math.floor(elapsedSeconds) + 1), `${counting.total()} calls in ${elapsedSeconds.toFixed(1)} s`);
});

test("a horizon longer than the chain: back to the genesis, whose timestamp is Hardhat's initialDate", async () => {
  const pages: BackfillPage[] = [];
  const counting = await proxy();
  const outcome = await runner({
    rpcUrls: [counting.url],
    onPage: (page) => void pages.push(page),
    horizonSeconds: 7 * 24 * HOUR,
    requestsPerSecond: Number.POSITIVE_INFINITY,
  }).run(liveWindow());
  assertExact(pages);
  assert.deepEqual(heldAfter(pages).ranges, [{ fromBlock: 0n, toBlock: chain.newestBlock }]);
  assert.deepEqual(pages.at(-1)!.anchors[0], { block: 0n, timestamp: chain.timestampOf(1n) - 3600 });
  assert.equal(outcome.blocksFetched, BLOCKS + 1 - 500);
  assert.equal(outcome.pagesFetched, 3);
  assert.equal(outcome.oldestReached, true);
});

test("endpoints that refuse big pages (300 blocks at most) or cut them short (200) are learned, and every page still joins exactly", async () => {
  const refusing = await proxy();
  refusing.setFaults({ feeHistoryMaxBlocks: 300 });
  const truncating = await proxy();
  truncating.setFaults({ feeHistoryTruncateTo: 200 });
  // One source at a time: each endpoint fills a history of its own.
  for (const [endpoint, cap] of [
    [refusing, 300],
    [truncating, 200],
  ] as const) {
    const pages: BackfillPage[] = [];
    const outcome = await runner({
      rpcUrls: [endpoint.url],
      onPage: (page) => void pages.push(page),
      horizonSeconds: 7 * 24 * HOUR,
      requestsPerSecond: Number.POSITIVE_INFINITY,
    }).run(liveWindow());
    assertExact(pages);
    assert.deepEqual(heldAfter(pages).ranges, [{ fromBlock: 0n, toBlock: chain.newestBlock }]);
    assert.equal(outcome.oldestReached, true);
    assert.ok(pages.every((page) => page.baseFeesWei.length <= cap));
    assert.ok(endpoint.count("eth_feeHistory") >= 2, "it served pages");
  }
});

test("an endpoint answering 429 is backed off while the other one serves every page", { timeout: 120_000 }, async () => {
  const refusing = await proxy();
  refusing.setFaults({ mode: "http429" });
  const serving = await proxy();
  const pages: BackfillPage[] = [];
  const startedAt = performance.now();
  const outcome = await runner({ rpcUrls: [refusing.url, serving.url], onPage: (page) => void pages.push(page) }).run(liveWindow());
  const elapsedSeconds = (performance.now() - startedAt) / 1000;
  assertExact(pages);
  assert.equal(outcome.oldestReached, true);
  assert.equal(serving.count("eth_feeHistory"), 2);
  // Asked after 0, 1, 3, 7... seconds: the waits double.
  assert.ok(refusing.total() <= 1 + Math.ceil(Math.log2(elapsedSeconds + 1)), `${refusing.total()} calls in ${elapsedSeconds.toFixed(1)} s`);
});

test("over a WebSocket endpoint too: the same exact pages back to the genesis", async () => {
  const pages: BackfillPage[] = [];
  const outcome = await runner({
    rpcUrls: [chain.node.wsUrl],
    onPage: (page) => void pages.push(page),
    horizonSeconds: 7 * 24 * HOUR,
    requestsPerSecond: Number.POSITIVE_INFINITY,
  }).run(liveWindow());
  assertExact(pages);
  assert.deepEqual(heldAfter(pages).ranges, [{ fromBlock: 0n, toBlock: chain.newestBlock }]);
  assert.equal(outcome.requests, 1 + 3 * 3);
});
