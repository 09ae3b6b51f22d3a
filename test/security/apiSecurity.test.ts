// The defences of the local server that server.test.ts does not already prove: the documented default limits (each
// read back from the server or shown by its behaviour), the connection limit, slow and idle clients against the
// timeouts, CORS that never turns into `*`, and a DNS-rebinding page's requests.
import assert from "node:assert/strict";
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { readFileSync } from "node:fs";
import { request as httpRequest, type Server } from "node:http";
import { connect, type Socket } from "node:net";
import { test, type TestContext } from "node:test";
import { DEFAULT_EVENT_STREAM_LIMITS } from "../../shared/http/eventStreams.ts";
import { createApiServer, type ApiServerOptions } from "../../shared/http/server.ts";
import { DEFAULT_SLOW_CLIENT_LIMITS } from "../../shared/http/slowClients.ts";
import { ApiKeyring } from "../../shared/keys/apiKeyring.ts";
import { createLogger } from "../../shared/log/logger.ts";
import { waitFor } from "../support/waitFor.ts";
import { type ScriptedService, scriptedService } from "../support/scriptedFeed.ts";

const KEY = "0123456789abcdef0123456789abcdef";

interface Started {
  port: number;
  logs: string[];
  scripted: ScriptedService;
}

async function start(t: TestContext, overrides: Partial<ApiServerOptions> = {}): Promise<Started> {
  const scripted = scriptedService([{ chainId: 1 }]);
  scripted.write(1, 100n, [1_000_000_000n, 2_000_000_000n, 3_000_000_000n]);
  const logs: string[] = [];
  const server = createApiServer({
    source: scripted.service,
    keyring: new ApiKeyring([{ key: KEY }]),
    logger: createLogger("debug", (line) => logs.push(line)),
    port: 0,
    ...overrides,
  });
  const { port } = await server.listen();
  t.after(() => server.close());
  return { port, logs, scripted };
}

function get(
  port: number,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, headers: { Host: `127.0.0.1:${port}`, ...headers }, setHost: false, agent: false }, (res) => {
      // An event stream never ends: its head is the answer.
      if (res.headers["content-type"]?.startsWith("text/event-stream")) {
        res.destroy();
        resolve({ status: res.statusCode!, headers: res.headers, body: "" });
        return;
      }
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => resolve(socket));
    socket.on("error", reject);
  });
}

