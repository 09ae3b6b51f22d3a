import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { nearestRank } from "../fees/percentile.ts";
import { networkCongestionOf } from "../../../test/support/snapshotModel.ts";
import { HISTORY_BLOCKS } from "../fees/historyLength.ts";
import { type HistoryModel as Model, modelWindow, reorgStart, writeBoth as write } from "../../../test/support/historyModel.ts";
import { ChainHistory } from "./chainHistory.ts";
import { parseWindowSpec } from "./duration.ts";

const YEAR = 366 * 86_400;

function historyOf(window: string, horizonSeconds = YEAR, blockTimeMs = 12_000): ChainHistory {
  return new ChainHistory({ window: parseWindowSpec(window)!, horizonSeconds, blockTimeMs });
}

test("the statistics window (24 h, never fewer than the newest 500 blocks) equals the obvious computation through new heads, re-mined blocks and older pages", () => {
  const fee = fc.bigInt({ min: 1n, max: 200n });
  const op = fc.oneof(
    {
      weight: 5,
      arbitrary: fc.record({
        kind: fc.constant("head" as const),
        fees: fc.array(fee, { minLength: 1, maxLength: 400, size: "max" }),
        gap: fc.integer({ min: 1, max: 90 }),
        skipped: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 300 })),
      }),
    },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant("fill" as const), fee }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant("reorg" as const), fees: fc.array(fee, { minLength: 1, maxLength: 8 }) }) },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant("older" as const),
        fees: fc.array(fee, { minLength: 1, maxLength: 700, size: "max" }),
        gap: fc.integer({ min: 1, max: 90 }),
      }),
    },
  );
  fc.assert(
    fc.property(fc.array(op, { minLength: 1, maxLength: 25 }), (ops) => {
      const history = historyOf("2h");
      const model: Model = new Map();
      let oldest = 1_000_000;
      const missing: { block: number; time: number }[] = [];
      let newest = oldest - 1;
      const timeOf = (block: number) => model.get(block)?.time;
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
            o.fees.map((f, i) => ({ fee: f, time: start + (first - newest + i) * o.gap })),
          );
          newest = first + o.fees.length - 1;
        } else if (o.kind === "fill" && missing.length > 0) {
          const gap = missing.splice(0, Math.min(missing.length, 40));
          for (const { block, time } of gap) write(history, model, block, [{ fee: o.fee, time }]);
        } else if (o.kind === "reorg" && model.size > 0) {
          const first = reorgStart(model, newest, o.fees.length);
          write(
            history,
            model,
            first,
            o.fees.slice(0, newest - first + 1).map((f, i) => ({ fee: f, time: timeOf(first + i)! })),
          );
        } else if (o.kind === "older" && model.size > 0) {
          const end = timeOf(oldest)!;
          const count = o.fees.length;
          write(
            history,
            model,
            oldest - count,
            o.fees.map((f, i) => ({ fee: f, time: end - (count - i) * o.gap })),
          );
          oldest -= count;
        }
        if (model.size === 0) continue;
        const stats = history.windowStats()!;
        const expected = modelWindow(model, parseWindowSpec("2h")!);
        assert.equal(stats.blocks, expected.fees.length);
        assert.equal(stats.fromBlock, BigInt(expected.from));
        assert.equal(stats.toBlock, BigInt(newest));
        assert.equal(stats.baseFeePercentileWei, nearestRank(expected.fees, 50));
        assert.equal(stats.busyThresholdWei, nearestRank(expected.fees, 90));
        assert.equal(stats.minWei, expected.fees[0]);
        assert.equal(stats.maxWei, expected.fees.at(-1));
        assert.equal(stats.congestionOf(100n), networkCongestionOf(expected.fees, 100n));
        assert.equal(history.blocksHeld, model.size);
      }
    }),
    { numRuns: 40 },
  );
});

test("a window of N blocks is the newest N held", () => {
  const history = historyOf("600 blocks");
  history.write({ firstBlock: 10n, baseFeesWei: Array.from({ length: 1_000 }, (_, i) => BigInt(i + 1)) }, 1_700_000_000);
  const stats = history.windowStats()!;
  assert.equal(stats.blocks, 600);
  assert.equal(stats.fromBlock, 410n);
  assert.equal(stats.minWei, 401n);
});

