import type { BlockRun } from "./blockRun.ts";
import { type FeeOrderStatistics, FeeOrderStatisticsScratch } from "./feeOrderStatistics.ts";
import type { SlicedHistoryRead } from "./slicedHistoryRead.ts";

/**
 * How a time range `[fromSeconds, toSeconds]` (whole unix seconds, both included) is cut into buckets: bucket `i`
 * starts at `startsSeconds[i]` and ends where the next one starts (exclusive); the last one ends at `toSeconds`,
 * inclusive. A block belongs to the bucket that holds its time, its timestamp rounded down to the whole second (as the
 * CSV export prints it): so a block exactly on a boundary opens the later bucket, and one at `toSeconds` is in the last.
 */
export interface BucketLayout {
  /** Ascending; the first is the range's start. */
  readonly startsSeconds: readonly number[];
  readonly toSeconds: number;
}

/**
 * `count` buckets of (nearly) equal length over `[fromSeconds, toSeconds]`: bucket `i` starts at
 * `fromSeconds + floor(i * (toSeconds - fromSeconds) / count)`. Each must span a second at least, so `count` is at most
 * `toSeconds - fromSeconds` (or 1, which is always allowed, even for a range of one second).
 */
export function equalBuckets(fromSeconds: number, toSeconds: number, count: number): BucketLayout {
  checkRange(fromSeconds, toSeconds);
  const span = toSeconds - fromSeconds;
  if (!Number.isSafeInteger(count) || count < 1 || (count > 1 && count > span)) {
    throw new RangeError(`${count} buckets do not fit ${span} seconds: at most one bucket per second`);
  }
  return { startsSeconds: Array.from({ length: count }, (_, index) => fromSeconds + Math.floor((index * span) / count)), toSeconds };
}

/** How many buckets of `widthSeconds` cover `[fromSeconds, toSeconds]`: at least one. */
export function bucketCountOf(fromSeconds: number, toSeconds: number, widthSeconds: number): number {
  return Math.max(1, Math.ceil((toSeconds - fromSeconds) / widthSeconds));
}

/**
 * Buckets of `widthSeconds` from `fromSeconds` on (bucket `i` starts at `fromSeconds + i * widthSeconds`); the last
 * one ends at `toSeconds`, so it may be shorter.
 */
export function fixedWidthBuckets(fromSeconds: number, toSeconds: number, widthSeconds: number): BucketLayout {
  checkRange(fromSeconds, toSeconds);
  if (!Number.isSafeInteger(widthSeconds) || widthSeconds < 1) throw new RangeError(`a bucket is a whole number of seconds, at least 1 (got ${widthSeconds})`);
  const count = bucketCountOf(fromSeconds, toSeconds, widthSeconds);
  return { startsSeconds: Array.from({ length: count }, (_, index) => fromSeconds + index * widthSeconds), toSeconds };
}

function checkRange(fromSeconds: number, toSeconds: number): void {
  if (!Number.isSafeInteger(fromSeconds) || !Number.isSafeInteger(toSeconds) || fromSeconds > toSeconds) {
    throw new RangeError(`a range is two whole unix seconds, the first not after the second (got ${fromSeconds} to ${toSeconds})`);
  }
}

/** One bucket: its bounds (whole unix seconds), how many held blocks lie in it, and their fees when there are any. */
export interface BucketSummary {
  readonly startSeconds: number;
  /** Exclusive, but for the last bucket's: that one is `toSeconds`, inclusive. */
  readonly endSeconds: number;
  readonly blocks: number;
  /** Undefined for a bucket without blocks. */
  readonly fees: BucketFees | undefined;
}

export interface BucketFees extends FeeOrderStatistics {
  /** The bucket's first and last block (blocks between them may be missing from the history). */
  readonly fromBlock: bigint;
  readonly toBlock: bigint;
}

/**
 * Summarises the blocks of `runs` (oldest first, as HistoryView.runs hands them out) in the buckets of `layout`: per
 * bucket its block count, first and last block, min, max and the nearest-rank `percentiles` (whole numbers from 1 to
 * 100, ascending) of its base fees, exact over bigint wei. Blocks outside the layout's range are skipped, so `runs`
 * may cover more than it. Each run's fees are copied out during its own iteration step (its arrays are views).
 */
