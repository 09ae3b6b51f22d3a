import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { after, test } from "node:test";
import { RpcEndpointError } from "../connection/errors.ts";
import { fetchBaseFees, type FeeHistoryLimit } from "./fetchBaseFees.ts";
import { createRpcConnection } from "../connection/rpcConnection.ts";

interface Call {
  readonly id: number;
  readonly method: string;
  readonly params: unknown[];
}

/**
 * A real JSON-RPC server of a chain whose newest block is 1000 (timestamp 1,700,012,000, one block per 12 s, base fee
 * 7 wei a block): it answers each call with `answer` (a result, an error, or undefined for the honest answer) and
 * records each request's calls. `wholeBatch` answers a batch with one object instead.
 */
async function chainServer(options: { answer?: (call: Call) => object | undefined; wholeBatch?: () => object } = {}) {
  const requests: Call[][] = [];
  const honest = (call: Call): object => {
    if (call.method === "eth_getBlockByNumber") return { result: { number: "0x3e8", timestamp: `0x${(1_700_012_000).toString(16)}` } };
    const count = Number(BigInt(call.params[0] as string));
    const newest = call.params[1] === "latest" ? 1000 : Number(BigInt(call.params[1] as string));
    const oldest = newest - count + 1;
    const fees = Array.from({ length: count + 1 }, () => "0x7");
    return { result: { oldestBlock: `0x${oldest.toString(16)}`, baseFeePerGas: fees, gasUsedRatio: fees.slice(1).map(() => 0.5) } };
  };
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Call | Call[];
      const calls = Array.isArray(body) ? body : [body];
      requests.push(calls);
      const answers = calls.map((call) => ({ jsonrpc: "2.0", id: call.id, ...(options.answer?.(call) ?? honest(call)) }));
      const json = Array.isArray(body) ? (options.wholeBatch?.() ?? answers) : answers[0];
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  after(() => {
    server.closeAllConnections();
    server.close();
  });
  const connection = createRpcConnection(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, { timeoutMs: 5000 });
  after(() => connection.close());
  return { connection, requests };
}

function unlimited(): FeeHistoryLimit & { readonly lowered: number[] } {
  const lowered: number[] = [];
  return {
    lowered,
    get maxBlocks() {
      return lowered.length === 0 ? Number.POSITIVE_INFINITY : Math.min(...lowered);
    },
    lower: (blocks) => void lowered.push(blocks),
  };
}

test("with the header: one request holds the newest header's call and the fees', and the answer carries both", async () => {
  const { connection, requests } = await chainServer();
  const answer = await fetchBaseFees(connection, { fromBlock: 993n, maxBlocks: 500, firstRequestBlocks: 64, withHeader: true }, unlimited());
  assert.equal(requests.length, 1);
  assert.deepEqual(
    requests[0]!.map((call) => call.method),
    ["eth_getBlockByNumber", "eth_feeHistory"],
  );
  assert.deepEqual(requests[0]![0]!.params, ["latest", false]);
  assert.deepEqual(answer.header, { block: 1000n, timestamp: 1_700_012_000 });
  assert.equal(answer.oldestBlock, 937n);
  assert.equal(answer.baseFeesWei.length, 64);
  assert.equal(answer.batchRefused, undefined);
});

test("without it, the fees alone, as before", async () => {
  const { connection, requests } = await chainServer();
  const answer = await fetchBaseFees(connection, { maxBlocks: 64, firstRequestBlocks: 64 }, unlimited());
  assert.deepEqual(requests, [[{ jsonrpc: "2.0", id: 1, method: "eth_feeHistory", params: ["0x40", "latest", [0, 10, 100]] }]]);
  assert.equal(answer.header, undefined);
});

test("a size refusal of the fees inside the batch: asked again with fewer blocks, still with the header, the limit remembered", async () => {
  const { connection, requests } = await chainServer({
    answer: (call) =>
      call.method === "eth_feeHistory" && Number(BigInt(call.params[0] as string)) > 100
        ? { error: { code: -32602, message: "requested block count exceeds the maximum of 100 blocks" } }
        : undefined,
  });
  const limit = unlimited();
  const answer = await fetchBaseFees(connection, { maxBlocks: 500, firstRequestBlocks: 500, withHeader: true }, limit);
  assert.deepEqual(limit.lowered, [100]);
  assert.equal(requests.length, 6, "one refused, then 100 with the header, then 4 x 100 walking back");
  assert.deepEqual(
    requests[1]!.map((call) => call.method),
    ["eth_getBlockByNumber", "eth_feeHistory"],
  );
  assert.deepEqual(answer.header, { block: 1000n, timestamp: 1_700_012_000 });
  assert.equal(answer.baseFeesWei.length, 500);
});

test("a batch refused whole: the fees are asked for alone and said to be; if they fail alone too, that error is the endpoint's", async () => {
  const refusal = { jsonrpc: "2.0", id: null, error: { code: -32600, message: "batch requests are not supported" } };
  const { connection, requests } = await chainServer({ wholeBatch: () => refusal });
  const answer = await fetchBaseFees(connection, { maxBlocks: 64, firstRequestBlocks: 64, withHeader: true }, unlimited());
  assert.equal(answer.batchRefused, true);
  assert.equal(answer.header, undefined);
  assert.equal(answer.baseFeesWei.length, 64);
  assert.deepEqual(
    requests.map((calls) => calls.map((call) => call.method)),
    [["eth_getBlockByNumber", "eth_feeHistory"], ["eth_feeHistory"]],
  );

  const down = await chainServer({ wholeBatch: () => refusal, answer: () => ({ error: { code: -32005, message: "daily request limit reached" } }) });
  await assert.rejects(
    fetchBaseFees(down.connection, { maxBlocks: 64, firstRequestBlocks: 64, withHeader: true }, unlimited()),
    (error) => error instanceof RpcEndpointError && error.reason === "daily request limit reached",
  );
});

