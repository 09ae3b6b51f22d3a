import assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
import { test, type TestContext } from "node:test";
import { WebSocketServer, type WebSocket } from "ws";
import { MAX_RPC_ANSWER_BYTES } from "./answerLimits.ts";
import { openWebSocket } from "./openWebSocket.ts";
import { startHostileRpcServer } from "../../../test/support/hostileRpcServer.ts";
import { waitFor } from "../../../test/support/waitFor.ts";

/** A WebSocket server on 127.0.0.1 that offers per-message compression, as `ws`'s does by default for clients that ask. */
async function server(t: TestContext): Promise<{ url: string; server: WebSocketServer }> {
  const wss = new WebSocketServer({ host: "127.0.0.1", port: 0, perMessageDeflate: true });
  t.after(() => {
    // ws's close() waits for its clients: end them, so that a failed test does not hang the run.
    for (const socket of wss.clients) socket.terminate();
    return new Promise<void>((resolve) => wss.close(() => resolve()));
  });
  await new Promise<void>((resolve) => wss.once("listening", () => resolve()));
  return { url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`, server: wss };
}

/** Answers each JSON-RPC request on `socket` with `answer(id)`. */
function answerEach(socket: WebSocket, answer: (id: unknown) => void): void {
  socket.on("message", (data: Buffer) => answer((JSON.parse(data.toString("utf8")) as { id: unknown }).id));
}

// First in the file, before any other test opened a socket: a class chosen once and kept would be chosen here.
test("the ws package is used even where the runtime has a global WebSocket (undici's cannot cap a message)", { timeout: 30_000 }, async (t) => {
  const { url, server: wss } = await server(t);
  wss.on("connection", (socket) => answerEach(socket, (id) => socket.send(JSON.stringify({ jsonrpc: "2.0", id, result: "0x1" }))));
  const global = globalThis as { WebSocket?: unknown };
  const previous = global.WebSocket;
  global.WebSocket = class RuntimeWebSocket {
    constructor() {
      throw new Error("the runtime's WebSocket was used");
    }
  };
  t.after(() => {
    if (previous === undefined) delete global.WebSocket;
    else global.WebSocket = previous;
  });
  const client = await openWebSocket(url);
  t.after(() => client.close());
  assert.deepEqual(await client.requestAsync({ body: { id: 1, method: "eth_chainId" }, timeout: 10_000 }), { jsonrpc: "2.0", id: 1, result: "0x1" });
});

test("keep-alive sends WebSocket ping frames while the socket is open, and none once it is closed", { timeout: 30_000 }, async (t) => {
  // The keep-alive timer is a setInterval (viem's): mocked, so that its intervals pass at once, exactly when told.
  t.mock.timers.enable({ apis: ["setInterval"] });
  const { url, server: wss } = await server(t);
  let pings = 0;
  const serverSide = new Promise<WebSocket>((resolve) => wss.once("connection", resolve));
  wss.on("connection", (socket) => socket.on("ping", () => pings++));

  const client = await openWebSocket(url, { keepAliveMs: 40 });
  t.after(() => client.close());
  // An interval at a time until the server has seen three pings (the timer may be set a moment after the open).
  await waitFor("three pings at the server", () => {
    if (pings >= 3) return true;
    t.mock.timers.tick(40);
    return false;
  });
  const closedOnServer = new Promise<void>((resolve) => void serverSide.then((socket) => socket.once("close", () => resolve())));
  client.close();
  await closedOnServer;
  const afterClose = pings;
  // The keep-alive timer calls the socket's ping(): counted from here, it shows whether the timer still runs.
  let keepAlivesAfterClose = 0;
  (client.socket as { ping: () => void }).ping = () => keepAlivesAfterClose++;
  // Ten intervals pass at once: a timer still running would call ping() within this very call.
  t.mock.timers.tick(400);
  assert.equal(keepAlivesAfterClose, 0, "the keep-alive timer stopped with the socket");
  assert.equal(pings, afterClose);
});

test("a message over the HTTP answer cap closes the socket and fails the request as a size refusal", { timeout: 30_000 }, async (t) => {
  const { url, server: wss } = await server(t);
  const oversized = `{"jsonrpc":"2.0","id":1,"result":"0x${"0".repeat(MAX_RPC_ANSWER_BYTES)}"}`;
  wss.on("connection", (socket) => answerEach(socket, () => socket.send(oversized)));
  const client = await openWebSocket(url);
  t.after(() => client.close());
  await assert.rejects(client.requestAsync({ body: { id: 1, method: "eth_feeHistory" }, timeout: 10_000 }), /exceeded the size limit/);
});

test("per-message compression is not offered, and a compressed frame sent anyway is refused, not inflated", { timeout: 30_000 }, async (t) => {
  const hostile = await startHostileRpcServer({ wsBombBytes: 3 * MAX_RPC_ANSWER_BYTES });
  t.after(() => hostile.close());
  const client = await openWebSocket(hostile.wsUrl);
  t.after(() => client.close());
  assert.deepEqual(await client.requestAsync({ body: { id: 1, method: "eth_chainId" }, timeout: 10_000 }), { jsonrpc: "2.0", id: 1, result: "0x7a69" });
  assert.equal(hostile.upgradeHeaders.length, 1);
  assert.equal(hostile.upgradeHeaders[0]!["sec-websocket-extensions"], undefined, "the upgrade offers no permessage-deflate");

  await hostile.turn("ws-deflate-bomb");
  await assert.rejects(client.requestAsync({ body: { id: 2, method: "eth_feeHistory" }, timeout: 10_000 }), /RSV1 must be clear/);
  assert.equal(hostile.hostileAnswers, 1);
});
