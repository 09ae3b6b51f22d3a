// baseFeeStats buckets as drawable bands: numbers for drawing (the exact strings stay in `bucket`), and the runs of
// buckets that hold blocks. A bucket without blocks is a gap in the history, never a fee of zero: it ends a run.
import type { BaseFeeStatsBucket } from "../../../shared/wire/baseFeeStats.ts";

export interface BandPoint {
  /** Unix seconds: the bucket's start and end, and the middle where its values are drawn. */
  readonly startSeconds: number;
  readonly endSeconds: number;
  readonly midSeconds: number;
  /** Gwei as numbers, for drawing only. */
  readonly min: number;
  readonly p10: number;
  readonly p25: number;
  readonly p50: number;
  readonly p75: number;
  readonly p90: number;
  readonly max: number;
  readonly bucket: BaseFeeStatsBucket;
}

/** The buckets with blocks as runs of neighbours, oldest first; a bucket without blocks (or without values) ends a run. */
export function bandRuns(buckets: readonly BaseFeeStatsBucket[]): BandPoint[][] {
  const runs: BandPoint[][] = [];
  let run: BandPoint[] = [];
  for (const bucket of buckets) {
    const point = bandPointOf(bucket);
    if (point === undefined) {
      if (run.length > 0) runs.push(run);
      run = [];
    } else {
      run.push(point);
    }
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

function bandPointOf(bucket: BaseFeeStatsBucket): BandPoint | undefined {
  const { min, p10, p25, p50, p75, p90, max } = bucket;
  if (bucket.blocks === 0 || min === undefined || p10 === undefined || p25 === undefined || p50 === undefined) return undefined;
  if (p75 === undefined || p90 === undefined || max === undefined) return undefined;
  return {
    startSeconds: bucket.start,
    endSeconds: bucket.end,
    midSeconds: (bucket.start + bucket.end) / 2,
    min: Number(min),
    p10: Number(p10),
    p25: Number(p25),
    p50: Number(p50),
    p75: Number(p75),
    p90: Number(p90),
    max: Number(max),
    bucket,
  };
}

export type BandKey = "min" | "p10" | "p25" | "p50" | "p75" | "p90" | "max";

/** The lowest and highest value of `low` and `high` over every run, or undefined without a point. */
export function bandExtent(runs: readonly (readonly BandPoint[])[], low: BandKey, high: BandKey): { low: number; high: number } | undefined {
  let lowest = Infinity;
  let highest = -Infinity;
  for (const run of runs) {
    for (const point of run) {
      if (point[low] < lowest) lowest = point[low];
      if (point[high] > highest) highest = point[high];
    }
  }
  return lowest === Infinity ? undefined : { low: lowest, high: highest };
}

type Scale = (value: number) => number;

/** Thousandths of a pixel: exact enough, and a short string. */
const px = (value: number) => Math.round(value * 1000) / 1000;

/**
 * The x of each point of a run: the middle of its bucket, except the run's ends, which reach out to the edges of their
 * buckets (a run of one bucket is then as wide as its bucket, not a point). Pairs of (x, point).
 */
function placed(run: readonly BandPoint[], x: Scale): Array<[number, BandPoint]> {
  const out: Array<[number, BandPoint]> = [];
  const last = run.length - 1;
  run.forEach((point, index) => {
    if (index === 0) out.push([x(point.startSeconds), point]);
    if (run.length > 1 || index === 0) out.push([x(point.midSeconds), point]);
    if (index === last) out.push([x(point.endSeconds), point]);
  });
  return out;
}

/** One closed area per run between `low` and `high` (`M … Z` each): nothing is drawn across a gap. */
export function bandAreaPath(runs: readonly (readonly BandPoint[])[], x: Scale, y: Scale, low: BandKey, high: BandKey): string {
  let d = "";
  for (const run of runs) {
    const points = placed(run, x);
    points.forEach(([px0, point], index) => (d += `${index === 0 ? "M" : "L"}${px(px0)},${px(y(point[high]))}`));
    for (let index = points.length - 1; index >= 0; index--) d += `L${px(points[index]![0])},${px(y(points[index]![1][low]))}`;
    d += "Z";
  }
  return d;
}

/** One open line per run through `key` (`M … L …` each): a gap starts a new line. */
export function bandLinePath(runs: readonly (readonly BandPoint[])[], x: Scale, y: Scale, key: BandKey): string {
  let d = "";
  for (const run of runs) {
    placed(run, x).forEach(([px0, point], index) => (d += `${index === 0 ? "M" : "L"}${px(px0)},${px(y(point[key]))}`));
  }
  return d;
}
