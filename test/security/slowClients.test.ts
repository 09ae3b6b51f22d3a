// Clients that hold the server's resources without playing their part: connections that stall and never close,
// pipelined requests whose answers are never read. Each must cost a bounded amount, for a bounded time.
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { Agent, request as httpRequest } from "node:http";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test, type TestContext } from "node:test";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { createApiServer, type ApiServerOptions } from "../../shared/http/server.ts";
import { ApiKeyring } from "../../shared/keys/apiKeyring.ts";
import { silentLogger } from "../../shared/log/logger.ts";
import { scriptedService } from "../support/scriptedFeed.ts";
import { waitFor } from "../support/waitFor.ts";

const KEY = "0123456789abcdef0123456789abcdef";
/** As large as the dashboard's real bundle (React and recharts). */
const BUNDLE_BYTES = 525 * 1024;

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

/** Resident memory after a full collection, in MB. */
async function settledRssMb(): Promise<number> {
  for (let i = 0; i < 3; i++) {
    collectGarbage();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().rss / 2 ** 20;
}

function dashboardBuild(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), "gasfees-slow-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, "assets"));
  writeFileSync(join(dir, "index.html"), "<!doctype html><title>gasfees</title>");
  writeFileSync(join(dir, "assets", "index-Bx9_k2.js"), Buffer.alloc(BUNDLE_BYTES, "x"));
  return dir;
}

async function start(t: TestContext, overrides: Partial<ApiServerOptions> = {}): Promise<number> {
  const scripted = scriptedService([{ chainId: 1 }]);
  scripted.write(1, 100n, [1_000_000_000n]);
  const server = createApiServer({
    source: scripted.service,
    keyring: new ApiKeyring([{ key: KEY }]),
    logger: silentLogger,
    port: 0,
    dashboardDir: dashboardBuild(t),
    ...overrides,
  });
  const { port } = await server.listen();
  t.after(() => server.close());
  return port;
}

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => resolve(socket));
    socket.on("error", reject);
  });
}

/** Whether a plain request is answered now (a refused or dropped connection is a no). */
function answered(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = httpRequest({ host: "127.0.0.1", port, path: "/healthz", agent: false, timeout: 1000 }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode === 200));
    });
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve(false));
    req.end();
  });
}

/**
 * Leaves `socket` unread for `unreadMs`, then reads it to its end: resolves with the bytes it got once the server
 * closed it, or rejects when it is still open `timeoutMs` later.
 */
async function readToClose(socket: Socket, unreadMs: number, timeoutMs = 15_000): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, unreadMs));
  return new Promise((resolve, reject) => {
    let bytes = 0;
    // Closed by a reset while unread: nothing more to read.
    if (socket.destroyed) return resolve(bytes);
    const timer = setTimeout(() => reject(new Error(`the server kept the connection open (${bytes} bytes read)`)), timeoutMs);
    const done = () => {
      clearTimeout(timer);
      resolve(bytes);
    };
    socket.on("error", done);
    socket.on("end", done);
    socket.on("close", done);
    socket.on("data", (chunk: Buffer) => (bytes += chunk.length));
    socket.resume();
  });
}

test("256 clients that stall and never close their side do not lock everyone out: a new client is served once their headers time out", async (t) => {
  // The server's real limits: 256 connections, headers within 10 s.
  const port = await start(t);
  const stalled = await Promise.all(Array.from({ length: 256 }, () => open(port)));
  t.after(() => stalled.forEach((socket) => socket.destroy()));
  for (const socket of stalled) {
    socket.on("error", () => {});
    // Half a request, then nothing: never the rest, never a close, never a read.
    socket.write("GET /healthz HTTP/1.1\r\n");
    socket.pause();
  }
  // Served once the stalled clients' 10 s headers timeout has passed; given up after a minute on a busy machine.
  await waitFor("a new client to be served", () => answered(port), { timeoutMs: 60_000, everyMs: 250 });
});

test("600 pipelined requests for the bundle that are never read: memory stays bounded and the connection is closed", async (t) => {
  const port = await start(t);
  const before = await settledRssMb();
  const socket = await open(port);
  t.after(() => socket.destroy());
  socket.pause();
  socket.write(`GET /assets/index-Bx9_k2.js HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`.repeat(600));
  // Unread for as long as it takes the server to parse them all and start answering.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const after = await settledRssMb();
  assert.ok(after - before < 30, `resident memory grew by ${(after - before).toFixed(1)} MB`);
  const bytes = await readToClose(socket, 0);
  assert.ok(bytes < 600 * BUNDLE_BYTES, `the connection was closed (after ${bytes} bytes of answers)`);
});

