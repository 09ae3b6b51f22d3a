import assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
import { WebSocketServer } from "ws";
import { openWebSocket } from "./openWebSocket.ts";

test("keep-alive sends WebSocket ping frames while the socket is open, and stops once it is closed", { timeout: 5000 }, async (t) => {
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  t.after(() => {
    // ws's close() waits for its clients: end them, so that a failed test does not hang the run.
    for (const socket of server.clients) socket.terminate();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  let pings = 0;
  server.on("connection", (socket) => socket.on("ping", () => pings++));

  const client = await openWebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`, 40);
  t.after(() => client.close());
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.ok(pings >= 3, `${pings} pings in 300 ms at one per 40 ms`);
  client.close();
  const afterClose = pings;
  await new Promise((resolve) => setTimeout(resolve, 150));
  assert.equal(pings, afterClose);
});
