import assert from "node:assert/strict";
import { once } from "node:events";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { after, test } from "node:test";
import { WebSocket } from "ws";
import { waitFor } from "../../test/support/waitFor.ts";
import { createRpcConnection } from "../rpc/connection/rpcConnection.ts";
import { EvmNodeRpcError, EvmNodeStoppedError } from "./errors.ts";
import { loadMainnetBaseFees } from "./mainnetBaseFees.ts";
import { replayedBaseFeeWei } from "./demoReplayPlan.ts";
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

interface Block {
  number: string;
  timestamp: string;
  baseFeePerGas: string;
}

test("a node whose genesis lies in the past mines blocks at the timestamps given, and its clock runs on from the last", async () => {
  const nowSeconds = Math.floor(Date.now() / 1_000);
  const genesisSeconds = nowSeconds - 2 * 86_400;
  const evm = await node({ genesis: { timestamp: genesisSeconds, baseFeeWei: 66_531_398_093n } });
  assert.equal(evm.miningPath, "batched", "Hardhat's EDR provider takes lists of calls (the fast path) in the installed Hardhat");
  const genesis = await evm.request<Block>("eth_getBlockByNumber", ["0x0", false]);
  assert.equal(Number(genesis.timestamp), genesisSeconds);
  assert.equal(BigInt(genesis.baseFeePerGas), 66_531_398_093n);

  // More blocks than one list of calls holds, with gaps of 12, 24 and 36 s as on mainnet.
  const fees = loadMainnetBaseFees().baseFeesWei.slice(0, 300);
  const timestamps = fees.map((_, i) => genesisSeconds + 12 * (i + 1) + 12 * Math.floor(i / 100));
  assert.equal(await evm.mineBlocks(fees, timestamps), 300n);
  const history = await evm.request<FeeHistory>("eth_feeHistory", ["0x12c", "0x12c", []]);
  assert.deepEqual(history.baseFeePerGas.slice(0, 300).map(BigInt), fees);
  for (const block of [1, 99, 100, 101, 250, 300]) {
    const mined = await evm.request<Block>("eth_getBlockByNumber", [`0x${block.toString(16)}`, false]);
    assert.equal(Number(mined.timestamp), timestamps[block - 1], `block ${block}'s timestamp`);
  }
  const newestSeconds = timestamps.at(-1)!;
  const startedMs = Date.now();
  await evm.mineBlock(1_000_000_000n);
  const untimed = await evm.request<Block>("eth_getBlockByNumber", ["latest", false]);
  const elapsedSeconds = Math.ceil((Date.now() - startedMs) / 1_000);
  assert.ok(
    Number(untimed.timestamp) > newestSeconds && Number(untimed.timestamp) <= newestSeconds + elapsedSeconds + 1,
    `an untimed block goes on from the newest timed one: ${untimed.timestamp} after ${newestSeconds}`,
  );
});

test("timestamps that do not move forward are refused, and the node says which", async () => {
  const evm = await node();
  const nowSeconds = Math.floor(Date.now() / 1_000);
  await assert.rejects(evm.mineBlocks([1n, 2n], [nowSeconds + 10]), /1 timestamps for 2 blocks/);
  await assert.rejects(evm.mineBlocks([1n, 2n], [nowSeconds + 10, nowSeconds + 10]), /each after the one before/);
  await assert.rejects(evm.mineBlocks([1n], [1.5]), /whole unix seconds/);
  assert.equal(await evm.mineBlocks([5n], [nowSeconds + 100]), 1n);
  // Before the newest block's time: Hardhat refuses it, and nothing of that run is mined.
  await assert.rejects(
    evm.mineBlocks([6n], [nowSeconds + 50]),
    (error: unknown) => error instanceof EvmNodeRpcError && /lower than the previous block/.test(error.message),
  );
  assert.equal(BigInt(await evm.request<string>("eth_blockNumber")), 1n);
  await assert.rejects(startEvmNode({ genesis: { timestamp: -1, baseFeeWei: 1n } }), /genesis timestamp/);
  await assert.rejects(startEvmNode({ genesis: { timestamp: 1, baseFeeWei: 2n ** 53n } }), /genesis base fee/);
});

