import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
import { RpcEndpointError, WrongChainError } from "../connection/errors.ts";
import { ChainEndpoints, LYING_SET_ASIDE_MS } from "./chainEndpoints.ts";

const backoff = { initialMs: 50, maxMs: 800 };

/** A JSON-RPC endpoint answering eth_chainId with `chainId`, counting the calls. */
async function chainIdServer(chainId: number): Promise<{ url: string; calls: () => number; close: () => Promise<void> }> {
  let calls = 0;
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      calls++;
      const { id } = JSON.parse(body) as { id: number };
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id, result: `0x${chainId.toString(16)}` }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls: () => calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test("the chain id is asked once per lane, again after the lane reconnects; another chain's sets the endpoint aside for every reader", async (t) => {
  const right = await chainIdServer(1);
  const wrong = await chainIdServer(5);
  t.after(() => Promise.all([right.close(), wrong.close()]));
  const layer = new ChainEndpoints(1, [right.url, wrong.url], { backoff, now: () => 1000 });
  t.after(() => layer.close());
  const [good, other] = layer.endpoints;
  await layer.checkChainId(good!, "contracts");
  await layer.checkChainId(good!, "contracts");
  assert.equal(right.calls(), 1, "asked once through the lane");
  await layer.checkChainId(good!, "backfill");
  assert.equal(right.calls(), 2, "each lane asks through its own connection");
  layer.reconnect(good!, "contracts");
  await layer.checkChainId(good!, "contracts");
  assert.equal(right.calls(), 3, "asked again after the lane reconnected");

  const heard: string[] = [];
  layer.onChange((endpoint, by) => heard.push(`${endpoint?.redactedUrl} by ${by}`));
  await assert.rejects(layer.checkChainId(other!, "contracts"), WrongChainError);
  assert.deepEqual(layer.trusted(), [good]);
  const [, status] = layer.statuses(undefined);
  assert.equal(status!.state, "wrong-chain");
  assert.equal(status!.setAsideFor, "wrong-chain");
  assert.equal(status!.reportedChainId, 5);
  assert.equal(status!.retryAt, 1000 + 800, "the longest wait");
  assert.deepEqual(heard, [`${other!.redactedUrl} by contracts`]);
});

test("a lie sets the endpoint aside for every reader, its reason and how in its status; a Retry-After makes every lane wait", () => {
  const layer = new ChainEndpoints(1, ["http://127.0.0.1:9", "http://127.0.0.1:10"], { backoff, now: () => 0 });
  const [liar, slow] = layer.endpoints;
  layer.setAside(liar!, "disagrees", new Error("block 9's base fee: 2000 at A, where the others give 1000"));
  assert.deepEqual(layer.trusted(), [slow]);
  const [status] = layer.statuses(undefined);
  assert.equal(status!.state, "suspect");
  assert.equal(status!.setAsideFor, "disagrees");
  assert.equal(status!.retryAt, LYING_SET_ASIDE_MS);
  assert.match(status!.lastError!, /where the others give 1000/);

  assert.equal(layer.askedToWait(slow!, new Error("timeout")), undefined, "a failure without a Retry-After is the lane's to pace");
  assert.deepEqual(layer.trusted(), [slow]);
  const refused = new RpcEndpointError("http://127.0.0.1:10", "eth_call", "HTTP 429", undefined, 429, 300);
  assert.equal(layer.askedToWait(slow!, refused), 300, "the wait the endpoint asked for");
  assert.deepEqual(layer.trusted(), [], "every reader waits");
  assert.equal(slow!.health.retryAt, 300);
  assert.equal(layer.waitOver(slow!, 299), false);
  assert.equal(layer.waitOver(slow!, 300), true);
  assert.equal(layer.waitOver(liar!, LYING_SET_ASIDE_MS), false, "a liar comes back only through the feed's check");
  assert.deepEqual(layer.trusted(), [slow]);
});

test("the source is the endpoint the feed follows while trusted, else the first trusted; disputes are said until settled", () => {
  const layer = new ChainEndpoints(1, ["http://127.0.0.1:9", "http://127.0.0.1:10"], { backoff, now: () => 0 });
  const [first, second] = layer.endpoints;
  assert.equal(layer.source(), first);
  layer.markActive(second);
  assert.equal(layer.source(), second);
  layer.setAside(second!, "disagrees", new Error("lies"));
  assert.equal(layer.source(), first);
  let changes = 0;
  layer.onChange(() => changes++);
  layer.dispute("block 9", "block 9's base fee: 1 at A, 2 at B");
  layer.dispute("block 9", "block 9's base fee: 1 at A, 2 at B");
  assert.deepEqual(layer.disputes, ["block 9's base fee: 1 at A, 2 at B"]);
  layer.settle("block 9");
  assert.deepEqual(layer.disputes, []);
  assert.equal(changes, 2, "said when it starts and when it is settled");
});
