import assert from "node:assert/strict";
import { after, test } from "node:test";
import { WebSocket } from "ws";
import { createRpcConnection } from "../rpc/connection/rpcConnection.ts";
import { startEvmNode } from "./startEvmNode.ts";

const node = await startEvmNode({ chainId: 1 });
after(() => node.stop());

test("the local node answers a JSON-RPC batch over HTTP in one request: the newest header and its fee history agree", async () => {
  const newest = await node.mineBlocks([7n, 8n, 9n]);
  const connection = createRpcConnection(node.url, { timeoutMs: 10_000 });
  after(() => connection.close());
  const [header, history] = await connection.requestBatch([
    { method: "eth_getBlockByNumber", params: ["latest", false] },
    { method: "eth_feeHistory", params: ["0x3", "latest", []] },
  ]);
  assert.ok(header?.ok && history?.ok, "both calls answered");
  const block = header.result as { number: string; timestamp: string };
  assert.equal(BigInt(block.number), newest);
  assert.match(block.timestamp, /^0x[0-9a-f]+$/);
  const fees = history.result as { oldestBlock: string; baseFeePerGas: string[] };
  assert.equal(BigInt(fees.oldestBlock), newest - 2n);
  assert.deepEqual(fees.baseFeePerGas.slice(0, 3).map(BigInt), [7n, 8n, 9n]);
});

test("the local node answers a batch over WebSocket as one message", async () => {
  const socket = new WebSocket(node.wsUrl);
  after(() => socket.close());
  await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
  const answer = new Promise<unknown>((resolve) => socket.once("message", (data: Buffer) => resolve(JSON.parse(data.toString("utf8")))));
  socket.send(
    JSON.stringify([
      { jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] },
      { jsonrpc: "2.0", id: 2, method: "eth_blockNumber", params: [] },
    ]),
  );
  const answers = (await answer) as Array<{ id: number; result: string }>;
  assert.deepEqual(
    answers.map((each) => each.id),
    [1, 2],
  );
  assert.equal(answers[0]!.result, "0x1");
});