test("each block's transactions are sent and mined with it in the same run, with their tips; a list per block or none", async () => {
  const evm = await node();
  const [sender] = await evm.request<string[]>("eth_accounts");
  await evm.request("evm_setAutomine", [false]);
  const transfer = (nonce: number, tipWei: bigint) => ({
    from: sender,
    to: sender,
    nonce: `0x${nonce.toString(16)}`,
    value: "0x0",
    gas: "0x5208",
    maxFeePerGas: `0x${(10n ** 11n).toString(16)}`,
    maxPriorityFeePerGas: `0x${tipWei.toString(16)}`,
  });
  await assert.rejects(evm.mineBlocks([1n, 2n], undefined, [[]]), /1 lists of transactions for 2 blocks/);
  const gwei = 1_000_000_000n;
  assert.equal(await evm.mineBlocks([gwei, 2n * gwei], undefined, [[transfer(0, 50_000_000n)], [transfer(1, 100_000_000n), transfer(2, 3n * gwei)]]), 2n);
  const history = await evm.request<{ reward: string[][] }>("eth_feeHistory", ["0x2", "0x2", [0, 100]]);
  assert.deepEqual(
    history.reward.map((row) => row.map(BigInt)),
    [
      [50_000_000n, 50_000_000n],
      [100_000_000n, 3n * gwei],
    ],
  );
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

test("the demo replay preloads real fees, then mines one per interval, and stops cleanly", async (t) => {
  const evm = await node();
  const fees = loadMainnetBaseFees();
  // Counts the replay's blocks as it mines them, so that the test waits for blocks rather than for time.
  let mined = 0;
  let lastMined: Promise<bigint> = Promise.resolve(0n);
  const counting = new Proxy(evm, {
    get(target, key) {
      if (key === "mineBlock") {
        return (baseFeeWei: bigint) => {
          mined++;
          return (lastMined = target.mineBlock(baseFeeWei));
        };
      }
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  const series = { firstBlock: fees.firstBlock, baseFeesWei: fees.baseFeesWei.slice(0, 3) };
  // The replay's interval is a setTimeout: mocked, so that intervals pass when the test moves the clock on.
  t.mock.timers.enable({ apis: ["setTimeout"] });
  const stop = await startDemoReplay(counting, series, {
    history: { baseFeesWei: Array.from({ length: 4 }, (_, i) => replayedBaseFeeWei(series, i)) },
    liveFrom: 4,
    intervalMs: 40,
  });
  assert.equal(BigInt(await evm.request<string>("eth_blockNumber")), 4n);
  // An interval at a time (the next one is set once the block before it is mined) until two blocks are mined.
  await waitFor(
    "two blocks mined after the preload",
    () => {
      if (mined >= 2) return true;
      t.mock.timers.tick(40);
      return false;
    },
    30_000,
  );
  stop();
  await lastMined;
  const minedBeforeStop = mined;
  const newest = BigInt(await evm.request<string>("eth_blockNumber"));
  assert.equal(newest, 4n + BigInt(minedBeforeStop), "one block per interval, none lost");
  // Ten intervals pass at once: a timer still set would start mining within this very call.
  t.mock.timers.tick(400);
  assert.equal(mined, minedBeforeStop, "no block mined after stop");
  assert.equal(BigInt(await evm.request<string>("eth_blockNumber")), newest);
  const history = await evm.request<FeeHistory>("eth_feeHistory", ["0x6", "0x6", []]);
  const [a, b, c] = fees.baseFeesWei;
  // Blocks 1..4 are the preload (a, b, c, then a again: it loops); 5 and 6 continue the loop (b, c).
  assert.deepEqual(history.baseFeePerGas.slice(0, 6).map(BigInt), [a, b, c, a, b, c]);
});

/** One raw POST of eth_chainId with the headers given (node:http sends Host as given, unlike fetch). */
function rawPost(port: number, headers: Record<string, string>, method = "POST"): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] });
    const request = httpRequest(
      { host: "127.0.0.1", port, method, path: "/", headers: { "content-type": "application/json", ...headers }, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString("utf8") }));
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(method === "POST" ? body : undefined);
  });
}

