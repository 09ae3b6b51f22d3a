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
