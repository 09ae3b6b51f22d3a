/** A multiset of bigints kept in ascending order, so that a percentile is one index away. */
export class SortedBigints {
  readonly #values: bigint[] = [];

  get values(): readonly bigint[] {
    return this.#values;
  }

  get size(): number {
    return this.#values.length;
  }

  insert(value: bigint): void {
    this.#values.splice(lowerBound(this.#values, value), 0, value);
  }

  /** Removes one occurrence; returns false when the value is not held. */
  remove(value: bigint): boolean {
    const index = lowerBound(this.#values, value);
    if (this.#values[index] !== value) return false;
    this.#values.splice(index, 1);
    return true;
  }

  clear(): void {
    this.#values.length = 0;
  }
}

/** The index of the first value not below `value` in an ascending array (its length when every value is below). */
export function lowerBound(sortedAscending: readonly bigint[], value: bigint): number {
  let low = 0;
  let high = sortedAscending.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sortedAscending[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}
