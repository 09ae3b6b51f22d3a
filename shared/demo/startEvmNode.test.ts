import assert from "node:assert/strict";
import { after, test } from "node:test";
import { EvmNodeRpcError, EvmNodeStoppedError } from "./errors.ts";
import { loadMainnetBaseFees } from "./mainnetBaseFees.ts";
import { startDemoReplay } from "./startDemoReplay.ts";
import { startEvmNode, type EvmNode } from "./startEvmNode.ts";

interface FeeHistory {
  oldestBlock: string;
  baseFeePerGas: string[];
}

const started: EvmNode[] = [];
after(() => Promise.all(started.map((node) => node.stop())));

async function node(options?: Parameters<typeof startEvmNode>[0]): Promise<EvmNode> {
  const started_ = await startEvmNode(options);
  started.push(started_);
  return started_;
}

test("a forked Hardhat node serves the chain id asked for and mines the base fees given, exactly", async () => {
  const evm = await node({ chainId: 1 });
  assert.match(evm.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.equal(evm.wsUrl, evm.url.replace("http:", "ws:"));
  assert.notEqual(evm.pid, process.pid);
  assert.equal(await evm.request("eth_chainId"), "0x1");
  const fees = loadMainnetBaseFees().baseFeesWei.slice(0, 500);
  assert.equal(await evm.mineBlocks(fees), 500n);
  assert.equal(await evm.mineBlock(123_456_789n), 501n);
  const history = await evm.request<FeeHistory>("eth_feeHistory", ["0x1f5", "latest", []]);
  assert.equal(history.oldestBlock, "0x1");
  assert.deepEqual(history.baseFeePerGas.slice(0, 501).map(BigInt), [...fees, 123_456_789n]);
});

test("an RPC error is a named error saying what failed", async () => {
  const evm = await node();
  await assert.rejects(evm.request("eth_noSuchMethod"), (error: unknown) => error instanceof EvmNodeRpcError && /eth_noSuchMethod/.test(error.message));
});

test("a berlin node has no base fee; stop() and kill() end the process and later calls say so", async () => {
  const berlin = await node({ hardfork: "berlin", chainId: 5 });
  assert.equal(await berlin.mineBlock(7n), 1n);
  const block = await berlin.request<{ baseFeePerGas?: string }>("eth_getBlockByNumber", ["latest", false]);
  assert.equal(block.baseFeePerGas, undefined);
  await berlin.kill();
  assert.throws(() => process.kill(berlin.pid, 0));
  await assert.rejects(berlin.mineBlock(1n), EvmNodeStoppedError);
  const other = await node();
  await other.stop();
  await assert.rejects(other.request("eth_chainId"), EvmNodeStoppedError);
});

test("a node restarted on the same port answers at the same URL", async () => {
  const first = await node();
  await first.stop();
  const second = await node({ port: first.port, chainId: 10 });
  assert.equal(second.url, first.url);
  assert.equal(await second.request("eth_chainId"), "0xa");
});

test("the demo replay preloads real fees, then mines one per interval, and stops cleanly", async () => {
  const evm = await node();
  const fees = loadMainnetBaseFees();
  const stop = await startDemoReplay(evm, { firstBlock: fees.firstBlock, baseFeesWei: fees.baseFeesWei.slice(0, 3) }, { preloadBlocks: 4, intervalMs: 40 });
  assert.equal(BigInt(await evm.request<string>("eth_blockNumber")), 4n);
  await new Promise((resolve) => setTimeout(resolve, 230));
  stop();
  const newest = BigInt(await evm.request<string>("eth_blockNumber"));
  assert.ok(newest >= 6n && newest <= 10n, `expected 2..6 more blocks, got to ${newest}`);
  await new Promise((resolve) => setTimeout(resolve, 120));
  assert.equal(BigInt(await evm.request<string>("eth_blockNumber")), newest, "no block after stop");
  const history = await evm.request<FeeHistory>("eth_feeHistory", ["0x6", "0x6", []]);
  const [a, b, c] = fees.baseFeesWei;
  // Blocks 1..4 are the preload (a, b, c, then a again: it loops); 5 and 6 continue the loop (b, c).
  assert.deepEqual(history.baseFeePerGas.slice(0, 6).map(BigInt), [a, b, c, a, b, c]);
});
