import assert from "node:assert/strict";
import { test } from "node:test";
import { loadTimedMainnetBlocks } from "../demo/timedMainnetBlocks.ts";
import type { BackfillPage } from "./backfillPage.ts";
import { blocksIn, type BlockRange } from "./backfillRanges.ts";
import { BackfillSchedule } from "./backfillSchedule.ts";

const mainnet = loadTimedMainnetBlocks();
const HOUR = 3600;

/** A chain made of the timed mainnet blocks, numbered from `firstBlock`. */
function chainOf(firstBlock: bigint) {
  const newestBlock = firstBlock + BigInt(mainnet.timestamps.length - 1);
  const timestampOf = (block: bigint) => mainnet.timestamps[Number(block - firstBlock)]!;
  /** The page an honest endpoint answers for `range`: its fees and the timestamps of its two ends. */
  const pageOf = (range: BlockRange): BackfillPage => ({
    firstBlock: range.fromBlock,
    baseFeesWei: mainnet.baseFeesWei.slice(Number(range.fromBlock - firstBlock), Number(range.toBlock - firstBlock) + 1),
    anchors: [...new Set([range.fromBlock, range.toBlock])].map((block) => ({ block, timestamp: timestampOf(block) })),
  });
  return { firstBlock, newestBlock, timestampOf, pageOf, newest: { block: newestBlock, timestamp: timestampOf(newestBlock) } };
}

/**
 * Runs a backfill's schedule to its end with `workers` endpoints that each hold a page in flight and answer in turn,
 * the newest-taken last (pages come back out of order), and returns the pages fetched.
 */
function runToEnd(schedule: BackfillSchedule, pageOf: (range: BlockRange) => BackfillPage, workers: number): BlockRange[] {
  const fetched: BlockRange[] = [];
  for (let rounds = 0; rounds < 10_000; rounds++) {
    const taken: BlockRange[] = [];
    for (let worker = 0; worker < workers; worker++) {
      const range = schedule.take(1024);
      if (range) taken.push(range);
    }
    if (taken.length === 0) {
      assert.equal(schedule.pagesInFlight, 0);
      return fetched;
    }
    for (const range of taken.reverse()) {
      schedule.complete(range, pageOf(range));
      fetched.push(range);
    }
  }
  throw new Error("the schedule never ran out of pages");
}

for (const { guessSeconds, workers } of [
  { guessSeconds: 12, workers: 1 },
  { guessSeconds: 60, workers: 1 },
  { guessSeconds: 2, workers: 1 },
  { guessSeconds: 12, workers: 3 },
  { guessSeconds: 60, workers: 2 },
]) {
  test(`24 h of real mainnet blocks, guessing ${guessSeconds} s blocks, ${workers} endpoint(s): every block of the horizon, crossing it by at most one page each`, () => {
    const chain = chainOf(17_180_000n);
    const horizonStart = chain.newest.timestamp - 24 * HOUR;
    const schedule = new BackfillSchedule({
      heldRanges: [{ fromBlock: chain.newestBlock - 499n, toBlock: chain.newestBlock }],
      newest: chain.newest,
      anchors: [],
      horizonSeconds: 24 * HOUR,
      blockSpacingSeconds: guessSeconds,
      pageBlocks: 1024,
    });
    const fetched = runToEnd(schedule, chain.pageOf, workers);
    const plan = schedule.plan();
    assert.equal(plan.complete, true);
    assert.equal(plan.floorExact, true);
    // Every block from the newest one inside the horizon's start up to the live window is fetched, once.
    let firstInside = chain.newestBlock;
    while (chain.timestampOf(firstInside - 1n) >= horizonStart) firstInside--;
    const sorted = [...fetched].sort((a, b) => (a.fromBlock < b.fromBlock ? -1 : 1));
    for (let i = 1; i < sorted.length; i++) assert.equal(sorted[i]!.fromBlock, sorted[i - 1]!.toBlock + 1n, "no gap and no overlap between pages");
    assert.equal(sorted.at(-1)!.toBlock, chain.newestBlock - 500n);
    assert.ok(sorted[0]!.fromBlock < firstInside, "the oldest page crosses the horizon");
    assert.ok(chain.timestampOf(sorted[0]!.fromBlock) < horizonStart, "an exact anchor proves it");
    const beyond = fetched.filter((range) => chain.timestampOf(range.toBlock) < horizonStart);
    assert.ok(beyond.length <= workers - 1, `${beyond.length} pages lie wholly beyond the horizon`);
    assert.equal(
      schedule.blocksFetched,
      fetched.reduce((sum, range) => sum + blocksIn(range), 0),
    );
    const needed = Number(chain.newestBlock - 500n - firstInside + 1n);
    assert.ok(fetched.length <= Math.ceil(needed / 1024) + workers + 1, `${fetched.length} pages for ${needed} blocks`);
  });
}

test("a horizon longer than the chain: back to the genesis, and no further", () => {
  const chain = chainOf(0n);
  const schedule = new BackfillSchedule({
    heldRanges: [{ fromBlock: chain.newestBlock - 499n, toBlock: chain.newestBlock }],
    newest: chain.newest,
    anchors: [],
    horizonSeconds: 7 * 24 * HOUR,
    blockSpacingSeconds: 12,
    pageBlocks: 1024,
  });
  const fetched = runToEnd(schedule, chain.pageOf, 2);
  assert.equal(Math.min(...fetched.map((range) => Number(range.fromBlock))), 0);
  assert.equal(schedule.blocksFetched, mainnet.timestamps.length - 500);
  assert.equal(schedule.plan().complete, true);
});

test("a page shorter than taken (an endpoint's cap) leaves the rest of it to fetch; a released page is taken again", () => {
  const chain = chainOf(17_180_000n);
  const schedule = new BackfillSchedule({
    heldRanges: [{ fromBlock: chain.newestBlock - 499n, toBlock: chain.newestBlock }],
    newest: chain.newest,
    anchors: [],
    horizonSeconds: 6 * HOUR,
    blockSpacingSeconds: 12,
    pageBlocks: 1024,
  });
  const first = schedule.take(1024)!;
  assert.deepEqual(first, { fromBlock: chain.newestBlock - 500n - 1023n, toBlock: chain.newestBlock - 500n });
  schedule.complete(first, chain.pageOf({ fromBlock: first.toBlock - 99n, toBlock: first.toBlock }));
  const second = schedule.take(1024)!;
  assert.equal(second.toBlock, first.toBlock - 100n);
  schedule.release(second);
  assert.deepEqual(schedule.take(1024), second);
  assert.throws(() => schedule.complete(second, chain.pageOf({ fromBlock: second.fromBlock, toBlock: second.toBlock - 1n })), RangeError);
});