test("timestamps: exact at anchors, linear between them, the chain's spacing beyond the newest", () => {
  const history = historyOf("24h", YEAR, 12_000);
  history.write(
    {
      firstBlock: 100n,
      baseFeesWei: Array<bigint>(101).fill(7n),
      anchors: [
        { block: 100n, timestamp: 1_000 },
        { block: 200n, timestamp: 2_000 },
      ],
    },
    99_999,
  );
  const times = (from: number, to: number) =>
    [...history.runs(0, Number.MAX_SAFE_INTEGER)].flatMap((run) => [...run.timestamps]).slice(from - 100, to - 100 + 1);
  assert.deepEqual(times(100, 102), [1_000, 1_010, 1_020]);
  assert.deepEqual(times(150, 150), [1_500]);
  assert.deepEqual(times(200, 200), [2_000]);
  // The anchors 100 blocks apart taught a spacing of 10 s: new blocks without a header go on at that pace...
  history.write({ firstBlock: 201n, baseFeesWei: [7n, 7n, 7n] }, 99_999);
  assert.deepEqual(times(201, 203), [2_010, 2_020, 2_030]);
  // ...until a header says otherwise: then the blocks between the two anchors are spread evenly.
  history.write({ firstBlock: 204n, baseFeesWei: [7n], anchors: [{ block: 204n, timestamp: 2_100 }] }, 99_999);
  assert.deepEqual(times(201, 204), [2_025, 2_050, 2_075, 2_100]);
});

test("an anchor that contradicts the exact times around it is dropped, not believed", () => {
  const history = historyOf("24h");
  history.write(
    {
      firstBlock: 1n,
      baseFeesWei: [1n, 1n, 1n],
      anchors: [
        { block: 1n, timestamp: 100 },
        { block: 3n, timestamp: 124 },
      ],
    },
    0,
  );
  const change = history.write({ firstBlock: 2n, baseFeesWei: [1n], anchors: [{ block: 2n, timestamp: 500 }] }, 0);
  assert.deepEqual(change.anchors, []);
  assert.deepEqual(
    [...history.runs(0, 1e12)].flatMap((run) => [...run.timestamps]),
    [100, 112, 124],
  );
});

test("without any header the clock stands in for the newest block; the first header's time replaces it", () => {
  const history = historyOf("24h", YEAR, 2_000);
  history.write({ firstBlock: 50n, baseFeesWei: [5n, 5n, 5n] }, 10_000);
  assert.deepEqual(
    [...history.runs(0, 1e12)].flatMap((run) => [...run.timestamps]),
    [9_996, 9_998, 10_000],
  );
  history.write({ firstBlock: 53n, baseFeesWei: [5n], anchors: [{ block: 53n, timestamp: 8_000 }] }, 10_002);
  assert.deepEqual(
    [...history.runs(0, 1e12)].flatMap((run) => [...run.timestamps]),
    [7_994, 7_996, 7_998, 8_000],
  );
});

test("runs(from, to) are the held blocks timed within [from, to], both ends included, split at gaps", () => {
  const history = historyOf("24h");
  const anchorsOf = (first: number, count: number, t0: number) =>
    Array.from({ length: count }, (_, i) => ({ block: BigInt(first + i), timestamp: t0 + i * 10 }));
  history.write({ firstBlock: 0n, baseFeesWei: [1n, 2n, 3n, 4n], anchors: anchorsOf(0, 4, 1_000) }, 0);
  history.write({ firstBlock: 10n, baseFeesWei: [5n, 6n], anchors: anchorsOf(10, 2, 1_100) }, 0);
  const runs = [...history.runs(1_010, 1_100)].map((run) => ({ first: run.firstBlock, fees: [...run.baseFeesWei], times: [...run.timestamps] }));
  assert.deepEqual(runs, [
    { first: 1n, fees: [2n, 3n, 4n], times: [1_010, 1_020, 1_030] },
    { first: 10n, fees: [5n], times: [1_100] },
  ]);
  assert.deepEqual([...history.runs(2_000, 3_000)], []);
});

test("blocks beyond the horizon go, a chunk at a time; the statistics window stays whole", () => {
  const history = historyOf("1h", 86_400, 12_000);
  const blocks = 20_000; // 12 s apart: 66 hours
  const anchors = Array.from({ length: blocks }, (_, i) => ({ block: BigInt(i), timestamp: i * 12 }));
  history.write({ firstBlock: 0n, baseFeesWei: Array<bigint>(blocks).fill(3n), anchors }, 0);
  const oldestTime = history.oldest!.timestamp;
  assert.ok(oldestTime <= history.newest!.timestamp - 86_400, "at least the horizon is kept");
  assert.ok(oldestTime > history.newest!.timestamp - 86_400 - 4_096 * 12, "no more than a chunk beyond it");
  // An hour is 301 of these blocks: fewer than the newest 500 the window never goes below.
  assert.equal(history.windowStats()!.blocks, HISTORY_BLOCKS);
});

