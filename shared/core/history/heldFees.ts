import type { BlockColumns, FeeSeries } from "./blockColumns.ts";

/**
 * The base fees of the held blocks in [fromBlock, toBlock], copied run by run into one array (no BigInt per fee). The
 * array is sized by the blocks held there, never by the span of numbers: a range may reach from block 0 to 2^53 - 1.
 */
export function heldFeesBetween(columns: BlockColumns, fromBlock: number, toBlock: number, series: FeeSeries = "base"): BigUint64Array {
  if (toBlock < fromBlock) return new BigUint64Array(0);
  if (series === "blob") return heldBlobFeesBetween(columns, fromBlock, toBlock);
  const runs = [...columns.runsBetween(fromBlock, toBlock)];
  const fees = new BigUint64Array(runs.reduce((held, run) => held + run.baseFeesWei.length, 0));
  let count = 0;
  for (const run of runs) {
    fees.set(run.baseFeesWei, count);
    count += run.baseFeesWei.length;
  }
  return fees;
}

/**
 * The first held block in [fromBlock, toBlock]: a window's first block as its readers see it (X-Stats-From-Block), since
 * the block where a window starts may lie in a gap. Undefined when none is held there.
 */
export function firstHeldBetween(columns: BlockColumns, fromBlock: number, toBlock: number): number | undefined {
  for (const run of columns.runsBetween(fromBlock, toBlock)) return Number(run.firstBlock);
  return undefined;
}

/** The known blob base fees of the held blocks in [fromBlock, toBlock], oldest first (blocks without one skipped). */
function heldBlobFeesBetween(columns: BlockColumns, fromBlock: number, toBlock: number): BigUint64Array {
  let count = 0;
  columns.forEachHeld(fromBlock, toBlock, () => count++, "blob");
  const fees = new BigUint64Array(count);
  let at = 0;
  columns.forEachHeld(fromBlock, toBlock, (fee) => (fees[at++] = fee), "blob");
  return fees;
}

/** The first held block with a blob base fee in [fromBlock, toBlock]; undefined when none. */
export function firstBlobFeeBetween(columns: BlockColumns, fromBlock: number, toBlock: number): number | undefined {
  for (const run of columns.runsBetween(fromBlock, toBlock)) {
    const fees = run.blobBaseFeesWei;
    if (fees === undefined) continue;
    const at = fees.findIndex((fee) => fee >= 0n);
    if (at >= 0) return Number(run.firstBlock) + at;
  }
  return undefined;
}

/** The first block in [fromBlock, toBlock] whose fee of `series` is held: where a window of that series starts for its readers. */
export function firstFeeBetween(columns: BlockColumns, fromBlock: number, toBlock: number, series: FeeSeries): number | undefined {
  return series === "base" ? firstHeldBetween(columns, fromBlock, toBlock) : firstBlobFeeBetween(columns, fromBlock, toBlock);
}