test("the header failing alone, or unreadable, leaves the fees without one; the fees failing alone fail the request", async () => {
  for (const result of [{ error: { code: -32000, message: "header not found" } }, { result: { number: "0x3e8", timestamp: "soon" } }, { result: null }]) {
    const { connection } = await chainServer({ answer: (call) => (call.method === "eth_getBlockByNumber" ? result : undefined) });
    const answer = await fetchBaseFees(connection, { maxBlocks: 64, firstRequestBlocks: 64, withHeader: true }, unlimited());
    assert.equal(answer.header, undefined, JSON.stringify(result));
    assert.equal(answer.baseFeesWei.length, 64);
  }
  const { connection } = await chainServer({
    answer: (call) => (call.method === "eth_feeHistory" ? { error: { code: -32000, message: "missing trie node" } } : undefined),
  });
  await assert.rejects(
    fetchBaseFees(connection, { maxBlocks: 64, firstRequestBlocks: 64, withHeader: true }, unlimited()),
    (error) => error instanceof RpcEndpointError && error.reason === "missing trie node",
  );
});

test("the blob fields of every page are joined as the base fees are, with the next block's blob base fee; a page without them drops them all", async () => {
  // Each block's blob base fee is its number, its blob gas used ratio its number's last digit in tenths; pages of at most 100 blocks.
  const pageOf = (call: Call, withBlobs: (oldest: number) => boolean): object | undefined => {
    if (call.method !== "eth_feeHistory") return undefined;
    const count = Math.min(100, Number(BigInt(call.params[0] as string)));
    const newest = call.params[1] === "latest" ? 1000 : Number(BigInt(call.params[1] as string));
    const oldest = newest - count + 1;
    const numbers = Array.from({ length: count + 1 }, (_, i) => oldest + i);
    return {
      result: {
        oldestBlock: `0x${oldest.toString(16)}`,
        baseFeePerGas: numbers.map(() => "0x7"),
        gasUsedRatio: numbers.slice(1).map(() => 0.5),
        ...(withBlobs(oldest)
          ? { baseFeePerBlobGas: numbers.map((n) => `0x${n.toString(16)}`), blobGasUsedRatio: numbers.slice(0, -1).map((n) => (n % 10) / 10) }
          : {}),
      },
    };
  };
  const blobs = await chainServer({ answer: (call) => pageOf(call, () => true) });
  const fetched = await fetchBaseFees(blobs.connection, { maxBlocks: 250, firstRequestBlocks: 250 }, unlimited());
  assert.equal(fetched.oldestBlock, 751n);
  assert.deepEqual(
    fetched.blobBaseFeesWei,
    Array.from({ length: 250 }, (_, i) => BigInt(751 + i)),
    "three pages joined, oldest first",
  );
  assert.deepEqual(
    fetched.blobGasUsedRatios,
    Array.from({ length: 250 }, (_, i) => ((751 + i) % 10) / 10),
  );
  assert.equal(fetched.gasUsedRatios?.length, 250);
  assert.equal(fetched.nextBlobBaseFeeWei, 1001n, "the next block's, from the page at the head");
  // A page from an endpoint that leaves the blob fields out: none of the blocks get them (no block gets another's).
  const mixed = await chainServer({ answer: (call) => pageOf(call, (oldest) => oldest > 850) });
  const partial = await fetchBaseFees(mixed.connection, { maxBlocks: 250, firstRequestBlocks: 250 }, unlimited());
  assert.equal(partial.baseFeesWei.length, 250);
  assert.equal(partial.blobBaseFeesWei, undefined);
  assert.equal(partial.blobGasUsedRatios, undefined);
});

test("a page with a bad blob field costs every page of the fetch its blob fields, said once; the base fees of all are kept", async () => {
  // Blocks 1..1000, asked in pages of 100: the page ending at block 800 says a blob gas used ratio of 1.7.
  const { connection } = await chainServer({
    answer: (call) => {
      if (call.method !== "eth_feeHistory") return undefined;
      const count = Number(BigInt(call.params[0] as string));
      const newest = call.params[1] === "latest" ? 1000 : Number(BigInt(call.params[1] as string));
      const fees = Array.from({ length: count + 1 }, () => "0x7");
      const ratios = fees.slice(1).map(() => 0.5);
      return {
        result: {
          oldestBlock: `0x${(newest - count + 1).toString(16)}`,
          baseFeePerGas: fees,
          gasUsedRatio: ratios,
          baseFeePerBlobGas: fees.map(() => "0x1"),
          blobGasUsedRatio: newest === 800 ? ratios.map((ratio, i) => (i === 3 ? 1.7 : ratio)) : ratios,
        },
      };
    },
  });
  const limit = unlimited();
  limit.lower(100);
  const fetched = await fetchBaseFees(connection, { maxBlocks: 300, firstRequestBlocks: 100 }, limit);
  assert.equal(fetched.oldestBlock, 701n);
  assert.equal(fetched.baseFeesWei.length, 300);
  assert.deepEqual([fetched.blobBaseFeesWei, fetched.nextBlobBaseFeeWei, fetched.blobGasUsedRatios], [undefined, undefined, undefined]);
  assert.equal(fetched.blobProblem, "blobGasUsedRatio[3] is 1.7, not a number from 0 to 1");
});
