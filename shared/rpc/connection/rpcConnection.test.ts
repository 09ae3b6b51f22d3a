import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
import { MalformedRpcResponseError, RpcEndpointError } from "./errors.ts";
import { isTooManyBlocksError } from "../feed/fetchBaseFees.ts";
import { createRpcConnection } from "./rpcConnection.ts";
import { gzipSync } from "node:zlib";
import { once } from "node:events";
import type { Socket } from "node:net";
import { startHostileRpcServer } from "../../../test/support/hostileRpcServer.ts";
import { waitFor } from "../../../test/support/waitFor.ts";
import { parseRpcChainId } from "./parseRpcAnswers.ts";

/** A server answering each POST with `answer(body, req, res)`; its URL, and a way to close it. */
async function server(answer: (body: string, req: IncomingMessage, res: ServerResponse) => void) {
  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => answer(Buffer.concat(chunks).toString("utf8"), req, res));
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    url,
    close: () => {
      http.closeAllConnections();
      return new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

const json = (res: ServerResponse, status: number, value: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  assert.fail("expected a rejection");
}

test("http: posts a JSON-RPC request with keep-alive and resolves with its result", async () => {
  const seen: Array<{ body: Record<string, unknown>; contentType: string | undefined; socket: unknown }> = [];
  const endpoint = await server((body, req, res) => {
    seen.push({ body: JSON.parse(body) as Record<string, unknown>, contentType: req.headers["content-type"], socket: req.socket });
    json(res, 200, { jsonrpc: "2.0", id: 1, result: "0x1" });
  });
  try {
    const connection = createRpcConnection(endpoint.url, { timeoutMs: 1000 });
    assert.equal(await connection.request("eth_chainId", []), "0x1");
    assert.equal(await connection.request("eth_feeHistory", ["0x2", "latest", [10]]), "0x1");
    assert.equal(seen[0]!.contentType, "application/json");
    assert.deepEqual({ ...seen[1]!.body, id: 0 }, { jsonrpc: "2.0", id: 0, method: "eth_feeHistory", params: ["0x2", "latest", [10]] });
    assert.equal(seen[0]!.socket, seen[1]!.socket, "the second request reuses the first one's socket");
  } finally {
    await endpoint.close();
  }
});

test("http: credentials in the URL become a Basic authorization header, and never appear in errors", async () => {
  let authorization: string | undefined;
  const endpoint = await server((_body, req, res) => {
    authorization = req.headers.authorization;
    res.writeHead(503, { "content-type": "text/plain" }).end("down");
  });
  try {
    const url = endpoint.url.replace("http://", "http://user:p%40ss@");
    const error = await failure(createRpcConnection(url, { timeoutMs: 1000 }).request("eth_chainId", []));
    assert.equal(authorization, `Basic ${Buffer.from("user:p@ss").toString("base64")}`);
    assert.ok(error instanceof RpcEndpointError);
    assert.equal(error.httpStatus, 503);
    assert.doesNotMatch(error.message, /p%40ss|p@ss/);
  } finally {
    await endpoint.close();
  }
});

test("http: a 429's Retry-After reaches the error (seconds or an HTTP date, at most an hour), so that callers wait as asked", async () => {
  let retryAfter = "7";
  const endpoint = await server((_body, _req, res) => res.writeHead(429, { "content-type": "text/plain", "retry-after": retryAfter }).end("Too Many Requests"));
  try {
    const connection = createRpcConnection(endpoint.url, { timeoutMs: 1000 });
    const retryAfterMsOf = async () => {
      const error = await failure(connection.request("eth_feeHistory", []));
      assert.ok(error instanceof RpcEndpointError);
      return error.retryAfterMs;
    };
    assert.equal(await retryAfterMsOf(), 7_000);
    retryAfter = new Date(Date.now() + 30_000).toUTCString();
    const dated = await retryAfterMsOf();
    assert.ok(dated !== undefined && dated > 25_000 && dated <= 30_000, `an HTTP date 30 s ahead: ${dated} ms`);
    for (const [header, expected] of [
      ["99999", 3_600_000],
      ["soon", undefined],
      ["-5", undefined],
      ["", undefined],
    ] as const) {
      retryAfter = header;
      assert.equal(await retryAfterMsOf(), expected, `Retry-After: ${header}`);
    }
  } finally {
    await endpoint.close();
  }
});

test("http: non-2xx answers keep their status; 429 and 5xx are never size refusals, a JSON-RPC size error is", async () => {
  let answer: (res: ServerResponse) => void = () => {};
  const endpoint = await server((_body, _req, res) => answer(res));
  try {
    const connection = createRpcConnection(endpoint.url, { timeoutMs: 1000 });
    answer = (res) => res.writeHead(429, { "content-type": "text/plain", "retry-after": "1" }).end("Too Many Requests: block range limit exceeded");
    let error = await failure(connection.request("eth_feeHistory", []));
    assert.ok(error instanceof RpcEndpointError);
    assert.equal(error.httpStatus, 429);
    assert.match(error.reason, /^HTTP 429 /);
    assert.equal(isTooManyBlocksError(error), false);

    answer = (res) => res.writeHead(500).end();
    error = await failure(connection.request("eth_feeHistory", []));
    assert.ok(error instanceof RpcEndpointError);
    assert.equal(error.httpStatus, 500);
    assert.equal(error.reason, "HTTP 500 Internal Server Error");
    assert.equal(isTooManyBlocksError(error), false);

    answer = (res) =>
      json(res, 400, { jsonrpc: "2.0", id: 1, error: { code: -32602, message: "requested block count 1024 exceeds the maximum of 128 blocks" } });
    error = await failure(connection.request("eth_feeHistory", []));
    assert.ok(error instanceof RpcEndpointError);
    assert.equal(error.httpStatus, 400);
    assert.equal(error.reason, "HTTP 400 requested block count 1024 exceeds the maximum of 128 blocks");
    assert.equal(isTooManyBlocksError(error), true);

    answer = (res) => json(res, 200, { jsonrpc: "2.0", id: 1, error: { code: -32005, message: "query returned more than 10000 results" } });
    error = await failure(connection.request("eth_getLogs", []));
    assert.ok(error instanceof RpcEndpointError);
    assert.equal(error.rpcCode, -32005);
    assert.equal(error.httpStatus, undefined);
    assert.equal(error.reason, "query returned more than 10000 results");
  } finally {
    await endpoint.close();
  }
});

test("http: garbage is a MalformedRpcResponseError; a gzipped answer is read even though none was asked for", async () => {
  let answer: (res: ServerResponse) => void = () => {};
  const endpoint = await server((_body, _req, res) => answer(res));
  try {
    const connection = createRpcConnection(endpoint.url, { timeoutMs: 1000 });
    answer = (res) => res.writeHead(200, { "content-type": "application/json" }).end('{"jsonrpc":"2.0","id":1,"result":{"oldestBlock":"0x1",');
    assert.ok((await failure(connection.request("eth_feeHistory", []))) instanceof MalformedRpcResponseError);
    answer = (res) => json(res, 200, [1, 2]);
    assert.ok((await failure(connection.request("eth_feeHistory", []))) instanceof MalformedRpcResponseError);
    answer = (res) => json(res, 200, { jsonrpc: "2.0", id: 1 });
    assert.ok((await failure(connection.request("eth_feeHistory", []))) instanceof MalformedRpcResponseError);
    answer = (res) =>
      res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" }).end(gzipSync('{"jsonrpc":"2.0","id":1,"result":"0x2a"}'));
    assert.equal(await connection.request("eth_blockNumber", []), "0x2a");
  } finally {
    await endpoint.close();
  }
});

test("http: a slow answer times out ('timed out', no status), and close() aborts the requests in flight", async () => {
  // An answer after a minute: long past either request's end, so that only the timeout or close() can end them.
  const endpoint = await server((_body, _req, res) => setTimeout(() => json(res, 200, { jsonrpc: "2.0", id: 1, result: "0x1" }), 60_000).unref());
  try {
    const connection = createRpcConnection(endpoint.url, { timeoutMs: 100 });
    const timedOut = await failure(connection.request("eth_chainId", []));
    assert.ok(timedOut instanceof RpcEndpointError);
    assert.equal(timedOut.reason, "timed out");
    assert.equal(timedOut.httpStatus, undefined);

    const patient = createRpcConnection(endpoint.url, { timeoutMs: 5000 });
    const pending = failure(patient.request("eth_chainId", []));
    setTimeout(() => patient.close(), 50);
    const aborted = await pending;
    assert.ok(aborted instanceof RpcEndpointError);
    assert.notEqual(aborted.reason, "timed out");
  } finally {
    await endpoint.close();
  }
});

test("http: an endpoint that is down or hangs up is an RpcEndpointError without a status", async () => {
  const endpoint = await server((_body, req) => req.socket.destroy());
  try {
    const hangUp = await failure(createRpcConnection(endpoint.url, { timeoutMs: 1000 }).request("eth_chainId", []));
    assert.ok(hangUp instanceof RpcEndpointError);
    assert.equal(hangUp.httpStatus, undefined);
  } finally {
    await endpoint.close();
  }
  const down = await failure(createRpcConnection(endpoint.url, { timeoutMs: 1000 }).request("eth_chainId", []));
  assert.ok(down instanceof RpcEndpointError);
  assert.match(down.reason, /ECONNREFUSED/);
});

test("http: an answer beyond the size bound is refused, as a size refusal (asking for fewer blocks helps)", async () => {
  const big = `{"jsonrpc":"2.0","id":1,"result":"${"0".repeat(11 * 1024 * 1024)}"}`;
  const endpoint = await server((_body, _req, res) => res.writeHead(200, { "content-type": "application/json" }).end(big));
  try {
    const error = await failure(createRpcConnection(endpoint.url, { timeoutMs: 5000 }).request("eth_feeHistory", []));
    assert.ok(error instanceof RpcEndpointError);
    assert.match(error.reason, /exceeded the size limit/);
    assert.equal(isTooManyBlocksError(error), true);
  } finally {
    await endpoint.close();
  }
});

// A provider's URL as users paste it: a key in the path, another in the query, credentials in the user info.
const PATH_KEY = "9aa3d95b3bc440fa88ea12eaa4456161";
const QUERY_KEY = "Q1w2e3r4t5y6u7i8";
const PASSWORD = "s3cr3t-pa55";
const SECRETS = [PATH_KEY, QUERY_KEY, PASSWORD, "s3cr3t%2Dpa55"];
const keyedUrl = (base: string) => base.replace("://", `://alice:${PASSWORD}@`) + `/v3/${PATH_KEY}?apikey=${QUERY_KEY}`;
/** What hostile or careless endpoints put in their error messages: the URL whole, or in part. */
const quotes = (base: string) => [
  `invalid request to ${keyedUrl(base)}`,
  `unknown project id ${PATH_KEY}`,
  `apikey=${QUERY_KEY} is over its daily quota`,
  `the URL (${base}/v3/${PATH_KEY}).`,
  `bad credentials alice:${PASSWORD}`,
  // A message longer than the part kept: the key must not survive the cut either.
  `${"x".repeat(280)} ${keyedUrl(base)}`,
];

function assertNoSecret(text: string): void {
  for (const secret of SECRETS) assert.ok(!text.includes(secret), `leaks ${secret}: ${text}`);
  // Not even a part of the key long enough to look it up.
  assert.ok(!text.includes(PATH_KEY.slice(0, 12)), `leaks part of the key: ${text}`);
}

test("http: an endpoint's error message quoting its URL, key, query or password shows none of them", async () => {
  let message = "";
  let status = 200;
  const endpoint = await server((_body, _req, res) =>
    status === 200
      ? json(res, 200, { jsonrpc: "2.0", id: 1, error: { code: -32000, message } })
      : res.writeHead(status, message.slice(0, 200).replaceAll(/[^\x20-\x7e]/g, "")).end(JSON.stringify({ error: message })),
  );
  try {
    const connection = createRpcConnection(keyedUrl(endpoint.url), { timeoutMs: 2000 });
    assertNoSecret(connection.redactedUrl);
    for (status of [200, 401]) {
      for (message of quotes(endpoint.url)) {
        const error = await failure(connection.request("eth_chainId", []));
        assert.ok(error instanceof RpcEndpointError);
        assertNoSecret(error.message);
        assertNoSecret(error.reason);
        assert.match(error.message, /\*\*\*|\/…/, "what was quoted is hidden");
      }
    }
  } finally {
    await endpoint.close();
  }
});

test("ws: an endpoint's error message quoting its URL, key, query or password shows none of them", async (t) => {
  const hostile = await startHostileRpcServer();
  t.after(() => hostile.close());
  const connection = createRpcConnection(keyedUrl(hostile.wsUrl), { timeoutMs: 5000 });
  t.after(() => connection.close());
  assert.equal(await connection.request("eth_chainId", []), "0x7a69");
  for (const message of quotes(hostile.wsUrl)) {
    await hostile.turn("rpc-error", { errorMessage: message });
    const error = await failure(connection.request("eth_chainId", []));
    assert.ok(error instanceof RpcEndpointError);
    assertNoSecret(error.message);
  }
});

test("a result quoting the endpoint's key is redacted before a parser quotes it in its error", async () => {
  let result = "";
  const endpoint = await server((_body, _req, res) => json(res, 200, { jsonrpc: "2.0", id: 1, result }));
  try {
    const connection = createRpcConnection(keyedUrl(endpoint.url), { timeoutMs: 2000 });
    // The parser quotes 57 characters: enough for a cut URL to carry most of a key.
    for (result of [keyedUrl(endpoint.url), `${PATH_KEY}`, `0x${PATH_KEY}${QUERY_KEY}`]) {
      const error = await failure(Promise.resolve(connection.request("eth_chainId", [])).then((value) => parseRpcChainId(value, connection.redactedUrl)));
      assert.ok(error instanceof MalformedRpcResponseError);
      assertNoSecret(error.message);
    }
  } finally {
    await endpoint.close();
  }
});

test("an endpoint whose path names its chain (/base, /cafe) gets its answers whole: only key-like parts are hidden in results", async () => {
  const header = { number: "0x1cafe", baseFeePerGas: "0xcafe", timestamp: "0x65" };
  const endpoint = await server((_body, _req, res) => json(res, 200, { jsonrpc: "2.0", id: 1, result: header }));
  try {
    for (const path of ["/base", "/cafe", "/base/cafe"]) {
      const connection = createRpcConnection(`${endpoint.url}${path}`, { timeoutMs: 2000 });
      assert.deepEqual(await connection.request("eth_getBlockByNumber", ["latest", false]), header, path);
      connection.close();
    }
  } finally {
    await endpoint.close();
  }
});

test("http: each connection numbers its own requests, and close() closes its kept-alive socket", async () => {
  const ids: unknown[] = [];
  const sockets: Socket[] = [];
  const endpoint = await server((body, req, res) => {
    ids.push((JSON.parse(body) as { id: unknown }).id);
    if (!sockets.includes(req.socket)) sockets.push(req.socket);
    json(res, 200, { jsonrpc: "2.0", id: 1, result: "0x1" });
  });
  try {
    const first = createRpcConnection(endpoint.url, { timeoutMs: 2000 });
    const second = createRpcConnection(endpoint.url, { timeoutMs: 2000 });
    await first.request("eth_chainId", []);
    await first.request("eth_chainId", []);
    await second.request("eth_chainId", []);
    assert.deepEqual(ids, [1, 2, 1]);
    assert.equal(sockets.length, 2, "one kept-alive socket per connection");
    const closed = once(sockets[0]!, "close");
    first.close();
    await closed;
    assert.equal(await first.request("eth_chainId", []), "0x1", "a closed connection connects again on its next request");
    second.close();
  } finally {
    await endpoint.close();
  }
});

test("http: a batch is one POST of an array; answers in any order go back to their calls, a call's error is its outcome", async () => {
  const bodies: unknown[] = [];
  const endpoint = await server((body, _req, res) => {
    const calls = JSON.parse(body) as Array<{ id: number; method: string }>;
    bodies.push(calls);
    // Reversed, as JSON-RPC allows; the second call fails on its own.
    const answers = calls.map((call) =>
      call.method === "eth_feeHistory"
        ? { jsonrpc: "2.0", id: call.id, error: { code: -32602, message: "requested block count 4096 exceeds the maximum of 1024 blocks" } }
        : { jsonrpc: "2.0", id: call.id, result: { number: "0x10", timestamp: "0x64" } },
    );
    json(res, 200, answers.reverse());
  });
  try {
    const connection = createRpcConnection(endpoint.url, { timeoutMs: 1000 });
    const outcomes = await connection.requestBatch([
      { method: "eth_getBlockByNumber", params: ["latest", false] },
      { method: "eth_feeHistory", params: ["0x1000", "latest", []] },
    ]);
    assert.equal(bodies.length, 1, "one HTTP request");
    assert.deepEqual(bodies[0], [
      { jsonrpc: "2.0", id: 1, method: "eth_getBlockByNumber", params: ["latest", false] },
      { jsonrpc: "2.0", id: 2, method: "eth_feeHistory", params: ["0x1000", "latest", []] },
    ]);
    assert.equal(outcomes.length, 2);
    assert.deepEqual(outcomes[0], { ok: true, result: { number: "0x10", timestamp: "0x64" } });
    const failed = outcomes[1]!;
    assert.ok(!failed.ok && failed.error instanceof RpcEndpointError);
    assert.equal(failed.error.method, "eth_feeHistory");
    assert.equal(failed.error.rpcCode, -32602);
    assert.equal(isTooManyBlocksError(failed.error), true, "a size refusal inside a batch reads as one");
  } finally {
    await endpoint.close();
  }
});

test("http: an endpoint answering a batch with one error gives every call that error; null-id errors go to the calls left", async () => {
  let answer: (calls: Array<{ id: number }>, res: ServerResponse) => void = () => {};
  const endpoint = await server((body, _req, res) => answer(JSON.parse(body) as Array<{ id: number }>, res));
  const calls = [
    { method: "eth_getBlockByNumber", params: ["latest", false] },
    { method: "eth_feeHistory", params: ["0x8", "latest", []] },
  ];
  try {
    const connection = createRpcConnection(endpoint.url, { timeoutMs: 1000 });
    answer = (_calls, res) => json(res, 200, { jsonrpc: "2.0", id: null, error: { code: -32600, message: "batch requests are not supported" } });
    for (const outcome of await connection.requestBatch(calls)) {
      assert.ok(!outcome.ok && outcome.error instanceof RpcEndpointError);
      assert.equal(outcome.error.reason, "batch requests are not supported");
    }
    answer = (sent, res) =>
      json(res, 200, [
        { jsonrpc: "2.0", id: sent[0]!.id, result: "0x1" },
        { jsonrpc: "2.0", id: null, error: { code: -32005, message: "batch too large" } },
      ]);
    const [first, second] = await connection.requestBatch(calls);
    assert.deepEqual(first, { ok: true, result: "0x1" });
    assert.ok(second && !second.ok && second.error instanceof RpcEndpointError && second.error.reason === "batch too large");
  } finally {
    await endpoint.close();
  }
});

test("http: a batch's answer that does not answer its calls is garbage, and the answer's bounds hold for batches", async () => {
  let answer: (calls: Array<{ id: number }>, res: ServerResponse) => void = () => {};
  const endpoint = await server((body, _req, res) => answer(JSON.parse(body) as Array<{ id: number }>, res));
  const calls = [
    { method: "eth_getBlockByNumber", params: ["latest", false] },
    { method: "eth_feeHistory", params: ["0x8", "latest", []] },
  ];
  const garbage: Array<[string, (sent: Array<{ id: number }>) => unknown, RegExp]> = [
    ["an object", (sent) => ({ jsonrpc: "2.0", id: sent[0]!.id, result: "0x1" }), /not an array/],
    ["a call not made", (sent) => sent.map((call) => ({ jsonrpc: "2.0", id: call.id + 100, result: "0x1" })), /a call that was not made/],
    ["a call twice", (sent) => [sent[0], sent[0]].map((call) => ({ jsonrpc: "2.0", id: call!.id, result: "0x1" })), /twice/],
    ["a call left out", (sent) => [{ jsonrpc: "2.0", id: sent[0]!.id, result: "0x1" }], /leaves eth_feeHistory \(id \d+\) unanswered/],
    ["a number", () => 7, /not an array/],
  ];
  try {
    const connection = createRpcConnection(endpoint.url, { timeoutMs: 300 });
    for (const [what, reply, problem] of garbage) {
      answer = (sent, res) => json(res, 200, reply(sent));
      const error = await failure(connection.requestBatch(calls));
      assert.ok(error instanceof MalformedRpcResponseError, what);
      assert.match(error.problem, problem, what);
      assert.equal(error.method, "batch(eth_getBlockByNumber, eth_feeHistory)");
    }
    answer = (_sent, res) =>
      res.writeHead(200, { "content-type": "application/json" }).end(`[{"jsonrpc":"2.0","id":1,"result":"${"0".repeat(5 * 1024 * 1024)}"}]`);
    const tooLarge = await failure(connection.requestBatch(calls));
    assert.ok(tooLarge instanceof RpcEndpointError && /exceeded the size limit/.test(tooLarge.reason));
    answer = () => {};
    const timedOut = await failure(connection.requestBatch(calls));
    assert.ok(timedOut instanceof RpcEndpointError && timedOut.reason === "timed out");
    answer = (_sent, res) => res.writeHead(429, { "content-type": "text/plain" }).end("Too Many Requests");
    const refused = await failure(connection.requestBatch(calls));
    assert.ok(refused instanceof RpcEndpointError && refused.httpStatus === 429);
    await assert.rejects(connection.requestBatch([]), /a batch holds 1 to 32 calls/);
    connection.close();
  } finally {
    await endpoint.close();
  }
});

test("http: a batch's results and errors quoting the endpoint's key show none of it", async () => {
  const endpoint = await server((body, _req, res) => {
    const [first, second] = JSON.parse(body) as Array<{ id: number }>;
    json(res, 200, [
      { jsonrpc: "2.0", id: first!.id, result: { extraData: keyedUrl("http://x") } },
      { jsonrpc: "2.0", id: second!.id, error: { code: -32000, message: `unknown project id ${PATH_KEY}` } },
    ]);
  });
  try {
    const connection = createRpcConnection(keyedUrl(endpoint.url), { timeoutMs: 2000 });
    const [first, second] = await connection.requestBatch([
      { method: "eth_getBlockByNumber", params: ["latest", false] },
      { method: "eth_chainId", params: [] },
    ]);
    assert.ok(first?.ok);
    assertNoSecret(JSON.stringify(first.result));
    assert.ok(second && !second.ok);
    assertNoSecret(second.error.message);
  } finally {
    await endpoint.close();
  }
});

test("ws: a batch goes as separate messages, each call's error its own; newHeads hands over each header", async (t) => {
  const hostile = await startHostileRpcServer();
  t.after(() => hostile.close());
  const connection = createRpcConnection(hostile.wsUrl, { timeoutMs: 5000 });
  t.after(() => connection.close());
  const [chainId, unknown] = await connection.requestBatch([
    { method: "eth_chainId", params: [] },
    { method: "eth_noSuchMethod", params: [] },
  ]);
  assert.deepEqual(chainId, { ok: true, result: "0x7a69" });
  assert.ok(unknown && !unknown.ok && unknown.error instanceof RpcEndpointError && unknown.error.rpcCode === -32601);
  const headers: unknown[] = [];
  await connection.subscribeNewHeads(
    (header) => headers.push(header),
    () => {},
  );
  hostile.mine();
  await waitFor("a newHeads notification", () => headers.length > 0, 10_000);
  assert.equal((headers[0] as { number?: unknown }).number, `0x${hostile.head.toString(16)}`);
  assert.match(String((headers[0] as { timestamp?: unknown }).timestamp), /^0x[0-9a-f]+$/);
});