const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString("base64")}`;

/** Resolves with what `socket` received once it holds `text`; rejects if the socket closes first. */
function received(socket: Socket, text: string | RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let bytes = "";
    const holds = () => (typeof text === "string" ? bytes.includes(text) : text.test(bytes));
    const onData = (chunk: Buffer) => {
      bytes += chunk.toString("latin1");
      if (!holds()) return;
      socket.off("data", onData);
      socket.off("close", onClose);
      resolve(bytes);
    };
    const onClose = () => reject(new Error(`closed before ${String(text)} arrived; received ${JSON.stringify(bytes.slice(0, 500))}`));
    socket.on("data", onData);
    socket.once("close", onClose);
  });
}

/** An event stream of chain 1 on a socket of its own, once its first event has arrived (so the server holds it). */
async function openStream(port: number, key = KEY): Promise<Socket> {
  const socket = await open(port);
  socket.write(`GET /networks/1/events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: ${basic(key)}\r\n\r\n`);
  await received(socket, "event: network");
  return socket;
}

/** What the server sends on this socket until it closes it (or `timeoutMs`), and after how long. */
function untilClosed(socket: Socket, timeoutMs: number): Promise<{ received: string; closedAfterMs: number | undefined }> {
  const started = performance.now();
  return new Promise((resolve) => {
    let received = "";
    socket.on("data", (chunk: Buffer) => (received += chunk.toString("latin1")));
    socket.on("error", () => {});
    const timer = setTimeout(() => {
      resolve({ received, closedAfterMs: undefined });
      socket.destroy();
    }, timeoutMs);
    socket.on("close", () => {
      clearTimeout(timer);
      resolve({ received, closedAfterMs: performance.now() - started });
    });
  });
}

test("connections over maxConnections are closed at once, unanswered; the server answers again once they go", async (t) => {
  const { port, logs, scripted } = await start(t, { maxConnections: 4 });
  // Event streams hold their connections for as long as the test needs, and their first event shows them counted.
  const held = await Promise.all([1, 2, 3, 4].map(() => openStream(port)));
  t.after(() => held.forEach((socket) => socket.destroy()));
  const extra = await open(port);
  extra.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
  const refused = await untilClosed(extra, 10_000);
  assert.notEqual(refused.closedAfterMs, undefined, "the connection over the limit was kept open");
  assert.equal(refused.received, "", "the connection over the limit was answered");
  // The held ones still work: a new block reaches each of them.
  const nextEvents = held.map((socket) => received(socket, /"firstBlock":"103"/));
  scripted.write(1, 103n, [4_000_000_000n]);
  await Promise.all(nextEvents);
  for (const socket of held) socket.destroy();
  // Once the server has seen them go (it may take a moment), a new connection is answered again.
  await waitFor("a request to be answered once the held connections are gone", async () =>
    (await get(port, "/healthz").catch(() => undefined))?.status === 200 ? true : undefined,
  );
  await waitFor("the drop to be logged", () => (logs.join("").includes("connections over the limit were closed unanswered") ? true : undefined));
});

// --- the documented defaults (SECURITY.md, "Resource limits"): each stated there, and true of a server made without options

/** SECURITY.md with its line breaks as spaces, so that a statement may wrap. */
const SECURITY_MD = readFileSync(new URL("../../SECURITY.md", import.meta.url), "utf8").replace(/\s+/g, " ");

function assertDocumented(statement: RegExp): void {
  assert.match(SECURITY_MD, statement, "SECURITY.md no longer states this default: change the test with the document");
}

/** The node:http server that answers on `port`, as Node's diagnostics channel reports it for a request. */
async function nodeServerOf(port: number): Promise<Server> {
  const servers: Server[] = [];
  const onRequest = (message: unknown) => servers.push((message as { server: Server }).server);
  subscribe("http.server.request.start", onRequest);
  try {
    assert.equal((await get(port, "/healthz")).status, 200);
  } finally {
    unsubscribe("http.server.request.start", onRequest);
  }
  const server = servers.find((candidate) => (candidate.address() as { port: number } | null)?.port === port);
  assert.ok(server, "no request on this port was reported by the diagnostics channel");
  return server;
}

test("SECURITY.md's timeout, keep-alive, connection and slow-client limits are those the server runs with by default", async (t) => {
  const { port } = await start(t);
  const server = await nodeServerOf(port);
  assertDocumented(/headers within 10 s and the whole request within 30 s/);
  assert.equal(server.headersTimeout, 10_000);
  assert.equal(server.requestTimeout, 30_000);
  assertDocumented(/idle keep-alive connections closed after 5 s/);
  // Closed by the slow-client watch (its idleTimeoutMs below), not by a node:http timer armed after every answer.
  assert.equal(server.keepAliveTimeout, 0);
  assertDocumented(/at most 256 open connections/);
  assert.equal(server.maxConnections, 256);
  // The slow-client and stream buffer limits live in their modules (test/security/slowClients.test.ts shows them at work).
  assertDocumented(/may have at most 64 queued on one connection, and a connection whose waiting answers make no progress for 10 s is closed/);
  assert.deepEqual(DEFAULT_SLOW_CLIENT_LIMITS, { maxQueuedResponses: 64, drainTimeoutMs: 10_000, idleTimeoutMs: 5_000 });
  assertDocumented(/cut off once 1 MiB waits unread/);
  assert.equal(DEFAULT_EVENT_STREAM_LIMITS.maxBufferedBytes, 1024 * 1024);
});

test("by default request headers may be up to 16 KiB: just under is answered, just over is a 431", async (t) => {
  assertDocumented(/request headers at most 16 KiB \(431 beyond\)/);
  const { port } = await start(t);
  // The request line and the Host header take part of the 16 KiB; the padding header takes the rest, within 200 bytes.
  const requestWithHeaders = (totalBytes: number) => {
    const head = `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\nX-Pad: `;
    return `${head}${"p".repeat(totalBytes - head.length - 4)}\r\n\r\n`;
  };
  const under = await open(port);
  under.write(requestWithHeaders(16 * 1024 - 200));
  assert.match((await untilClosed(under, 20_000)).received, /^HTTP\/1\.1 200 /);
  const over = await open(port);
  over.write(requestWithHeaders(16 * 1024 + 200));
  assert.match((await untilClosed(over, 20_000)).received, /^HTTP\/1\.1 431 /);
});

test("by default 256 connections are served at once, and the 257th is closed unanswered", async (t) => {
  const { port } = await start(t);
  // Held without a request: the headers timeout (10 s) would close them, far longer than this takes.
  const held = await Promise.all(Array.from({ length: 256 }, () => open(port)));
  t.after(() => held.forEach((socket) => socket.destroy()));
  const heldClosed = held.map(() => false);
  held.forEach((socket, i) => socket.once("close", () => (heldClosed[i] = true)));
  const extra = await open(port);
  extra.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
  const refused = await untilClosed(extra, 10_000);
  assert.ok(!heldClosed.includes(true), "a held connection closed before the 257th was tried: the count was not 256");
  assert.notEqual(refused.closedAfterMs, undefined, "the 257th connection was kept open");
  assert.equal(refused.received, "", "the 257th connection was answered");
  const answers = await Promise.all(
    held.map((socket) => {
      socket.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
      return untilClosed(socket, 20_000);
    }),
  );
  for (const answer of answers) assert.match(answer.received, /^HTTP\/1\.1 200 /);
});

test("an idle keep-alive connection is closed 5 s after its answer (Keep-Alive: timeout=5), not before", async (t) => {
  const { port } = await start(t);
  const socket = await open(port);
  t.after(() => socket.destroy());
  let closedAtMs: number | undefined;
  socket.once("close", () => (closedAtMs = performance.now()));
  const sentAtMs = performance.now();
  socket.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
  const answer = await received(socket, `{"status":"ok"}`);
  assert.match(answer, /^HTTP\/1\.1 200 /);
  assert.match(answer, /\r\nConnection: keep-alive\r\n/i);
  assert.match(answer, /\r\nKeep-Alive: timeout=5\r\n/i);
  const { closedAfterMs } = await untilClosed(socket, 30_000);
  assert.notEqual(closedAfterMs, undefined, "the idle keep-alive connection was never closed");
  // A lower bound only: the server's timer starts after the request was sent, and timers never fire early.
  const idleMs = closedAtMs! - sentAtMs;
  assert.ok(idleMs >= 4_950, `closed ${Math.round(idleMs)} ms after the request, before the 5 s keep-alive timeout`);
});

test("by default at most 8 event streams per key and 32 in all: one more is a 429 naming the limit", async (t) => {
  const keys = Array.from({ length: 5 }, (_, i) => String(i).repeat(32));
  const { port } = await start(t, { keyring: new ApiKeyring(keys.map((key) => ({ key }))) });
  assertDocumented(/at most 32 event streams at once and 8 per key \(one more is a 429 `RATE_LIMITED`\)/);
  const streams: Socket[] = [];
  t.after(() => streams.forEach((socket) => socket.destroy()));
  const refusal = async (key: string) => {
    const answer = await get(port, "/networks/1/events", { Authorization: basic(key) });
    assert.equal(answer.status, 429, answer.body);
    assert.equal(answer.headers["retry-after"], "5");
    return (JSON.parse(answer.body) as { code: string; message: string }).message;
  };
  for (let i = 0; i < 8; i++) streams.push(await openStream(port, keys[0]));
  assert.match(await refusal(keys[0]!), /event streams open with this API key \(at most 8\)/);
  for (const key of keys.slice(1, 4)) for (let i = 0; i < 8; i++) streams.push(await openStream(port, key));
  assert.equal(streams.length, 32);
  assert.match(await refusal(keys[4]!), /event streams open on this service \(at most 32\)/);
  // The limit counts open streams: once one closes, another key may open one.
  streams.pop()!.destroy();
  streams.push(await waitFor("a stream to open once another closed", () => openStream(port, keys[4]).catch(() => undefined)));
});

test("by default a quiet event stream gets a heartbeat at 15 s, and none before", async (t) => {
  assertDocumented(/each sent a heartbeat every 15 s/);
  // The heartbeat's timer is a setInterval: mocked, so that 15 s pass at once and exactly.
  t.mock.timers.enable({ apis: ["setInterval"] });
  const { port, scripted } = await start(t);
  const stream = await openStream(port);
  t.after(() => stream.destroy());
  let bytes = "";
  stream.on("data", (chunk: Buffer) => (bytes += chunk.toString("latin1")));
  t.mock.timers.tick(14_999);
  // A new block is written to the stream after anything the heartbeat timer wrote: once it has arrived, a heartbeat
  // written before it would have arrived too.
  scripted.write(1, 103n, [4_000_000_000n]);
  await waitFor("the new block's event", () => (bytes.includes(`"firstBlock":"103"`) ? true : undefined));
  assert.ok(!bytes.includes(": heartbeat"), `a heartbeat before 15 s: ${JSON.stringify(bytes)}`);
  t.mock.timers.tick(1);
  await waitFor("the heartbeat at 15 s", () => (bytes.includes(": heartbeat\n\n") ? true : undefined));
});

test("a client trickling its headers is answered 408 and closed once the headers timeout passes", async (t) => {
  const { port } = await start(t, { headersTimeoutMs: 600, requestTimeoutMs: 1200 });
  const socket = await open(port);
  socket.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
  let n = 0;
  const trickle = setInterval(() => {
    if (!socket.destroyed) socket.write(`X-Slow-${n++}: x\r\n`);
  }, 100);
  t.after(() => clearInterval(trickle));
  // The trickle never ends a header section: only the server's timeout closes the socket. Given up after 30 s.
  const { received, closedAfterMs } = await untilClosed(socket, 30_000);
  clearInterval(trickle);
  assert.notEqual(closedAfterMs, undefined, "the slow client was never cut off");
  // A lower bound only (timers never fire early): not cut off before the headers timeout.
  assert.ok(closedAfterMs! >= 500, `closed after ${closedAfterMs} ms, before the 600 ms headers timeout`);
  assert.match(received, /^HTTP\/1\.1 408 /);
  assert.equal((await get(port, "/healthz")).status, 200);
});

test("a client trickling a body is cut off once the request timeout passes", async (t) => {
  const { port } = await start(t, { headersTimeoutMs: 600, requestTimeoutMs: 1200 });
  const socket = await open(port);
  socket.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: 100000\r\n\r\n`);
  const trickle = setInterval(() => {
    if (!socket.destroyed) socket.write("x");
  }, 100);
  t.after(() => clearInterval(trickle));
  // 100,000 bytes at one per 100 ms would take hours: only the server's request timeout closes the socket. Given up
  // after 30 s.
  const { closedAfterMs } = await untilClosed(socket, 30_000);
  clearInterval(trickle);
  assert.notEqual(closedAfterMs, undefined, "the slow body was never cut off");
});

