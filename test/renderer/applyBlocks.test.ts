// The client half of the event streams' delta protocol (renderer/src/chainData.ts) against its server half
// (blocksChanged, shared/http/eventStreams.ts): the page's points must always be the service's history.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { applyBlocks, type FeePoint } from "../../renderer/src/live/chainData.ts";
import { BlockWindow } from "../../shared/core/fees/blockWindow.ts";
import type { FeeSnapshot } from "../../shared/core/fees/feeSnapshot.ts";
import { snapshotOf } from "../support/snapshotModel.ts";
import { HISTORY_BLOCKS } from "../../shared/core/fees/historyLength.ts";
import { toGweiString } from "../../shared/core/fees/gwei.ts";
import { blocksChanged } from "../../shared/http/eventStreams.ts";
import type { BlockRun } from "../../shared/wire/networkEvent.ts";

const points = (firstBlock: number, fees: readonly string[]): FeePoint[] =>
  fees.map((exact, index) => ({ block: firstBlock + index, gwei: Number(exact), exact }));
const run = (kind: BlockRun["kind"], firstBlock: number, baseFees: readonly string[]): BlockRun => ({ kind, firstBlock: String(firstBlock), baseFees });

test("all: the run replaces every point, numbered from its first block, each with its exact string and its number", () => {
  const result = applyBlocks(points(1, ["1", "2"]), run("all", 100, ["15.82929799", "0.000000001", "2"]));
  assert.deepEqual(result, [
    { block: 100, gwei: 15.82929799, exact: "15.82929799" },
    { block: 101, gwei: 1e-9, exact: "0.000000001" },
    { block: 102, gwei: 2, exact: "2" },
  ]);
});

test("from, after the newest block: the new blocks are appended and the oldest dropped beyond 500", () => {
  const full = points(
    1_000,
    Array.from({ length: HISTORY_BLOCKS }, (_, index) => String(index + 1)),
  );
  const result = applyBlocks(full, run("from", 1_500, ["9", "10"]));
  assert.equal(result.length, HISTORY_BLOCKS);
  assert.deepEqual(result[0], { block: 1_002, gwei: 3, exact: "3" });
  assert.deepEqual(result.slice(-3), points(1_499, ["500", "9", "10"]));
});

test("from, inside the points (a reorganisation): the blocks before it are kept, the rest replaced by the run", () => {
  const result = applyBlocks(points(10, ["1", "2", "3", "4", "5"]), run("from", 12, ["30", "40"]));
  assert.deepEqual(result, points(10, ["1", "2", "30", "40"]));
});

test("from, on a young chain: nothing is dropped below 500 points", () => {
  assert.deepEqual(applyBlocks(points(0, ["1"]), run("from", 1, ["2"])), points(0, ["1", "2"]));
  assert.deepEqual(applyBlocks([], run("from", 7, ["2"])), points(7, ["2"]));
});

test("the same event twice gives the same points (a reconnection may repeat the newest blocks)", () => {
  const once = applyBlocks(points(10, ["1", "2", "3"]), run("from", 12, ["4", "5"]));
  assert.deepEqual(applyBlocks(once, run("from", 12, ["4", "5"])), once);
});

test("all with more than 500 blocks keeps the newest 500", () => {
  const result = applyBlocks(
    [],
    run(
      "all",
      0,
      Array.from({ length: 600 }, (_, index) => String(index)),
    ),
  );
  assert.equal(result.length, HISTORY_BLOCKS);
  assert.deepEqual(result[0], { block: 100, gwei: 100, exact: "100" });
});

/** One change of the service's window: new blocks, a reorganisation `depth` blocks deep, or a jump past a gap. */
const change = fc.record({
  from: fc.oneof(fc.constant(1), fc.integer({ min: -30, max: 0 }), fc.integer({ min: 2, max: 700 })),
  feesWei: fc.array(fc.bigInt({ min: 1n, max: 10n ** 12n }), { minLength: 1, maxLength: 40 }),
});

test("the page's points stay the service's history through any sequence of new blocks, reorganisations and gaps", () => {
  fc.assert(
    // size "max": lengths over the whole range, so that most runs start from a full window (or more than one).
    fc.property(
      fc.array(fc.bigInt({ min: 1n, max: 10n ** 12n }), { minLength: 1, maxLength: 600, size: "max" }),
      fc.array(change, { maxLength: 40, size: "max" }),
      (initial, changes) => {
        const window = new BlockWindow(HISTORY_BLOCKS);
        window.write(1_000n, initial);
        let held: FeeSnapshot | undefined;
        let shown: readonly FeePoint[] = [];
        const publish = () => {
          const next = snapshotOf(1, window, undefined)!;
          const delta = blocksChanged(held, next);
          if (delta !== null) shown = applyBlocks(shown, delta);
          held = next;
          const firstBlock = Number(next.newestBlock) - next.historyWei.length + 1;
          assert.deepEqual(shown, points(firstBlock, next.historyWei.map(toGweiString)));
        };
        publish();
        for (const { from, feesWei } of changes) {
          window.write(window.newestBlock! + BigInt(from), feesWei);
          publish();
        }
      },
    ),
    // No shrinking: a counterexample of 500 blocks shrinks for minutes, and the first one already names the change.
    { numRuns: 200, endOnFailure: true },
  );
});
