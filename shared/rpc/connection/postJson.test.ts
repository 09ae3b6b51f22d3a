// postJson against hostile HTTP endpoints (test/support/hostileRpcServer.ts): compression bombs, answers past the cap,
// a slow drip. Each must end in a rejection that names the problem, with the socket dropped and this process unharmed.
import assert from "node:assert/strict";
import { once } from "node:events";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { after, before, test } from "node:test";
import { startHostileRpcServer, type HostileRpcServer } from "../../../test/support/hostileRpcServer.ts";
import { MAX_RPC_ANSWER_BYTES } from "./answerLimits.ts";
import { createKeepAliveAgent, HttpPostError, postJson, postTarget } from "./postJson.ts";

const CHAIN_ID_CALL = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] });
let hostile: HostileRpcServer;

before(async () => {
  hostile = await startHostileRpcServer();
});
after(() => hostile.close());

async function post(url: string, timeoutMs = 20_000) {
  const target = postTarget(url);
  const agent = createKeepAliveAgent(target);
  try {
    return await postJson(target, CHAIN_ID_CALL, { timeoutMs, agent });
  } finally {
    agent.destroy();
  }
}

async function rejection(promise: Promise<unknown>): Promise<HttpPostError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof HttpPostError, `expected an HttpPostError, got ${String(error)}`);
    return error;
  }
  return assert.fail("expected a rejection");
}

test("an honest answer is read", async () => {
  const answer = await post(hostile.httpUrl);
  assert.equal(answer.status, 200);
  assert.deepEqual(JSON.parse(answer.body), { jsonrpc: "2.0", id: 1, result: "0x7a69" });
});

test("a brotli bomb (1.6 KB decoding to 1 GiB) is refused unread: brotli is never decoded", { timeout: 60_000 }, async () => {
  await hostile.turn("http-brotli-bomb");
  const error = await rejection(post(hostile.httpUrl));
  assert.equal(error.kind, "encoding");
  assert.match(error.message, /compressed with "br" although the request asked for none/);
  assert.equal(hostile.hostileAnswers, 1);
});

test("a gzip bomb (1 MB decoding to 1 GiB) is decoded only up to the cap, then refused as too large", { timeout: 60_000 }, async () => {
  await hostile.turn("http-gzip-bomb");
  const error = await rejection(post(hostile.httpUrl));
  assert.equal(error.kind, "too-large");
  assert.match(error.message, new RegExp(`exceeded the size limit \\(\\d+ bytes, at most ${MAX_RPC_ANSWER_BYTES}\\)`));
  // Still alive and still answering: the decoder's last events, if any, went nowhere.
  await hostile.turn("honest");
  assert.equal((await post(hostile.httpUrl)).status, 200);
});

test("a plain answer running past the cap, with no length announced, is cut at the cap", { timeout: 60_000 }, async () => {
  await hostile.turn("http-oversized");
  const error = await rejection(post(hostile.httpUrl));
  assert.equal(error.kind, "too-large");
  await hostile.turn("honest");
});

test("a slow drip times out", { timeout: 60_000 }, async () => {
  await hostile.turn("http-slow-drip");
  const error = await rejection(post(hostile.httpUrl, 500));
  assert.equal(error.kind, "timeout");
  await hostile.turn("honest");
});

test("a coding other than gzip or deflate is refused; gzip and deflate are read", async () => {
  const { gzipSync, deflateSync } = await import("node:zlib");
  const body = '{"jsonrpc":"2.0","id":1,"result":"0x2a"}';
  const server = createServer((request: IncomingMessage, response) => {
    const coding = request.url!.slice(1);
    request.resume();
    response
      .writeHead(200, { "content-type": "application/json", "content-encoding": coding })
      .end(coding === "gzip" ? gzipSync(body) : coding === "deflate" ? deflateSync(body) : Buffer.from(body));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    assert.equal((await post(`${url}/gzip`)).body, body);
    assert.equal((await post(`${url}/deflate`)).body, body);
    assert.equal((await post(`${url}/identity`)).body, body);
    for (const coding of ["compress", "zstd", "gzip,%20br"]) assert.equal((await rejection(post(`${url}/${coding}`))).kind, "encoding");
  } finally {
    server.closeAllConnections();
    server.close();
  }
});

test("the request says it accepts no compression", async () => {
  let acceptEncoding: string | undefined;
  const server = createServer((request, response) => {
    acceptEncoding = request.headers["accept-encoding"];
    request.resume();
    response.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  try {
    await post(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    assert.equal(acceptEncoding, "identity");
  } finally {
    server.closeAllConnections();
    server.close();
  }
});

test("an agent's kept sockets close when it is destroyed (each connection owns its agent)", async () => {
  const sockets: Socket[] = [];
  const server = createServer((request, response) => {
    request.resume();
    response.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
  server.on("connection", (socket: Socket) => sockets.push(socket));
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  try {
    const target = postTarget(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    const agent = createKeepAliveAgent(target);
    await postJson(target, CHAIN_ID_CALL, { timeoutMs: 10_000, agent });
    await postJson(target, CHAIN_ID_CALL, { timeoutMs: 10_000, agent });
    assert.equal(sockets.length, 1, "kept alive between requests");
    const closed = once(sockets[0]!, "close");
    agent.destroy();
    await closed;
  } finally {
    server.closeAllConnections();
    server.close();
  }
});
