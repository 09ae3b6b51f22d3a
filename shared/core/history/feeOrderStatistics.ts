import { nearestRankIndex } from "../fees/percentile.ts";

/** The smallest and largest fee of a set and its nearest-rank percentiles, in the order they were asked for. */
export interface FeeOrderStatistics {
  readonly minWei: bigint;
  readonly maxWei: bigint;
  readonly percentilesWei: readonly bigint[];
}

/** Sets this small are sorted whole: the histogram's fixed costs would outweigh what it saves. */
const SORT_WHOLE_BELOW = 64;
/** Bins of the histogram that narrows each percentile down to the few values that can hold it. */
const HISTOGRAM_BINS = 1024;
/** 2^32: a fee's high 32-bit word is worth this many wei. */
const HIGH_WORD_WEI = 4_294_967_296;
/** A high word at or above this makes the fee 2^53 wei or more, where a double no longer holds every integer. */
const FIRST_INEXACT_HIGH_WORD = 2 ** 21;

/**
 * Min, max and nearest-rank percentiles (`sorted[ceil(q/100 * N) - 1]`) of fees in wei, exact, without sorting them.
 *
 * Why not sort: `baseFeeStats` summarises a week of 0.25 s blocks (2.4 million fees) in 672 buckets within its 50 ms
 * goal, and sorting each bucket (even natively, as BigUint64Array.sort does) costs about twice that. Instead, each fee
 * below 2^53 wei (9 million Gwei: every real base fee) is read as a double straight from its two 32-bit words (no
 * BigInt is made per fee), counted into a histogram between the set's min and max, and only the values in the few
 * bins that hold an asked-for rank are gathered and partially sorted (quickselect). The bin of a value is a monotonic
 * function of it, so the ranks found are exact; a set with any fee of 2^53 wei or more is sorted as bigints instead.
 *
 * One instance keeps its scratch buffers between calls (growing them as needed); it is not shared between callers.
 */
export class FeeOrderStatisticsScratch {
  readonly #percentiles: readonly number[];
  readonly #littleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
  readonly #counts = new Int32Array(HISTOGRAM_BINS + 1);
  /** For each bin, the index of its region in `#gathered`, or -1 when no asked-for rank falls in it. */
  readonly #regionOfBin = new Int16Array(HISTOGRAM_BINS + 1).fill(-1);
  /** The fees as doubles, read once from their words: the later passes read one number per fee instead of two. */
  #values = new Float64Array(1024);
  #gathered = new Float64Array(1024);

  /** `percentiles`: whole numbers from 1 to 100, ascending, as every call will ask for them. */
  constructor(percentiles: readonly number[]) {
    for (let index = 0; index < percentiles.length; index++) {
      nearestRankIndex(1, percentiles[index]!);
      if (index > 0 && percentiles[index]! <= percentiles[index - 1]!) throw new RangeError(`percentiles must ascend (got ${percentiles.join(", ")})`);
    }
    this.#percentiles = [...percentiles];
  }

  /** The statistics of `feesWei` (at least one fee), which it may reorder. */
  of(feesWei: BigUint64Array): FeeOrderStatistics {
    const steps = this.ofInSlices(feesWei, Number.POSITIVE_INFINITY);
    for (;;) {
      const step = steps.next();
      if (step.done === true) return step.value;
    }
  }

