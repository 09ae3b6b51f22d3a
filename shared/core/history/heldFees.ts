import type { BlockColumns } from "./blockColumns.ts";

/** The base fees of the held blocks in [fromBlock, toBlock], copied run by run into one array (no BigInt per fee). */
export function heldFeesBetween(columns: BlockColumns, fromBlock: number, toBlock: number): BigUint64Array {
  if (toBlock < fromBlock) return new BigUint64Array(0);
  const fees = new BigUint64Array(toBlock - fromBlock + 1);
  let count = 0;
  for (const run of columns.runsBetween(fromBlock, toBlock)) {
    fees.set(run.baseFeesWei, count);
    count += run.baseFeesWei.length;
  }
  return fees.subarray(0, count);
}