export function bucketStats(runs: Iterable<BlockRun>, layout: BucketLayout, percentiles: readonly number[]): BucketSummary[] {
  const builder = new BucketStatsBuilder(layout, percentiles);
  for (const run of runs) {
    if (!builder.add(run)) break;
  }
  return drain(builder.finish());
}

/**
 * bucketStats over a read in slices: each step reads `sliceBlocks` blocks, or works out a slice of `sliceBlocks` fees
 * of a bucket holding more than that, and yields the blocks it read (0 for a step of statistics), so that the caller
 * can let other work run between steps and charge what was read (shared/http/historyScans.ts).
 */
export function* bucketStatsInSlices(
  read: SlicedHistoryRead,
  layout: BucketLayout,
  scratch: () => BucketScratch,
  sliceBlocks: number,
): Generator<number, BucketSummary[]> {
  // The scratch is taken at the first step, when the caller lets the summary run (not when it is made).
  const builder = new BucketStatsBuilder(layout, scratch().percentiles, sliceBlocks, scratch());
  let open = true;
  while (open && !read.done) {
    yield read.next(sliceBlocks, (run) => {
      open &&= builder.add(run);
    });
    for (const _ of builder.settle()) yield 0;
  }
  return yield* mapYields(builder.finish(), () => 0);
}

/** The value a generator returns, its steps run at once. */
function drain<T>(steps: Generator<unknown, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}

/** `steps`, each of its yields replaced by `yielded()`. */
function* mapYields<T, Y>(steps: Generator<unknown, T>, yielded: () => Y): Generator<Y, T> {
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
    yield yielded();
  }
}

/**
 * The buffers a BucketStatsBuilder works in, which the next builder may reuse once it is done (one builder at a time):
 * the open bucket's fees and the order statistics' scratch, each as large as the largest bucket seen (8 bytes a fee).
 * Reusing them spares a summary of a week in one bucket its 80 MB of short-lived buffers, and the garbage collector
 * the full collections they would set off.
 */
export class BucketScratch {
  readonly percentiles: readonly number[];
  readonly statistics: FeeOrderStatisticsScratch;
  feesWei = new BigUint64Array(4096);

  constructor(percentiles: readonly number[]) {
    this.percentiles = [...percentiles];
    this.statistics = new FeeOrderStatisticsScratch(percentiles);
  }
}

/**
 * bucketStats one run at a time, so that a long history can be summarised in slices with other work between them
 * (bucketStatsInSlices): `add` the runs oldest first, `settle` after each slice, then `finish`. Each run's fees are
 * copied out during `add` (its arrays are views), so nothing of the history is held between calls. A bucket of more
 * than `deferAbove` fees is summarised by `settle` and `finish`, a slice of `deferAbove` fees per step, rather than
 * in the `add` that closes it.
 */
export class BucketStatsBuilder {
  readonly #startsSeconds: readonly number[];
  readonly #toSeconds: number;
  /**
   * Bucket i holds the timestamps in [edges[i], edges[i + 1]): with whole-second edges, that is the blocks whose
   * timestamp rounded down lies in [startsSeconds[i], startsSeconds[i + 1]), and for the last up to toSeconds included.
   */
  readonly #edges: Float64Array;
  readonly #scratch: BucketScratch;
  readonly #summaries: BucketSummary[] = [];
  /** The open bucket's fees (the first `#held`), grown as needed (the scratch's buffer until a big bucket takes it). */
  #feesWei: BigUint64Array;
  #held = 0;
  #fromBlock = 0n;
  #toBlock = 0n;
  readonly #deferAbove: number;
  /** Closed buckets whose statistics `settle` works out, each with its own fees (taken from `#feesWei`). */
  #deferred: { readonly index: number; readonly feesWei: BigUint64Array; readonly fromBlock: bigint; readonly toBlock: bigint }[] = [];