test("an idle connection that sends nothing is closed too", async (t) => {
  const { port } = await start(t, { headersTimeoutMs: 600, requestTimeoutMs: 1200 });
  const { closedAfterMs } = await untilClosed(await open(port), 6000);
  assert.notEqual(closedAfterMs, undefined, "an idle connection stayed open");
});

test("CORS: a `*` in the allow-list is ignored, listed origins get themselves back, others nothing", async (t) => {
  const { port } = await start(t, { corsOrigins: ["*", "http://tool.localhost:3000"] });
  const auth = { Authorization: `Basic ${Buffer.from(`${KEY}:`).toString("base64")}` };
  for (const origin of ["http://evil.example", "null", "*"]) {
    const answer = await get(port, "/networks/1/busyThreshold", { ...auth, Origin: origin });
    assert.equal(answer.status, 200);
    assert.equal(answer.headers["access-control-allow-origin"], undefined, origin);
  }
  const listed = await get(port, "/networks/1/busyThreshold", { ...auth, Origin: "http://tool.localhost:3000" });
  assert.equal(listed.headers["access-control-allow-origin"], "http://tool.localhost:3000");
  assert.equal(listed.headers["access-control-allow-credentials"], undefined);
});

test("CORS is closed by default: no origin is given Access-Control-Allow-Origin, on answers or preflights", async (t) => {
  const { port } = await start(t);
  for (const origin of ["http://localhost:5173", `http://127.0.0.1:${port}`, "http://evil.example"]) {
    const answer = await get(port, `/v3/${KEY}/networks/1/busyThreshold`, { Origin: origin });
    assert.equal(answer.status, 200);
    assert.equal(answer.headers["access-control-allow-origin"], undefined);
  }
});

test("DNS rebinding: a page whose name now resolves to 127.0.0.1 gets 403 and no data, even holding a key", async (t) => {
  const { port } = await start(t);
  for (const host of [
    `attacker.example:${port}`,
    `127.0.0.1.nip.io:${port}`,
    `localtest.me:${port}`,
    "attacker.example",
    `0.0.0.0:${port}`,
    `127.1:${port}`,
    `2130706433:${port}`,
  ]) {
    const origin = `http://${host}`;
    for (const path of [`/v3/${KEY}/networks/1/baseFeeHistory`, "/networks", "/healthz"]) {
      const answer = await get(port, path, { Host: host, Origin: origin, Authorization: `Basic ${Buffer.from(`${KEY}:`).toString("base64")}` });
      assert.equal(answer.status, 403, `${host} ${path}`);
      assert.equal((JSON.parse(answer.body) as { code: string }).code, "FORBIDDEN_HOST");
      assert.equal(answer.headers["access-control-allow-origin"], undefined);
      assert.ok(!answer.body.includes('"1"') && !answer.body.includes("busyThreshold"), "data leaked in a 403");
    }
  }
});