/** Whether a WebSocket upgrade with these options is accepted (true) or refused with its HTTP status. */
async function upgrade(url: string, options: { origin?: string; headers?: Record<string, string> }): Promise<true | number> {
  const socket = new WebSocket(url, { ...options, perMessageDeflate: false });
  const refused = new Promise<number>((resolve) => socket.once("unexpected-response", (_request, response) => resolve(response.statusCode ?? 0)));
  socket.on("error", () => {});
  const result = await Promise.race([once(socket, "open").then(() => true as const), refused]);
  socket.terminate();
  return result;
}

test("only the service reaches the demo node: another Host or any Origin gets a 403, no data and no CORS header", async () => {
  const evm = await node({ chainId: 1 });
  const evil: Record<string, string>[] = [
    { Origin: "http://evil.example" },
    { Host: `evil.example:${evm.port}` },
    { Host: `127.0.0.1.nip.io:${evm.port}` },
    { Host: "127.0.0.1" },
    { Host: `localhost:${evm.port}`, Origin: "null" },
  ];
  for (const headers of evil) {
    const answer = await rawPost(evm.port, headers);
    assert.equal(answer.status, 403, JSON.stringify(headers));
    assert.doesNotMatch(answer.body, /result|0x1/, JSON.stringify(headers));
    assert.equal(answer.headers["access-control-allow-origin"], undefined, JSON.stringify(headers));
  }
  // A browser's preflight is refused too, with nothing that would grant it.
  const preflight = await rawPost(evm.port, { Origin: "http://evil.example", "Access-Control-Request-Method": "POST" }, "OPTIONS");
  assert.equal(preflight.status, 403);
  assert.equal(preflight.headers["access-control-allow-origin"], undefined);
  assert.equal(await upgrade(evm.wsUrl, { origin: "http://evil.example" }), 403);
  assert.equal(await upgrade(evm.wsUrl, { headers: { host: `evil.example:${evm.port}` } }), 403);

  // What the service sends passes, by either local name, and carries no CORS header either.
  for (const host of [`127.0.0.1:${evm.port}`, `localhost:${evm.port}`]) {
    const answer = await rawPost(evm.port, { Host: host });
    assert.equal(answer.status, 200);
    assert.equal((JSON.parse(answer.body) as { result: string }).result, "0x1");
    assert.equal(answer.headers["access-control-allow-origin"], undefined);
  }
  assert.equal(await upgrade(evm.wsUrl, {}), true);
});

test("the service's own transports still follow the demo node, over HTTP and over a WebSocket newHeads subscription", async (t) => {
  const evm = await node({ chainId: 1 });
  const http = createRpcConnection(evm.url, { timeoutMs: 10_000 });
  const ws = createRpcConnection(evm.wsUrl, { timeoutMs: 10_000 });
  t.after(() => {
    http.close();
    ws.close();
  });
  assert.equal(await http.request("eth_chainId", []), "0x1");
  assert.equal(await ws.request("eth_chainId", []), "0x1");
  let heads = 0;
  let headArrived: () => void = () => {};
  const arrived = new Promise<void>((resolve) => (headArrived = resolve));
  await ws.subscribeNewHeads(
    () => {
      heads++;
      headArrived();
    },
    (error) => assert.fail(error),
  );
  await evm.mineBlock(42_000_000_000n);
  await arrived;
  assert.ok(heads >= 1);
  const history = (await http.request("eth_feeHistory", ["0x1", "latest", []])) as FeeHistory;
  assert.equal(BigInt(history.baseFeePerGas[0]!), 42_000_000_000n);
});
