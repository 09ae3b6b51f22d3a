import assert from "node:assert/strict";
import { test } from "node:test";
import { BackfillAnchors } from "./backfillAnchors.ts";
import { newestPage, pagesOf, planBackfill, spacingSeconds, type BackfillPlanInputs } from "./backfillPlan.ts";
import { BlockRangeSet } from "./backfillRanges.ts";

const range = (fromBlock: number, toBlock: number) => ({ fromBlock: BigInt(fromBlock), toBlock: BigInt(toBlock) });
const anchor = (block: number, timestamp: number) => ({ block: BigInt(block), timestamp });
const DAY = 86_400;
const WEEK = 7 * DAY;
const N = 20_000_000;
const T = 1_700_000_000;

function inputs(
  overrides: Partial<BackfillPlanInputs> & { heldRanges?: ReturnType<typeof range>[]; knownAnchors?: ReturnType<typeof anchor>[] },
): BackfillPlanInputs {
  const { heldRanges = [range(N - 499, N)], knownAnchors = [], ...rest } = overrides;
  return {
    held: new BlockRangeSet(heldRanges),
    newest: anchor(N, T),
    anchors: new BackfillAnchors(knownAnchors),
    horizonSeconds: WEEK,
    blockSpacingSeconds: 12,
    pageBlocks: 1024,
    ...rest,
  };
}

test("a first start: a week of 12 s blocks below the live window, estimated and rounded to whole pages", () => {
  const plan = planBackfill(inputs({}));
  // 604,800 s / 12 s = 50,400 blocks, rounded up to 50 pages of 1,024 below the newest block.
  assert.equal(plan.floorBlock, BigInt(N - 51_200));
  assert.equal(plan.floorExact, false);
  assert.deepEqual(plan.missing, [range(N - 51_200, N - 500)]);
  assert.equal(plan.blocksToGo, 50_701);
  assert.equal(plan.complete, false);
  const pages = [...pagesOf(plan.missing, 1024)];
  assert.equal(pages.length, 50);
  assert.deepEqual(pages[0], range(N - 500 - 1023, N - 500));
  assert.deepEqual(pages.at(-1), range(N - 51_200, N - 500 - 49 * 1024));
  assert.deepEqual(newestPage(plan.missing, 300), range(N - 799, N - 500));
});

test("a timestamp known before the horizon bounds the plan exactly", () => {
  const plan = planBackfill(inputs({ knownAnchors: [anchor(N - 50_000, T - WEEK - 1), anchor(N - 60_000, T - 2 * WEEK)] }));
  assert.equal(plan.floorBlock, BigInt(N - 49_999));
  assert.equal(plan.floorExact, true);
  assert.deepEqual(plan.missing, [range(N - 49_999, N - 500)]);
  const atTheEdge = planBackfill(inputs({ knownAnchors: [anchor(N - 50_000, T - WEEK)] }));
  assert.equal(atTheEdge.floorExact, false, "a block exactly at the horizon is still inside it");
});

test("a restart after a day away plans only the day's blocks: the gap between the store's newest and the feed's oldest", () => {
  const stored = range(N - 50_400 - 7_200, N - 7_200);
  const plan = planBackfill(
    inputs({
      heldRanges: [stored, range(N - 499, N)],
      // The store's anchors: its oldest block (8 days before the newest now) and its newest.
      knownAnchors: [anchor(N - 57_600, T - 8 * DAY), anchor(N - 7_200, T - DAY)],
    }),
  );
  assert.equal(plan.floorExact, true);
  assert.deepEqual(plan.missing, [range(N - 7_199, N - 500)]);
  assert.equal(plan.blocksToGo, 6_700);
  assert.equal([...pagesOf(plan.missing, 1024)].length, 7);
});

test("a restart in the middle of a first backfill continues below what the store holds", () => {
  const plan = planBackfill(
    inputs({
      heldRanges: [range(N - 20_979, N)],
      knownAnchors: [anchor(N - 20_979, T - 20_480 * 12)],
    }),
  );
  assert.equal(plan.floorExact, false);
  assert.equal(plan.missing.length, 1);
  assert.equal(plan.missing[0]!.toBlock, BigInt(N - 20_980));
  // From the oldest anchor, (604,800 - 245,760) / 12 = 29,920 blocks, rounded to 30 pages.
  assert.equal(plan.missing[0]!.fromBlock, BigInt(N - 20_979 - 30 * 1024));
});

test("a chain younger than the horizon: back to the genesis, exactly", () => {
  const plan = planBackfill(inputs({ newest: anchor(3_000, T), heldRanges: [range(2_501, 3_000)] }));
  assert.equal(plan.floorBlock, 0n);
  assert.equal(plan.floorExact, true);
  assert.deepEqual(plan.missing, [range(0, 2_500)]);
  const done = planBackfill(inputs({ newest: anchor(3_000, T), heldRanges: [range(0, 3_000)] }));
  assert.equal(done.complete, true);
  assert.equal(done.blocksToGo, 0);
});

test("the spacing is learned from anchors far enough apart, else the configured one", () => {
  assert.equal(spacingSeconds({ anchors: new BackfillAnchors([anchor(N - 10, T - 10)]), newest: anchor(N, T), blockSpacingSeconds: 12 }), 12);
  assert.equal(spacingSeconds({ anchors: new BackfillAnchors([anchor(N - 1000, T - 250)]), newest: anchor(N, T), blockSpacingSeconds: 12 }), 0.25);
  assert.equal(
    spacingSeconds({ anchors: new BackfillAnchors([anchor(N - 1000, T)]), newest: anchor(N, T), blockSpacingSeconds: 12 }),
    12,
    "no time passed: the guess",
  );
  assert.throws(() => spacingSeconds({ anchors: new BackfillAnchors(), newest: anchor(N, T), blockSpacingSeconds: 0 }), RangeError);
  assert.throws(() => planBackfill(inputs({ horizonSeconds: 0 })), RangeError);
  assert.throws(() => planBackfill(inputs({ pageBlocks: 0 })), RangeError);
});
