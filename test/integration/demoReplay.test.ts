// The demo replay on a real Hardhat node, one block at a time: each block must carry the replayed mainnet fee and sit
// at its gas target, and the node must report that same fee as the next block's at every head, as the service reads it
// (shared/demo/demoReplayPlan.test.ts counts the busy changes on that premise).
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { demoReplaySeries, replayedBaseFeeWei } from "../../shared/demo/demoReplayPlan.ts";
import { startDemoReplay } from "../../shared/demo/startDemoReplay.ts";
import { type EvmNode, startEvmNode } from "../../shared/demo/startEvmNode.ts";
import { waitFor } from "../support/apiClient.ts";

interface FeeHistory {
  oldestBlock: string;
  baseFeePerGas: string[];
}
interface Block {
  number: string;
  baseFeePerGas: string;
  gasLimit: string;
  gasUsed: string;
  transactions: string[];
}

/**
 * The node, with each of the replay's mineBlock calls held until the test lets it through, so that the test looks at
 * the head between two blocks without racing the replay's timer.
 */
function gated(node: EvmNode): { node: EvmNode; mineOne(): Promise<bigint>; waiting(): number } {
  const held: Array<() => Promise<bigint>> = [];
  const proxy = new Proxy(node, {
    get(target, key) {
      if (key === "mineBlock") {
        return (baseFeeWei: bigint) =>
          new Promise<bigint>((resolve, reject) => {
            held.push(() => {
              const mined = target.mineBlock(baseFeeWei);
              mined.then(resolve, reject);
              return mined;
            });
          });
      }
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return {
    node: proxy,
    async mineOne() {
      const release = await waitFor("the replay's next block", () => held.shift(), 30_000);
      return release();
    },
    waiting: () => held.length,
  };
}

const nodes: EvmNode[] = [];
after(() => Promise.all(nodes.map((node) => node.stop())));

test("each replayed block holds its mainnet fee at its gas target, and the node reports that fee as the next block's", async () => {
  const node = await startEvmNode();
  nodes.push(node);
  // Eight real fees, five of them preloaded: the live blocks go round the series once and a half.
  const demo = demoReplaySeries();
  const series = { firstBlock: demo.firstBlock, baseFeesWei: demo.baseFeesWei.slice(0, 8) };
  const replay = gated(node);
  const stop = await startDemoReplay(replay.node, series, { preloadBlocks: 5, intervalMs: 10 });
  try {
    const head = async () => {
      const history = await node.request<FeeHistory>("eth_feeHistory", ["0x1", "latest", []]);
      const block = await node.request<Block>("eth_getBlockByNumber", ["latest", false]);
      return { number: BigInt(block.number), baseFeeWei: BigInt(history.baseFeePerGas[0]!), nextBaseFeeWei: BigInt(history.baseFeePerGas[1]!), block };
    };
    const afterPreload = await head();
    assert.equal(afterPreload.number, 5n);
    assert.equal(afterPreload.baseFeeWei, replayedBaseFeeWei(series, 4));
    assert.equal(afterPreload.nextBaseFeeWei, afterPreload.baseFeeWei, "after the preload, the next fee is the newest block's");

    for (let index = 5; index < 17; index++) {
      assert.equal(await replay.mineOne(), BigInt(index + 1));
      const now = await head();
      assert.equal(now.number, BigInt(index + 1));
      assert.equal(now.baseFeeWei, replayedBaseFeeWei(series, index), `block ${now.number} carries the replayed fee (index ${index})`);
      assert.equal(now.nextBaseFeeWei, now.baseFeeWei, `block ${now.number}: the node reports its own fee as the next block's`);
      assert.equal(now.block.transactions.length, 1, `block ${now.number} holds the replay's transfer`);
      assert.equal(BigInt(now.block.gasUsed) * 2n, BigInt(now.block.gasLimit), `block ${now.number} uses exactly its gas target`);
    }
  } finally {
    stop();
  }
  // Stopped: whatever the timer had asked for is let through, and nothing more is asked for.
  while (replay.waiting() > 0) await replay.mineOne();
  const newest = BigInt(await node.request<string>("eth_blockNumber"));
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.equal(replay.waiting(), 0, "no block asked for after stop");
  assert.equal(BigInt(await node.request<string>("eth_blockNumber")), newest);
});