  /**
   * `of`, a slice at a time: it yields after each `sliceValues` fees of each pass over them (three passes), so that a
   * caller can let other work run between slices (baseFeeStats' bucket of a week of a fast chain). `feesWei` must not
   * change until it returns. A set with a fee of 2^53 wei or more is sorted in one step.
   */
  *ofInSlices(feesWei: BigUint64Array, sliceValues: number): Generator<void, FeeOrderStatistics> {
    const count = feesWei.length;
    if (count === 0) throw new RangeError("need at least one fee");
    if (count < SORT_WHOLE_BELOW || !this.#littleEndian) return this.#bySorting(feesWei);
    const words = new Uint32Array(feesWei.buffer, feesWei.byteOffset, count * 2);
    if (this.#values.length < count) this.#values = new Float64Array(Math.max(count, this.#values.length * 2));
    const values = this.#values;

    let min = Infinity;
    let max = -Infinity;
    let highWords = 0;
    let sliceEnd = sliceValues;
    for (let index = 0; index < count; index++) {
      const high = words[2 * index + 1]!;
      highWords |= high;
      const value = high * HIGH_WORD_WEI + words[2 * index]!;
      values[index] = value;
      if (value < min) min = value;
      if (value > max) max = value;
      if (index === sliceEnd) {
        yield;
        sliceEnd += sliceValues;
      }
    }
    // `|` works on signed 32-bit integers: a high word of 2^31 or more makes it negative.
    if (highWords < 0 || highWords >= FIRST_INEXACT_HIGH_WORD) return this.#bySorting(feesWei);
    const ranks = this.#percentiles.map((percentile) => nearestRankIndex(count, percentile));
    if (min === max) return { minWei: BigInt(min), maxWei: BigInt(max), percentilesWei: ranks.map(() => BigInt(min)) };

    // Bins by (value - min) * scale, rounded down: monotonic in the value, so every value of a bin is below every
    // value of the next one, and the rank of a value is its rank in its bin plus the counts of the bins before.
    const scale = HISTOGRAM_BINS / (max - min);
    const counts = this.#counts;
    counts.fill(0);
    sliceEnd = sliceValues;
    for (let index = 0; index < count; index++) {
      counts[((values[index]! - min) * scale) | 0]!++;
      if (index === sliceEnd) {
        yield;
        sliceEnd += sliceValues;
      }
    }

    // The bins that hold a rank, each with the ranks before it and where its values go in `#gathered`.
    const regionOfBin = this.#regionOfBin;
    const regionBins: number[] = [];
    const regionRanksBefore: number[] = [];
    const regionStarts: number[] = [];
    const rankRegions: number[] = [];
    let ranksBefore = 0;
    let gatheredCount = 0;
    let rank = 0;
    for (let bin = 0; bin <= HISTOGRAM_BINS && rank < ranks.length; bin++) {
      const inBin = counts[bin]!;
      if (ranks[rank]! < ranksBefore + inBin) {
        regionOfBin[bin] = regionBins.length;
        regionBins.push(bin);
        regionRanksBefore.push(ranksBefore);
        regionStarts.push(gatheredCount);
        gatheredCount += inBin;
        while (rank < ranks.length && ranks[rank]! < ranksBefore + inBin) {
          rankRegions.push(regionBins.length - 1);
          rank++;
        }
      }
      ranksBefore += inBin;
    }

    if (this.#gathered.length < gatheredCount) this.#gathered = new Float64Array(Math.max(gatheredCount, this.#gathered.length * 2));
    const gathered = this.#gathered;
    const filled = [...regionStarts];
    sliceEnd = sliceValues;
    try {
      for (let index = 0; index < count; index++) {
        const value = values[index]!;
        const region = regionOfBin[((value - min) * scale) | 0]!;
        if (region >= 0) gathered[filled[region]!++] = value;
        if (index === sliceEnd) {
          yield;
          sliceEnd += sliceValues;
        }
      }
    } finally {
      // Cleared even when the caller stops early: the next call finds no bin marked.
      for (const bin of regionBins) regionOfBin[bin] = -1;
    }

    const percentilesWei = ranks.map((wanted, index) => {
      const region = rankRegions[index]!;
      const start = regionStarts[region]!;
      const at = start + wanted - regionRanksBefore[region]!;
      selectInPlace(gathered, start, filled[region]! - 1, at);
      return BigInt(gathered[at]!);
    });
    return { minWei: BigInt(min), maxWei: BigInt(max), percentilesWei };
  }

  #bySorting(feesWei: BigUint64Array): FeeOrderStatistics {
    const sorted = feesWei.sort();
    return {
      minWei: sorted[0]!,
      maxWei: sorted[sorted.length - 1]!,
      percentilesWei: this.#percentiles.map((percentile) => sorted[nearestRankIndex(sorted.length, percentile)]!),
    };
  }
}

/** Below this many values, quickselect finishes with an insertion sort. */
const INSERTION_SORT_BELOW = 24;

/**
 * Quickselect (Hoare's partition, median-of-three pivot): reorders `values[low..high]` (inclusive) so that
 * `values[target]` is the value that would be there if the range were sorted.
 */
function selectInPlace(values: Float64Array, low: number, high: number, target: number): void {
  while (high - low >= INSERTION_SORT_BELOW) {
    const first = values[low]!;
    const middle = values[(low + high) >>> 1]!;
    const last = values[high]!;
    const pivot = first < middle ? (middle < last ? middle : first < last ? last : first) : first < last ? first : middle < last ? last : middle;
    let left = low;
    let right = high;
    while (left <= right) {
      while (values[left]! < pivot) left++;
      while (values[right]! > pivot) right--;
      if (left <= right) {
        const swapped = values[left]!;
        values[left] = values[right]!;
        values[right] = swapped;
        left++;
        right--;
      }
    }
    // Now values[low..right] <= pivot <= values[left..high], and anything between them equals the pivot.
    if (target <= right) high = right;
    else if (target >= left) low = left;
    else return;
  }
  for (let index = low + 1; index <= high; index++) {
    const value = values[index]!;
    let at = index - 1;
    while (at >= low && values[at]! > value) {
      values[at + 1] = values[at]!;
      at--;
    }
    values[at + 1] = value;
  }
}
