import { lowerBound } from "./sortedBigints.ts";

/** Values per bucket at most (a bucket splits beyond it); about the square root of the largest windows held. */
const DEFAULT_MAX_BUCKET = 2_048;

/**
 * A multiset of fees (bigint wei) that answers order statistics over millions of values: the k-th smallest, how many
 * are below a value, the smallest and the largest. Values live in ascending buckets of a bounded size, so an
 * insert or a removal moves at most one bucket's elements and a query walks the bucket sizes: microseconds for a
 * week of Arbitrum's blocks (2.4 million), where one sorted array would move megabytes per block.
 */
export class FeeMultiset {
  /** Ascending buckets: every value of bucket i is <= every value of bucket i + 1; no bucket is empty. */
  #buckets: bigint[][] = [];
  #size = 0;
  readonly #maxBucket: number;

  /** `maxBucket`: values per bucket before it splits (tests make it small to exercise splitting). */
  constructor(maxBucket = DEFAULT_MAX_BUCKET) {
    if (!Number.isInteger(maxBucket) || maxBucket < 2) throw new RangeError(`a bucket holds at least 2 values (got ${maxBucket})`);
    this.#maxBucket = maxBucket;
  }

  get size(): number {
    return this.#size;
  }

  insert(value: bigint): void {
    this.#size++;
    if (this.#buckets.length === 0) {
      this.#buckets.push([value]);
      return;
    }
    const index = this.#bucketFor(value);
    const bucket = this.#buckets[index]!;
    bucket.splice(lowerBound(bucket, value), 0, value);
    if (bucket.length > this.#maxBucket) this.#buckets.splice(index + 1, 0, bucket.splice(bucket.length >>> 1));
  }

  /** Removes one occurrence of `value`; false when it is not held. */
  remove(value: bigint): boolean {
    if (this.#buckets.length === 0) return false;
    // The first bucket whose largest value is >= value holds its first occurrence, if any bucket does.
    const low = this.#bucketFor(value);
    const bucket = this.#buckets[low]!;
    const at = lowerBound(bucket, value);
    if (bucket[at] !== value) return false;
    bucket.splice(at, 1);
    this.#size--;
    if (bucket.length === 0) this.#buckets.splice(low, 1);
    return true;
  }

  /** Replaces the contents with `values` (any order) in one sort: far faster than inserting them one by one. */
  reset(values: Iterable<bigint>): void {
    const sorted = BigUint64Array.from(values).sort();
    this.#buckets = [];
    for (let start = 0; start < sorted.length; start += this.#maxBucket >>> 1) {
      this.#buckets.push(Array.from(sorted.subarray(start, start + (this.#maxBucket >>> 1))));
    }
    this.#size = sorted.length;
  }

  clear(): void {
    this.#buckets = [];
    this.#size = 0;
  }

  /** The k-th smallest value, from 0 (the smallest) to size - 1. */
  at(rank: number): bigint {
    if (!Number.isInteger(rank) || rank < 0 || rank >= this.#size) throw new RangeError(`rank ${rank} is outside 0..${this.#size - 1}`);
    let remaining = rank;
    for (const bucket of this.#buckets) {
      if (remaining < bucket.length) return bucket[remaining]!;
      remaining -= bucket.length;
    }
    throw new Error("unreachable: the bucket sizes add up to size");
  }

  get min(): bigint | undefined {
    return this.#buckets[0]?.[0];
  }

  get max(): bigint | undefined {
    return this.#buckets.at(-1)?.at(-1);
  }

  /** How many values are below `value`. */
  countBelow(value: bigint): number {
    let count = 0;
    for (const bucket of this.#buckets) {
      if (bucket.at(-1)! < value) {
        count += bucket.length;
        continue;
      }
      return count + lowerBound(bucket, value);
    }
    return count;
  }

  /** How many values are at most `value`. */
  countAtMost(value: bigint): number {
    return this.countBelow(value + 1n);
  }

  /** The index of the bucket `value` belongs in: the first whose largest value is >= value, else the last. */
  #bucketFor(value: bigint): number {
    let low = 0;
    let high = this.#buckets.length - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.#buckets[middle]!.at(-1)! < value) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
