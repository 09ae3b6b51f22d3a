import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { type ArrayBlock, ArrayHistoryView } from "../../../test/support/arrayHistoryView.ts";
import { type HistoryModel as Model, modelWindow, reorgStart, writeBoth as write } from "../../../test/support/historyModel.ts";
import { HISTORY_BLOCKS } from "../fees/historyLength.ts";
import { nearestRank } from "../fees/percentile.ts";
import { HISTORY_CHUNK_BLOCKS } from "./blockColumns.ts";
import { ChainHistory } from "./chainHistory.ts";
import { parseWindowSpec, type WindowSpec } from "./duration.ts";
import type { WindowPercentile } from "./historyView.ts";
import { IDLE_WRITES, MAX_ASKED_WINDOWS } from "./trackedWindows.ts";

const spec = (text: string): WindowSpec => parseWindowSpec(text)!;

/**
 * The percentile as the contract defines it, the slow and obvious way: the window's blocks from the blocks written,
 * sorted, read at ceil(q/100 × N) − 1.
 */
function expectedPercentile(model: Model, window: WindowSpec, percentile: number, horizonSeconds?: number): WindowPercentile {
  const { from, newest, fees } = modelWindow(model, window, horizonSeconds);
  return { wei: nearestRank(fees, percentile), blocks: fees.length, fromBlock: BigInt(from), toBlock: BigInt(newest) };
}

/** The model without the blocks the history no longer holds (pruned below its oldest block). */
function heldPart(model: Model, history: ChainHistory): Model {
  const oldest = Number(history.oldest!.block);
  return new Map([...model].filter(([block]) => block >= oldest));
}

/** `count` blocks from `firstBlock`, `spacingSeconds` apart from `firstTime`, fees from `feeOf`. */
function blocksOf(count: number, firstTime: number, spacingSeconds: number, feeOf: (index: number) => bigint) {
  return Array.from({ length: count }, (_, i) => ({ fee: feeOf(i), time: firstTime + i * spacingSeconds }));
}

