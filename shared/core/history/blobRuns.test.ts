import assert from "node:assert/strict";
import { test } from "node:test";
import { blobRuns } from "./blobRuns.ts";
import type { BlockRun } from "./blockRun.ts";

const run = (firstBlock: bigint, blobFees: readonly bigint[] | undefined): BlockRun => ({
  firstBlock,
  timestamps: Float64Array.from(blobFees ?? [0n], (_, i) => 1_000 + Number(firstBlock) + i),
  baseFeesWei: BigUint64Array.from(blobFees ?? [0n], () => 99n),
  ...(blobFees ? { blobBaseFeesWei: BigInt64Array.from(blobFees) } : {}),
});

test("blob runs: the stretches of blocks with a blob base fee, the blob fees in place of the base fees, times kept", () => {
  const runs = [...blobRuns([run(10n, [-1n, 5n, 6n, -1n, -1n, 7n]), run(20n, undefined), run(30n, [8n]), run(40n, [-1n])])];
  assert.deepEqual(
    runs.map((r) => ({ first: r.firstBlock, fees: [...r.baseFeesWei], times: [...r.timestamps] })),
    [
      { first: 11n, fees: [5n, 6n], times: [1_011, 1_012] },
      { first: 15n, fees: [7n], times: [1_015] },
      { first: 30n, fees: [8n], times: [1_030] },
    ],
  );
  assert.deepEqual([...blobRuns([run(0n, [2n ** 63n - 1n])])][0]!.baseFeesWei[0], 2n ** 63n - 1n, "the largest fee held reads the same");
});