test("a window of more blocks than the horizon holds ends at the horizon: neither it nor an alert's keeps older blocks", () => {
  const history = historyOf("100000 blocks", 86_400, 12_000);
  const blocks = 30_000; // 12 s apart: 100 hours, 7,200 blocks a day
  const anchors = Array.from({ length: blocks }, (_, i) => ({ block: BigInt(i), timestamp: i * 12 }));
  history.write({ firstBlock: 0n, baseFeesWei: Array.from({ length: blocks }, (_, i) => BigInt(i)), anchors }, 0);
  history.percentileOver(parseWindowSpec("200000 blocks")!, 50);
  history.write({ firstBlock: BigInt(blocks), baseFeesWei: [1n], anchors: [{ block: BigInt(blocks), timestamp: blocks * 12 }] }, 0);
  assert.ok(history.oldest!.timestamp > history.newest!.timestamp - 86_400 - 4_096 * 12, "no more than a chunk beyond the horizon");
  const firstInHorizon = blocks - 7_200;
  assert.equal(history.windowStats()!.fromBlock, BigInt(firstInHorizon));
  assert.equal(history.percentileOver(parseWindowSpec("200000 blocks")!, 50)!.fromBlock, BigInt(firstInHorizon));
});

test("the blob base fee's statistics: nearest rank over the window's blocks that have one, through new heads, re-mined blocks and blocks without one", () => {
  const blobFee = fc.option(fc.bigInt({ min: 1n, max: 60n }), { nil: undefined });
  const op = fc.record({
    reorgDepth: fc.integer({ min: 0, max: 6 }),
    blobFees: fc.array(blobFee, { minLength: 1, maxLength: 120 }),
  });
  fc.assert(
    fc.property(fc.array(op, { minLength: 1, maxLength: 25 }), (ops) => {
      const history = historyOf("300 blocks");
      // The model: block number -> blob fee (undefined: none), every block written.
      const model: (bigint | undefined)[] = [];
      for (const { reorgDepth, blobFees } of ops) {
        const first = Math.max(0, model.length - reorgDepth);
        // A block written without a blob fee (UNKNOWN, -1) keeps the one it had: a re-mined block's answer from an
        // endpoint that gives none does not erase what another gave.
        blobFees.forEach((fee, i) => (model[first + i] = fee ?? model[first + i]));
        model.length = Math.max(model.length, first + blobFees.length);
        history.write(
          {
            firstBlock: BigInt(first),
            baseFeesWei: blobFees.map(() => 7n),
            blobBaseFeesWei: blobFees.map((fee) => fee ?? -1n),
            blobGasUsedRatios: blobFees.map(() => 0.5),
          },
          1_700_000_000,
        );
      }
      const newest = model.length - 1;
      const windowFees = model.slice(Math.max(0, newest - 299)).filter((fee): fee is bigint => fee !== undefined);
      const stats = history.blobWindowStats();
      if (windowFees.length === 0) return assert.equal(stats, undefined);
      const sorted = [...windowFees].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      assert.equal(stats?.blocks, windowFees.length);
      assert.equal(stats?.percentileWei, nearestRank(sorted, 50));
      assert.equal(stats?.busyThresholdWei, nearestRank(sorted, 90));
      assert.equal(stats?.minWei, sorted[0]);
      assert.equal(stats?.maxWei, sorted.at(-1));
      assert.equal(stats?.toBlock, BigInt(newest));
      const firstWithFee = model.findIndex((fee, block) => block >= newest - 299 && fee !== undefined);
      assert.equal(stats?.fromBlock, BigInt(firstWithFee));
      const tracked = history.percentileOver(parseWindowSpec("100 blocks")!, 75, "blob");
      const recent = model.slice(Math.max(0, newest - 99)).filter((fee): fee is bigint => fee !== undefined);
      if (recent.length === 0) assert.equal(tracked, undefined);
      else
        assert.equal(
          tracked?.wei,
          nearestRank(
            [...recent].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
            75,
          ),
        );
    }),
    { numRuns: 150 },
  );
});

test("a write whose blob fields do not fit its blocks, or hold a fee the history cannot keep, is refused whole", () => {
  const history = historyOf("500 blocks");
  history.write({ firstBlock: 10n, baseFeesWei: [5n, 6n], blobBaseFeesWei: [1n, 2n] }, 1_700_000_000);
  for (const bad of [
    { blobBaseFeesWei: [3n] },
    { blobBaseFeesWei: [3n, 2n ** 63n] },
    { blobBaseFeesWei: [3n, -2n] },
    { blobBaseFeesWei: [3n, 4n], blobGasUsedRatios: [0.5] },
    { blobGasUsedRatios: [0.5, 0.5] },
    { gasUsedRatios: [0.5, 0.5, 0.5] },
  ]) {
    assert.throws(
      () => history.write({ firstBlock: 11n, baseFeesWei: [9n, 9n], ...bad }, 1_700_000_000),
      RangeError,
      JSON.stringify(bad, (_, v: unknown) => (typeof v === "bigint" ? String(v) : v)),
    );
  }
  assert.deepEqual(history.newestFees(10), [5n, 6n], "nothing of a refused write is kept");
  assert.deepEqual(history.newestBlobFees(10), [1n, 2n]);
  assert.equal(history.blobWindowStats()?.blocks, 2);
});
