import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { blobBaseFeeOf, GAS_PER_BLOB, nextExcessBlobGas } from "../core/fees/blobFeeRule.ts";
import { DEMO_BLOB_SCHEDULE, demoBlobsOf } from "./demoBlobFees.ts";
import { type EvmNode, startEvmNode } from "./startEvmNode.ts";

let node: EvmNode;
let plain: EvmNode;
// Base fees from 30 gwei down to about 1.2 gwei, a tenth lower a block: the blob fee starts under EIP-7918's reserve
// price (a sixteenth of the base fee) and the demo's busy blocks lift it.
const FEES = Array.from({ length: 1_200 }, (_, i) => 1_000_000_000n + (29_000_000_000n * 9n ** BigInt(Math.min(i, 30))) / 10n ** BigInt(Math.min(i, 30)));

before(async () => {
  [node, plain] = await Promise.all([startEvmNode({ blobFees: true }), startEvmNode()]);
  await node.mineBlocks(FEES);
});

after(async () => {
  await Promise.all([node?.stop(), plain?.stop()]);
});

interface FeeHistory {
  oldestBlock: string;
  baseFeePerGas: string[];
  gasUsedRatio: number[];
  baseFeePerBlobGas?: string[];
  blobGasUsedRatio?: number[];
}

test("the demo node's eth_feeHistory carries blob base fees that follow EIP-4844 and EIP-7918 from the blobs each block used, asked in any order", async () => {
  // Asked first for the newest blocks (the layer reads the older base fees it needs itself), then for older ones.
  const newest = await node.request<FeeHistory>("eth_feeHistory", ["0x40", "latest", []]);
  const older = await node.request<FeeHistory>("eth_feeHistory", ["0x20", "0x64", []]);
  // Every block's base fee, as the node itself gives it, and the blob fee recomputed here from block 0 on.
  const baseFees: bigint[] = [];
  for (let first = 0; first <= FEES.length; first += 1_024) {
    const page = await node.request<FeeHistory>("eth_feeHistory", [
      `0x${Math.min(1_024, FEES.length + 1 - first).toString(16)}`,
      `0x${Math.min(FEES.length, first + 1_023).toString(16)}`,
      [],
    ]);
    page.gasUsedRatio.forEach((_, i) => (baseFees[Number(page.oldestBlock) + i] = BigInt(page.baseFeePerGas[i]!)));
  }
  const excess = [0n];
  for (let block = 1; block <= FEES.length + 1; block++) {
    excess.push(
      nextExcessBlobGas(
        { excessBlobGas: excess[block - 1]!, blobGasUsed: BigInt(demoBlobsOf(block - 1)) * GAS_PER_BLOB, baseFeeWei: baseFees[block - 1]! },
        DEMO_BLOB_SCHEDULE,
      ),
    );
  }
  for (const answer of [newest, older]) {
    const oldest = Number(answer.oldestBlock);
    assert.equal(answer.baseFeePerBlobGas?.length, answer.baseFeePerGas.length, "one per block and the next block's");
    assert.deepEqual(
      answer.baseFeePerBlobGas,
      answer.baseFeePerGas.map((_, i) => `0x${blobBaseFeeOf(excess[oldest + i]!, DEMO_BLOB_SCHEDULE).toString(16)}`),
    );
    assert.deepEqual(
      answer.blobGasUsedRatio,
      answer.gasUsedRatio.map((_, i) => demoBlobsOf(oldest + i) / DEMO_BLOB_SCHEDULE.max),
    );
  }
  // The fee moved: from 1 wei under the floor up as the busy stretches push it.
  const fees = newest.baseFeePerBlobGas!.map(BigInt);
  assert.ok(
    fees.some((fee) => fee > 1n),
    String(fees.slice(0, 3)),
  );
  // A node without the layer answers as Hardhat does: no blob fields.
  await plain.mineBlocks([1_000_000_000n]);
  const bare = await plain.request<FeeHistory>("eth_feeHistory", ["0x1", "latest", []]);
  assert.equal(bare.baseFeePerBlobGas, undefined);
  assert.equal(bare.blobGasUsedRatio, undefined);
});