  constructor(layout: BucketLayout, percentiles: readonly number[], deferAbove = Number.POSITIVE_INFINITY, scratch = new BucketScratch(percentiles)) {
    if (scratch.percentiles.join() !== percentiles.join()) throw new RangeError("a scratch serves the percentiles it was made for");
    this.#deferAbove = deferAbove;
    this.#scratch = scratch;
    this.#feesWei = scratch.feesWei;
    this.#startsSeconds = layout.startsSeconds;
    this.#toSeconds = layout.toSeconds;
    if (this.#startsSeconds.length === 0) throw new RangeError("a layout has at least one bucket");
    this.#edges = Float64Array.from([...this.#startsSeconds, this.#toSeconds + 1]);
  }

  /** Takes the next run (oldest first); false once every bucket is closed (later runs can change nothing). */
  add(run: BlockRun): boolean {
    const bucketCount = this.#startsSeconds.length;
    const edges = this.#edges;
    const summaries = this.#summaries;
    const { timestamps, baseFeesWei } = run;
    const length = timestamps.length;
    let at = firstAtOrAfter(timestamps, edges[0]!, 0, length);
    while (at < length && summaries.length < bucketCount) {
      const bucketEnd = edges[summaries.length + 1]!;
      if (timestamps[at]! >= bucketEnd) {
        this.#closeBucket();
        continue;
      }
      const end = firstAtOrAfter(timestamps, bucketEnd, at + 1, length);
      const held = this.#held;
      if (held + end - at > this.#feesWei.length) {
        const grown = new BigUint64Array(Math.max(held + end - at, this.#feesWei.length * 2));
        grown.set(this.#feesWei.subarray(0, held));
        if (this.#feesWei === this.#scratch.feesWei) this.#scratch.feesWei = grown;
        this.#feesWei = grown;
      }
      this.#feesWei.set(baseFeesWei.subarray(at, end), held);
      if (held === 0) this.#fromBlock = run.firstBlock + BigInt(at);
      this.#toBlock = run.firstBlock + BigInt(end - 1);
      this.#held += end - at;
      at = end;
    }
    return summaries.length < bucketCount;
  }

  /** Works out the statistics of the big buckets closed so far, yielding after each slice of `deferAbove` fees. */
  *settle(): Generator<void, void> {
    for (const { index, feesWei, fromBlock, toBlock } of this.#deferred.splice(0)) {
      const statistics = yield* this.#scratch.statistics.ofInSlices(feesWei, this.#deferAbove);
      this.#summaries[index] = { ...this.#summaries[index]!, fees: { fromBlock, toBlock, ...statistics } };
    }
  }

  /** Every bucket's summary (those no run reached have no blocks), once the big ones are worked out (see settle). */
  *finish(): Generator<void, BucketSummary[]> {
    while (this.#summaries.length < this.#startsSeconds.length) this.#closeBucket();
    yield* this.settle();
    return this.#summaries;
  }

  #closeBucket(): void {
    const index = this.#summaries.length;
    const held = this.#held;
    const startSeconds = this.#startsSeconds[index]!;
    const endSeconds = index === this.#startsSeconds.length - 1 ? this.#toSeconds : this.#startsSeconds[index + 1]!;
    if (held > this.#deferAbove) {
      // Its fees go with it to `settle`; a bucket after it starts a buffer of its own.
      this.#deferred.push({ index, feesWei: this.#feesWei.subarray(0, held), fromBlock: this.#fromBlock, toBlock: this.#toBlock });
      if (index < this.#startsSeconds.length - 1) this.#feesWei = new BigUint64Array(4096);
      this.#summaries.push({ startSeconds, endSeconds, blocks: held, fees: undefined });
    } else {
      const fees =
        held === 0 ? undefined : { fromBlock: this.#fromBlock, toBlock: this.#toBlock, ...this.#scratch.statistics.of(this.#feesWei.subarray(0, held)) };
      this.#summaries.push({ startSeconds, endSeconds, blocks: held, fees });
    }
    this.#held = 0;
  }
}

/** The index of the first of the ascending `timestamps[from..to)` at or after `seconds` (`to` when none is). */
function firstAtOrAfter(timestamps: Float64Array, seconds: number, from: number, to: number): number {
  let low = from;
  let high = to;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (timestamps[middle]! < seconds) low = middle + 1;
    else high = middle;
  }
  return low;
}
