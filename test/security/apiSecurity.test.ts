// The defences of the local server that server.test.ts does not already prove: the connection limit, slow clients
// against the headers and request timeouts, CORS that never turns into `*`, and a DNS-rebinding page's requests.
import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { connect, type Socket } from "node:net";
import { test, type TestContext } from "node:test";
import { createApiServer, type ApiServerOptions } from "../../shared/http/server.ts";
import { TestFeeSource } from "../../shared/service/testFeeSource.ts";
import { ApiKeyring } from "../../shared/keys/apiKeyring.ts";
import { createLogger } from "../../shared/log/logger.ts";

const KEY = "0123456789abcdef0123456789abcdef";

async function start(t: TestContext, overrides: Partial<ApiServerOptions> = {}): Promise<{ port: number; logs: string[] }> {
  const source = new TestFeeSource([{ chainId: 1 }]);
  source.write(1, 100n, [1_000_000_000n, 2_000_000_000n, 3_000_000_000n], Date.now());
  const logs: string[] = [];
  const server = createApiServer({
    source,
    keyring: new ApiKeyring([{ key: KEY }]),
    logger: createLogger("debug", (line) => logs.push(line)),
    port: 0,
    ...overrides,
  });
  const { port } = await server.listen();
  t.after(() => server.close());
  return { port, logs };
}

function get(
  port: number,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, headers: { Host: `127.0.0.1:${port}`, ...headers }, setHost: false, agent: false }, (res) => {
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
  const { port, logs } = await start(t, { maxConnections: 4 });
  const held = await Promise.all([1, 2, 3, 4].map(() => open(port)));
  // Give the server the time to count them.
  await new Promise((resolve) => setTimeout(resolve, 50));
  const extra = await open(port);
  extra.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
  const refused = await untilClosed(extra, 3000);
  assert.notEqual(refused.closedAfterMs, undefined, "the connection over the limit was kept open");
  assert.equal(refused.received, "", "the connection over the limit was answered");
  // The held ones still work.
  held[0]!.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
  const answered = await untilClosed(held[0]!, 3000);
  assert.match(answered.received, /^HTTP\/1\.1 200 /);
  for (const socket of held) socket.destroy();
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal((await get(port, "/healthz")).status, 200);
  await new Promise((resolve) => setTimeout(resolve, 1100));
  assert.match(logs.join(""), /connections over the limit were closed unanswered/);
});

test("the default connection limit lets 100 concurrent keep-alive clients through", async (t) => {
  const { port } = await start(t);
  const sockets = await Promise.all(Array.from({ length: 100 }, () => open(port)));
  const answers = await Promise.all(
    sockets.map((socket) => {
      socket.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
      return untilClosed(socket, 5000);
    }),
  );
  for (const answer of answers) assert.match(answer.received, /^HTTP\/1\.1 200 /);
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
  const { received, closedAfterMs } = await untilClosed(socket, 5000);
  clearInterval(trickle);
  assert.notEqual(closedAfterMs, undefined, "the slow client was never cut off");
  // The timeout is checked once a second: 600 ms, plus up to a second, plus slack for a loaded machine.
  assert.ok(closedAfterMs! >= 500 && closedAfterMs! < 4000, `closed after ${closedAfterMs} ms`);
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
  const { closedAfterMs } = await untilClosed(socket, 6000);
  clearInterval(trickle);
  assert.notEqual(closedAfterMs, undefined, "the slow body was never cut off");
  assert.ok(closedAfterMs! < 5000, `closed after ${closedAfterMs} ms`);
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
      assert.equal(JSON.parse(answer.body).code, "FORBIDDEN_HOST");
      assert.equal(answer.headers["access-control-allow-origin"], undefined);
      assert.ok(!answer.body.includes('"1"') && !answer.body.includes("busyThreshold"), "data leaked in a 403");
    }
  }
});
