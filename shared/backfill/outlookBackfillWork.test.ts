import assert from "node:assert/strict";
import { test } from "node:test";
import { HOUR_SECONDS } from "../core/outlook/hourlySummary.ts";
import { summarizeHour } from "../core/outlook/summarizeHour.ts";
import { OutlookBackfillWork, type OutlookBackfillWorkOptions } from "./outlookBackfillWork.ts";

const HOUR = HOUR_SECONDS;
// A 12 s chain: block n at 1,700,000,008 + 12 n (300 blocks an hour); the history's oldest block 100,000.
const timeOf = (block: bigint) => 1_700_000_008 + 12 * Number(block);
const FLOOR = { block: 100_000n, timestamp: timeOf(100_000n) };
const TO = Math.floor(FLOOR.timestamp / HOUR) * HOUR;

function work(options: Partial<OutlookBackfillWorkOptions> = {}): OutlookBackfillWork {
  return new OutlookBackfillWork({ floor: FLOOR, spanSeconds: 4 * HOUR, mode: "every", blockSpacingSeconds: 12, pageBlocks: 1_024, heldHours: [], ...options });
}

/** The chain's page of `fromBlock..toBlock`, anchored at both ends. */
function page(fromBlock: bigint, toBlock: bigint) {
  const baseFeesWei: bigint[] = [];
  for (let block = fromBlock; block <= toBlock; block++) baseFeesWei.push(1_000n + block);
  return { firstBlock: fromBlock, baseFeesWei, anchors: [fromBlock, toBlock].map((block) => ({ block, timestamp: timeOf(block) })) };
}

test("the hours wanted are the span's whole hours before the history's oldest hour, newest first, less those held", () => {
  assert.deepEqual(work().hoursWanted, [TO - HOUR, TO - 2 * HOUR, TO - 3 * HOUR, TO - 4 * HOUR]);
  const held = [
    { start: TO - HOUR, sampled: false },
    { start: TO - 3 * HOUR, sampled: true },
  ];
  // A sampled hour is read again where every block can be read, not where only a sample can.
  assert.deepEqual(work({ heldHours: held }).hoursWanted, [TO - 2 * HOUR, TO - 3 * HOUR, TO - 4 * HOUR]);
  assert.deepEqual(work({ heldHours: held, mode: "sampled" }).hoursWanted, [TO - 2 * HOUR, TO - 4 * HOUR]);
  assert.deepEqual(work({ floor: { block: 0n, timestamp: timeOf(0n) } }).hoursWanted, [], "nothing before the genesis");
});

test("every block: pages walk down from the block below the history; an hour is summarised once a page reaches below it", () => {
  const outlook = work({ spanSeconds: 2 * HOUR });
  const first = outlook.take(1_000)!;
  assert.deepEqual(first, { fromBlock: FLOOR.block - 1_000n, toBlock: FLOOR.block - 1n });
  const firstDone = outlook.keep(page(first.fromBlock, first.toBlock), "a");
  outlook.complete(first, page(first.fromBlock, first.toBlock));
  // 1,000 blocks are 3.3 hours: the part of the history's hour, the two hours wanted, and more.
  const expected = (start: number) => {
    const fees: bigint[] = [];
    for (let block = 0n; block < FLOOR.block; block++) if (timeOf(block) >= start && timeOf(block) < start + HOUR) fees.push(1_000n + block);
    return summarizeHour(start, fees);
  };
  assert.deepEqual(firstDone, [expected(TO - HOUR), expected(TO - 2 * HOUR)]);
  assert.equal(outlook.take(1_000), undefined, "done");
  assert.equal(outlook.hoursDone, 2);
  assert.equal(outlook.plan().complete, true);
  // The seam the next page would be judged at: the history's oldest block's fee, and the edges read.
  assert.deepEqual(
    outlook.heldFeeAt(FLOOR.block, () => ({ baseFeeWei: 7n, source: undefined })),
    { baseFeeWei: 7n, source: undefined },
  );
});

test("sampled: one page aimed at the middle of each hour, newest first; the blocks in the hour make its summary", () => {
  const outlook = work({ mode: "sampled", spanSeconds: 2 * HOUR });
  const taken = outlook.take(100)!;
  const middle = TO - HOUR / 2;
  assert.ok(timeOf(taken.fromBlock) < middle && timeOf(taken.toBlock) >= middle, "aimed at the hour's middle");
  const [summary] = outlook.keep(page(taken.fromBlock, taken.toBlock), "a");
  outlook.complete(taken, page(taken.fromBlock, taken.toBlock));
  assert.equal(summary!.start, TO - HOUR);
  assert.equal(summary!.sampled, true);
  assert.equal(summary!.blocks, 100);
  const next = outlook.take(100)!;
  assert.ok(timeOf(next.fromBlock) >= TO - 2 * HOUR && timeOf(next.toBlock) < TO - HOUR, "the next hour's page lies inside it");
});

test("every block: the history's oldest hour is made whole from the blocks read below the floor and the history's above it", () => {
  const floorHourFees: bigint[] = [];
  for (let block = FLOOR.block; timeOf(block) < TO + HOUR; block++) floorHourFees.push(1_000n + block);
  const outlook = work({ spanSeconds: 2 * HOUR, floorHourFees });
  assert.deepEqual(outlook.hoursWanted, [TO - HOUR, TO - 2 * HOUR], "an extra, not one of the hours wanted");
  const taken = outlook.take(1_000)!;
  const done = outlook.keep(page(taken.fromBlock, taken.toBlock), "a");
  const fees: bigint[] = [];
  for (let block = 0n; timeOf(block) < TO + HOUR; block++) if (timeOf(block) >= TO) fees.push(1_000n + block);
  assert.deepEqual(done[0], summarizeHour(TO, fees));
  assert.equal(done[0].blocks, 300);
  assert.deepEqual(
    done.map((summary) => summary.start),
    [TO, TO - HOUR, TO - 2 * HOUR],
  );
  assert.equal(outlook.hoursDone, 2);
  // Held whole already: left alone.
  assert.equal(work({ spanSeconds: 2 * HOUR, floorHourFees, heldHours: [{ start: TO, sampled: false }] }).plan().missing.length, 1);
  const again = work({ spanSeconds: 2 * HOUR, floorHourFees, heldHours: [{ start: TO, sampled: false }] });
  const first = again.take(1_000)!;
  assert.deepEqual(
    again.keep(page(first.fromBlock, first.toBlock), "a").map((summary) => summary.start),
    [TO - HOUR, TO - 2 * HOUR],
  );
});