test("percentileOver equals the nearest rank over the window's blocks through new heads, re-mined blocks, older pages, gaps and pruning", () => {
  // The statistics window is 2h and the horizon 1h: the longer windows asked for end at the horizon (beyond the newest
  // 500 blocks), and pruning keeps what they hold.
  const windows = ["30m", "1h", "2h", "120m", "3h", "24h", "700 blocks", "5000 blocks"];
  const fee = fc.bigInt({ min: 1n, max: 200n });
  const percentile = fc.integer({ min: 1, max: 100 });
  const op = fc.oneof(
    {
      weight: 5,
      arbitrary: fc.record({
        kind: fc.constant("head" as const),
        fees: fc.array(fee, { minLength: 1, maxLength: 1_500, size: "max" }),
        gap: fc.integer({ min: 1, max: 90 }),
        skipped: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 300 })),
        percentile,
      }),
    },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant("fill" as const), fee, percentile }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant("reorg" as const), fees: fc.array(fee, { minLength: 1, maxLength: 8 }), percentile }) },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant("older" as const),
        fees: fc.array(fee, { minLength: 1, maxLength: 1_500, size: "max" }),
        gap: fc.integer({ min: 1, max: 90 }),
        percentile,
      }),
    },
  );
  let runsThatPruned = 0;
  let runsThatReMined = 0;
  fc.assert(
    fc.property(fc.subarray(windows, { minLength: 1 }), fc.array(op, { minLength: 1, maxLength: 20, size: "max" }), (asked, ops) => {
      const history = new ChainHistory({ window: spec("2h"), horizonSeconds: 3_600, blockTimeMs: 12_000 });
      const model: Model = new Map();
      let oldest = 1_000_000;
      let newest = oldest - 1;
      const missing: { block: number; time: number }[] = [];
      const timeOf = (block: number) => model.get(block)?.time;
      let pruned = false;
      let reMined = false;
      for (const o of ops) {
        if (o.kind === "head") {
          // Blocks skipped (a restart after time away) are missing until a "fill" writes them.
          const start = timeOf(newest) ?? 1_700_000_000;
          const first = newest + 1 + (model.size > 0 ? o.skipped : 0);
          for (let block = newest + 1; block < first; block++) missing.push({ block, time: start + (block - newest) * o.gap });
          write(
            history,
            model,
            first,
            blocksOf(o.fees.length, start + (first - newest) * o.gap, o.gap, (i) => o.fees[i]!),
          );
          newest = first + o.fees.length - 1;
        } else if (o.kind === "fill" && missing.length > 0) {
          for (const { block, time } of missing.splice(0, Math.min(missing.length, 40))) write(history, model, block, [{ fee: o.fee, time }]);
        } else if (o.kind === "reorg" && model.size > 0) {
          const first = reorgStart(model, newest, o.fees.length);
          const fees = o.fees.slice(0, newest - first + 1);
          reMined ||= fees.some((f, i) => model.get(first + i)?.fee !== f);
          write(
            history,
            model,
            first,
            fees.map((f, i) => ({ fee: f, time: timeOf(first + i)! })),
          );
        } else if (o.kind === "older" && model.size > 0) {
          const count = o.fees.length;
          write(
            history,
            model,
            oldest - count,
            blocksOf(count, timeOf(oldest)! - count * o.gap, o.gap, (i) => o.fees[i]!),
          );
          oldest -= count;
        }
        if (model.size === 0) continue;
        pruned ||= history.blocksHeld < model.size;
        // Every window asked after every write, as the alerts ask after each publication: each is tracked from its
        // first ask, so pruning must have kept every block it covers and the model's blocks are the window's.
        for (const text of asked) {
          assert.deepEqual(
            history.percentileOver(spec(text), o.percentile),
            expectedPercentile(model, spec(text), o.percentile, 3_600),
            `${text} p${o.percentile}`,
          );
        }
      }
      if (pruned) runsThatPruned++;
      if (reMined) runsThatReMined++;
    }),
    // Shrinking runs of thousands of blocks takes minutes: a failure is reported as found (the assertion names the window).
    { numRuns: 100, endOnFailure: true },
  );
  // The property proves little unless its runs pruned and re-mined blocks while windows were tracked.
  assert.ok(runsThatPruned >= 10, `only ${runsThatPruned} of 100 runs pruned blocks`);
  assert.ok(runsThatReMined >= 10, `only ${runsThatReMined} of 100 runs re-mined a block`);
});

test("a re-mined block inside a tracked window changes its percentile at once", () => {
  const history = new ChainHistory({ window: spec("500 blocks"), horizonSeconds: 86_400, blockTimeMs: 12_000 });
  const model: Model = new Map();
  // 1,000 blocks 12 s apart with fees 1..1000: the 1 h window holds the newest 500 (301 by time, raised to 500).
  write(
    history,
    model,
    5_000,
    blocksOf(1_000, 1_700_000_000, 12, (i) => BigInt(i + 1)),
  );
  const window = spec("7200 blocks");
  assert.deepEqual(history.percentileOver(window, 100), { wei: 1_000n, blocks: 1_000, fromBlock: 5_000n, toBlock: 5_999n });
  assert.equal(history.percentileOver(window, 1)!.wei, 10n);
  // The newest block and the oldest one re-mined with other fees: the tracked window's order statistics follow.
  write(history, model, 5_999, [{ fee: 2_000n, time: model.get(5_999)!.time }]);
  assert.equal(history.percentileOver(window, 100)!.wei, 2_000n);
  write(history, model, 5_000, [{ fee: 5_000n, time: model.get(5_000)!.time }]);
  assert.equal(history.percentileOver(window, 100)!.wei, 5_000n);
  assert.equal(history.percentileOver(window, 1)!.wei, 11n);
  assert.deepEqual(history.percentileOver(window, 37), expectedPercentile(model, window, 37));
});