test("a connection whose answers are not read for drainTimeoutMs is closed, while a quiet event stream that is read stays open", async (t) => {
  const port = await start(t, { slowClientLimits: { drainTimeoutMs: 300 }, eventStreamLimits: { heartbeatMs: 100 } });
  // Pipelined requests, under the queue's bound but more than the system's socket buffers hold, never read.
  const stalled = await open(port);
  t.after(() => stalled.destroy());
  stalled.pause();
  stalled.write(`GET /assets/index-Bx9_k2.js HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`.repeat(48));

  const stream = await open(port);
  t.after(() => stream.destroy());
  let received = "";
  stream.on("data", (chunk: Buffer) => (received += chunk.toString("latin1")));
  stream.write(`GET /v3/${KEY}/networks/1/events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);

  // Unread for a few drain timeouts: then it reads to the end of what the server sent before closing it.
  const bytes = await readToClose(stalled, 1500, 5000);
  assert.ok(bytes < 48 * BUNDLE_BYTES, `the connection was closed (after ${bytes} bytes of answers)`);
  assert.equal(stream.destroyed, false);
  assert.ok(received.split(": heartbeat").length > 3, "the stream got its heartbeats");
});

test("a keep-alive connection that asks again and again costs nothing more per request (no listener piles up)", async (t) => {
  const port = await start(t);
  const warnings: string[] = [];
  const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
  process.on("warning", onWarning);
  t.after(() => process.off("warning", onWarning));
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  t.after(() => agent.destroy());
  let reused = 0;
  for (let i = 0; i < 50; i++) {
    reused += await new Promise<number>((resolve, reject) => {
      const req = httpRequest({ host: "127.0.0.1", port, path: "/healthz", agent }, (res) => {
        res.resume();
        res.on("end", () => resolve(req.reusedSocket ? 1 : 0));
      });
      req.on("error", reject);
      req.end();
    });
  }
  assert.equal(reused, 49, "every request after the first went on the same connection");
  // Warnings are emitted on the next tick.
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(warnings, []);
});

test("an idle keep-alive connection is closed once idleTimeoutMs passes with nothing moving; one that keeps asking, or holds a quiet event stream, stays open", async (t) => {
  const idleTimeoutMs = 300;
  // A heartbeat far beyond the test: the stream sends nothing after its first event.
  const port = await start(t, { slowClientLimits: { idleTimeoutMs }, eventStreamLimits: { heartbeatMs: 60_000 } });
  const request = `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`;
  const answersIn = (text: string) => text.split("HTTP/1.1 200 ").length - 1;

  const idle = await open(port);
  t.after(() => idle.destroy());
  let idleReceived = "";
  let answeredAtMs: number | undefined;
  idle.on("data", (chunk: Buffer) => {
    idleReceived += chunk.toString("latin1");
    if (answeredAtMs === undefined && idleReceived.endsWith(`{"status":"ok"}`)) answeredAtMs = Date.now();
  });
  const idleClosed = new Promise<number>((resolve) => idle.once("close", () => resolve(Date.now())));
  idle.write(request);

  const stream = await open(port);
  t.after(() => stream.destroy());
  let streamReceived = "";
  stream.on("data", (chunk: Buffer) => (streamReceived += chunk.toString("latin1")));
  stream.write(`GET /v3/${KEY}/networks/1/events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);

  // Twelve requests 100 ms apart on one connection: each answer proves it was still open.
  const busy = await open(port);
  t.after(() => busy.destroy());
  let busyReceived = "";
  busy.on("data", (chunk: Buffer) => (busyReceived += chunk.toString("latin1")));
  for (let sent = 1; sent <= 12; sent++) {
    busy.write(request);
    await waitFor(`answer ${sent} on the connection that keeps asking`, () => answersIn(busyReceived) === sent, { timeoutMs: 10_000, everyMs: 10 });
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.equal(busy.destroyed, false, "the connection that kept asking was closed");

  // Given up 3 s after its answer, ten times the idle timeout; node:http's own keep-alive timer (5 s) would not have
  // closed it by then.
  assert.notEqual(answeredAtMs, undefined, "the idle connection's request was not answered");
  const giveUp = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), Math.max(0, answeredAtMs! + 3000 - Date.now())));
  const closedAtMs = await Promise.race([idleClosed, giveUp]);
  assert.notEqual(closedAtMs, undefined, "the idle connection was still open 3 s after its answer");
  assert.match(idleReceived, /\r\nKeep-Alive: timeout=5\r\n/i);
  // A lower bound only (timers never fire early): idle time is counted from the watch's last sight of bytes moving.
  assert.ok(closedAtMs! - answeredAtMs! >= idleTimeoutMs - 5, `closed ${closedAtMs! - answeredAtMs!} ms after its answer`);

  assert.equal(stream.destroyed, false, "the event stream was closed while its answer was under way");
  assert.match(streamReceived, /^HTTP\/1\.1 200 /);
});
