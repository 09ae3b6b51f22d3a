import assert from "node:assert/strict";
import { test } from "node:test";
import type { BaseFeeStatsBucket } from "../../shared/wire/baseFeeStats.ts";
import { bandAreaPath, bandExtent, bandLinePath, bandRuns } from "../../renderer/src/chart/bucketBands.ts";

/** A bucket of `blocks` blocks whose seven values are `base` + 0..6 Gwei (min = base, max = base + 6). */
function bucket(start: number, blocks: number, base: number): BaseFeeStatsBucket {
  if (blocks === 0) return { start, end: start + 60, blocks: 0 };
  const [min, p10, p25, p50, p75, p90, max] = [0, 1, 2, 3, 4, 5, 6].map((offset) => String(base + offset));
  return { start, end: start + 60, blocks, fromBlock: "1", toBlock: String(blocks), min, p10, p25, p50, p75, p90, max };
}

const identity = (value: number) => value;
/** The subpaths of an SVG path, each as its list of [x, y]. */
function subpaths(d: string): Array<Array<[number, number]>> {
  return d
    .split("M")
    .filter((part) => part !== "")
    .map((part) => [...part.replace(/Z/g, "").matchAll(/(-?[\d.]+),(-?[\d.]+)/g)].map((match) => [Number(match[1]), Number(match[2])] as [number, number]));
}

test("a bucket without blocks is a gap between two runs, not a fee of zero", () => {
  const buckets = [bucket(0, 5, 10), bucket(60, 5, 20), bucket(120, 0, 0), bucket(180, 4, 30)];
  const runs = bandRuns(buckets);
  assert.deepEqual(
    runs.map((run) => run.map((point) => point.startSeconds)),
    [[0, 60], [180]],
  );
  assert.equal(runs[0]![1]!.p50, 23);
  assert.equal(runs[1]![0]!.bucket, buckets[3]);

  const line = subpaths(bandLinePath(runs, identity, identity, "p50"));
  assert.equal(line.length, 2, "one line per run");
  for (const [x, y] of line.flat()) {
    assert.ok(x <= 120 || x >= 180, `nothing drawn inside the gap (x ${x})`);
    assert.notEqual(y, 0, "no point at a fee of zero");
  }
  const area = bandAreaPath(runs, identity, identity, "p10", "p90");
  assert.equal((area.match(/Z/g) ?? []).length, 2, "one closed area per run");
  for (const [x, y] of subpaths(area).flat()) {
    assert.ok(x <= 120 || x >= 180, `no band inside the gap (x ${x})`);
    assert.notEqual(y, 0);
  }
});

test("a run reaches its buckets' edges; a lone bucket is as wide as itself; values are drawn at bucket middles", () => {
  const runs = bandRuns([bucket(0, 5, 10), bucket(60, 5, 20), bucket(120, 0, 0), bucket(180, 4, 30)]);
  const [first, lone] = subpaths(bandLinePath(runs, identity, identity, "p50"));
  assert.deepEqual(first, [
    [0, 13],
    [30, 13],
    [90, 23],
    [120, 23],
  ]);
  assert.deepEqual(lone, [
    [180, 33],
    [210, 33],
    [240, 33],
  ]);
  // The area goes along the high values and back along the low ones.
  assert.deepEqual(subpaths(bandAreaPath([runs[1]!], identity, identity, "p25", "p75"))[0], [
    [180, 34],
    [210, 34],
    [240, 34],
    [240, 32],
    [210, 32],
    [180, 32],
  ]);
});

test("the extent covers the chosen values of every run; none without points", () => {
  const runs = bandRuns([bucket(0, 5, 10), bucket(60, 0, 0), bucket(120, 5, 4)]);
  assert.deepEqual(bandExtent(runs, "p10", "p90"), { low: 5, high: 15 });
  assert.deepEqual(bandExtent(runs, "min", "max"), { low: 4, high: 16 });
  assert.equal(bandExtent(bandRuns([bucket(0, 0, 0)]), "min", "max"), undefined);
  assert.deepEqual(bandRuns([]), []);
});