test("the statistics window's own spec is answered from its tracker, whatever its text; others get a tracker each", () => {
  const history = new ChainHistory({ window: spec("24h"), horizonSeconds: 7 * 86_400, blockTimeMs: 12_000 });
  const model: Model = new Map();
  write(
    history,
    model,
    1,
    blocksOf(9_000, 1_700_000_000, 12, (i) => BigInt((i * 7_919) % 1_000)),
  );
  const stats = history.windowStats()!;
  const p50 = history.percentileOver(spec("1d"), 50)!;
  assert.deepEqual(p50, { wei: stats.baseFeePercentileWei, blocks: stats.blocks, fromBlock: stats.fromBlock, toBlock: stats.toBlock });
  assert.equal(history.percentileOver(spec("24h"), 90)!.wei, stats.busyThresholdWei);
  assert.equal(history.trackedWindows.length, 0, "no second copy of the statistics window");
  history.percentileOver(spec("1h"), 20);
  history.percentileOver(spec("60m"), 95);
  history.percentileOver(spec("300 blocks"), 95);
  assert.deepEqual(
    history.trackedWindows.map((window) => window.text),
    ["1h", "300 blocks"],
  );
});

test("a window asked for ends at the horizon; unasked for IDLE_WRITES writes it is dropped, and rebuilt from what is held on the next ask", () => {
  // Horizon 1 h of 12 s blocks (300 blocks); the window asked for covers 6,000 blocks.
  const history = new ChainHistory({ window: spec("1h"), horizonSeconds: 3_600, blockTimeMs: 12_000 });
  const model: Model = new Map();
  const window = spec("6000 blocks");
  let newest = 0;
  let time = 1_700_000_000;
  const head = (fees: readonly bigint[]) => {
    write(
      history,
      model,
      newest + 1,
      blocksOf(fees.length, time + 12, 12, (i) => fees[i]!),
    );
    newest += fees.length;
    time += 12 * fees.length;
  };
  head(Array.from({ length: 200 }, (_, i) => BigInt(i % 501)));
  assert.deepEqual(history.percentileOver(window, 20), expectedPercentile(model, window, 20, 3_600));
  // Asked at every write, the window of 6,000 blocks holds only the newest 500: the horizon (300 blocks) lets the rest go.
  while (newest < 6_000 + 2 * HISTORY_CHUNK_BLOCKS) {
    head(Array.from({ length: 64 }, (_, j) => BigInt((newest + j) % 977)));
    assert.deepEqual(history.percentileOver(window, 80), expectedPercentile(model, window, 80, 3_600));
  }
  assert.equal(history.percentileOver(window, 80)!.blocks, HISTORY_BLOCKS);
  assert.ok(history.blocksHeld < HISTORY_BLOCKS + HISTORY_CHUNK_BLOCKS, `held ${history.blocksHeld}: the window kept nothing the horizon let go`);
  // Unasked: kept for IDLE_WRITES - 1 writes (a re-mined block among them), dropped at the next.
  write(history, model, newest - 10, [{ fee: 123_456n, time: model.get(newest - 10)!.time }]);
  for (let i = 1; i < IDLE_WRITES - 1; i++) head([BigInt(i)]);
  assert.deepEqual(
    history.trackedWindows.map((tracked) => tracked.text),
    ["6000 blocks"],
  );
  head([7n]);
  assert.deepEqual(history.trackedWindows, []);
  assert.ok(history.blocksHeld < HISTORY_BLOCKS + HISTORY_CHUNK_BLOCKS, `held ${history.blocksHeld}`);
  // Asked again: rebuilt over what is held now, re-mined block included.
  const held = heldPart(model, history);
  const again = history.percentileOver(window, 100)!;
  assert.deepEqual(again, expectedPercentile(held, window, 100, 3_600));
  assert.equal(again.wei, 123_456n);
  assert.deepEqual(history.percentileOver(window, 3), expectedPercentile(held, window, 3, 3_600));
  head([1_000_000n]);
  assert.deepEqual(history.percentileOver(window, 100), expectedPercentile(heldPart(model, history), window, 100, 3_600));
});

