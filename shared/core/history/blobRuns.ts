import type { BlockRun } from "./blockRun.ts";

/**
 * The blob base fees of `runs` as runs of their own: the stretches of consecutive blocks that have one, each with the
 * blob base fees where the base fees were (views, as the runs' are). So whatever summarises base fees by runs (the
 * buckets of baseFeeStats) summarises blob base fees as they are, blocks without one left out.
 */
export function* blobRuns(runs: Iterable<BlockRun>): Generator<BlockRun> {
  for (const run of runs) {
    const fees = run.blobBaseFeesWei;
    if (fees === undefined) continue;
    let at = 0;
    while (at < fees.length) {
      while (at < fees.length && fees[at]! < 0n) at++;
      const start = at;
      while (at < fees.length && fees[at]! >= 0n) at++;
      if (at === start) continue;
      yield {
        firstBlock: run.firstBlock + BigInt(start),
        timestamps: run.timestamps.subarray(start, at),
        // The known fees are non-negative, so their bytes read the same as unsigned.
        baseFeesWei: new BigUint64Array(fees.buffer, fees.byteOffset + start * 8, at - start),
      };
    }
  }
}