test(`past ${MAX_ASKED_WINDOWS} tracked windows, a new one is answered exactly without being kept`, () => {
  const history = new ChainHistory({ window: spec("24h"), horizonSeconds: 7 * 86_400, blockTimeMs: 2_000 });
  const model: Model = new Map();
  write(
    history,
    model,
    100,
    blocksOf(20_000, 1_700_000_000, 2, (i) => BigInt(((i * 104_729) % 9_973) + 1)),
  );
  const tracked = Array.from({ length: MAX_ASKED_WINDOWS }, (_, i) => spec(`${(i + 1) * 1_000} blocks`));
  for (const window of tracked) assert.deepEqual(history.percentileOver(window, 50), expectedPercentile(model, window, 50));
  const extra = [spec("10h"), spec("19999 blocks")];
  for (let round = 0; round < 3; round++) {
    for (const window of extra) {
      for (const percentile of [1, 20, 50, 95, 100]) {
        assert.deepEqual(history.percentileOver(window, percentile), expectedPercentile(model, window, percentile));
      }
    }
    write(history, model, 100 + 20_000 + round, [{ fee: 50_000n, time: 1_700_040_000 + round * 2 }]);
    write(history, model, 100 + 19_990, [{ fee: BigInt(round), time: model.get(100 + 19_990)!.time }]);
  }
  assert.deepEqual(history.trackedWindows, tracked);
});

test("an empty history answers undefined; a percentile or a window that is not one is refused", () => {
  const history = new ChainHistory({ window: spec("24h"), horizonSeconds: 86_400, blockTimeMs: 12_000 });
  assert.equal(history.percentileOver(spec("1h"), 50), undefined);
  assert.deepEqual(history.trackedWindows, []);
  history.write({ firstBlock: 1n, baseFeesWei: [5n] }, 1_700_000_000);
  assert.deepEqual(history.percentileOver(spec("1h"), 50), { wei: 5n, blocks: 1, fromBlock: 1n, toBlock: 1n });
  assert.throws(() => history.percentileOver(spec("1h"), 0), /percentile must be a whole number from 1 to 100/);
  assert.throws(() => history.percentileOver(spec("1h"), 20.5), /percentile must be a whole number from 1 to 100/);
  assert.throws(() => history.percentileOver({ kind: "blocks", blocks: 0, text: "0 blocks" }, 50), /positive whole number of blocks/);
});

test("ArrayHistoryView (the readers' test history) answers percentileOver as ChainHistory does", () => {
  fc.assert(
    fc.property(
      fc.array(fc.record({ fee: fc.bigInt({ min: 1n, max: 100n }), gap: fc.integer({ min: 0, max: 40 }), skip: fc.integer({ min: 0, max: 3 }) }), {
        minLength: 1,
        maxLength: 900,
        size: "max",
      }),
      fc.constantFrom("10m", "1h", "20 blocks", "600 blocks"),
      fc.integer({ min: 1, max: 100 }),
      (steps, text, percentile) => {
        const history = new ChainHistory({ window: spec("24h"), horizonSeconds: 86_400, blockTimeMs: 12_000 });
        const blocks: ArrayBlock[] = [];
        let block = 10n;
        let time = 1_700_000_000;
        for (const step of steps) {
          block += BigInt(step.skip === 3 ? 5 : 1);
          time += step.gap;
          blocks.push({ block, timestamp: time, baseFeeWei: step.fee });
          history.write({ firstBlock: block, baseFeesWei: [step.fee], anchors: [{ block, timestamp: time }] }, 0);
        }
        assert.deepEqual(ArrayHistoryView.of(blocks).percentileOver(spec(text), percentile), history.percentileOver(spec(text), percentile));
      },
    ),
    { numRuns: 200 },
  );
  assert.equal(ArrayHistoryView.of([]).percentileOver(spec("1h"), 50), undefined);
});
