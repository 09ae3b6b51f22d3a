import assert from "node:assert/strict";
import { Agent, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { connect } from "node:net";
import { test, type TestContext } from "node:test";
import { ApiKeyring } from "../keys/apiKeyring.ts";
import type { FeeSource } from "../service/feeSource.ts";
import { createLogger, type Logger } from "../log/logger.ts";
import { API_ERRORS } from "./apiErrors.ts";
import { createApiServer, type ApiServerOptions } from "./server.ts";
import { networkStatusAt } from "../service/chainPublication.ts";
import { TestFeeSource } from "../service/testFeeSource.ts";

const OPEN_KEY = "0123456789abcdef0123456789abcdef";
const SECRET_KEY = "fedcba9876543210fedcba9876543210";
const SECRET = "s3cret:with-colon";
const ORIGIN = "http://localhost:5173";

const MAINNET = 1;
const YOUNG = 8453;
const SYNCING = 6000;
const FAST_SYNCING = 42161;
const LEGACY = 56;

/** 2026-01-01T00:00:00Z, a Thursday. */
const CONFIRMED_AT_MS = Date.UTC(2026, 0, 1);
const FIRST_BLOCK = 20_000_000n;
const MAINNET_BLOCKS = 1200;

/** Deterministic, varied base fees (1 to 61 Gwei, most with 9 fractional digits), by a 64-bit LCG. */
function feesWei(count: number, seed: bigint): bigint[] {
  let state = seed;
  return Array.from({ length: count }, () => {
    state = (state * 6364136223846793005n + 1442695040888963407n) % 2n ** 64n;
    return 1_000_000_000n + (state % 60_000_000_000n);
  });
}

/** The contract's Gwei string by string arithmetic on the decimal wei, independent of the code under test. */
function gwei(wei: bigint): string {
  const digits = wei.toString().padStart(10, "0");
  const whole = digits.slice(0, -9).replace(/^0+(?=\d)/, "");
  const fraction = digits.slice(-9).replace(/0+$/, "");
  return fraction === "" ? whole : `${whole}.${fraction}`;
}

function nearestRank(values: readonly bigint[], percentile: number): bigint {
  const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return sorted[Math.ceil((percentile / 100) * sorted.length) - 1]!;
}

const MAINNET_FEES = feesWei(MAINNET_BLOCKS, 7n);
// Chosen so that p50 and p90 of these 10 blocks are the contract's example values.
const YOUNG_FEES = [
  14_585_610_312n,
  16_407_222_984n,
  50_000_000_000n,
  1n,
  23_227_829_059n,
  37_378_956_101n,
  2n,
  30_000_000_000n,
  25_000_000_000n,
  35_000_000_000n,
];

interface Started {
  port: number;
  url: string;
  source: TestFeeSource;
  clock: { ms: number };
  logs: string[];
  close(): Promise<void>;
}

async function start(t: TestContext, overrides: Partial<ApiServerOptions> = {}): Promise<Started> {
  const source = new TestFeeSource([
    { chainId: MAINNET, name: "Ethereum", statsWindowBlocks: 1000 },
    { chainId: YOUNG, name: "Base", blockTimeMs: 2000 },
    { chainId: SYNCING, blockTimeMs: 2500 },
    { chainId: FAST_SYNCING, blockTimeMs: 250 },
    { chainId: LEGACY, noBaseFee: true },
  ]);
  source.write(MAINNET, FIRST_BLOCK, MAINNET_FEES, CONFIRMED_AT_MS);
  source.write(YOUNG, 0n, YOUNG_FEES, CONFIRMED_AT_MS - 250);
  const clock = { ms: CONFIRMED_AT_MS + 1500 };
  const logs: string[] = [];
  const server = createApiServer({
    source,
    keyring: new ApiKeyring([{ key: OPEN_KEY }, { key: SECRET_KEY, secret: SECRET }]),
    logger: createLogger("debug", (line) => logs.push(line)),
    port: 0,
    corsOrigins: [`${ORIGIN}/`],
    allowedHosts: ["gasfees.lan"],
    rateLimit: { requestsPerSecond: 0, burst: 1 },
    now: () => clock.ms,
    ...overrides,
  });
  const { port, url } = await server.listen();
  t.after(() => server.close());
  return { port, url, source, clock, logs, close: () => server.close() };
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** The request went on a keep-alive connection that an earlier request had opened. */
  reusedSocket: boolean;
}

interface RequestOptions {
  method?: string;
  /** The Host header; `null` sends none. Defaults to `127.0.0.1:<port>`. */
  host?: string | null;
  headers?: Record<string, string>;
  body?: string;
  agent?: Agent;
}

function call(port: number, path: string, options: RequestOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  const host = options.host === undefined ? `127.0.0.1:${port}` : options.host;
  if (host !== null) headers["Host"] = host;
  if (options.body !== undefined) headers["Content-Length"] = String(Buffer.byteLength(options.body));
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: "127.0.0.1", port, path, method: options.method ?? "GET", headers, setHost: false, agent: options.agent ?? false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString("utf8"), reusedSocket: req.reusedSocket }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

const basic = (credentials: string) => ({ Authorization: `Basic ${Buffer.from(credentials).toString("base64")}` });
const openAuth = basic(`${OPEN_KEY}:`);

function assertError(answer: Answer, code: keyof typeof API_ERRORS): void {
  const statusCode = API_ERRORS[code].statusCode;
  assert.equal(answer.status, statusCode, `${code}: ${answer.body}`);
  const body = JSON.parse(answer.body) as Record<string, unknown>;
  assert.deepEqual(Object.keys(body), ["statusCode", "code", "message"]);
  assert.equal(body["statusCode"], statusCode);
  assert.equal(body["code"], code);
  assert.equal(typeof body["message"], "string");
  assert.equal(answer.headers["content-type"], "application/json; charset=utf-8");
  assert.equal(answer.headers["content-length"], String(Buffer.byteLength(answer.body)));
}

// --- the three endpoints ---------------------------------------------------------------------------------

test("the three endpoints answer the values computed independently from the blocks written", async (t) => {
  const { port } = await start(t);
  const statsWindow = MAINNET_FEES.slice(-1000);
  const history = MAINNET_FEES.slice(-500);

  const busy = await call(port, "/networks/1/busyThreshold", { headers: openAuth });
  assert.equal(busy.status, 200);
  assert.equal(busy.body, `{"busyThreshold":"${gwei(nearestRank(statsWindow, 90))}"}`);

  const median = await call(port, "/networks/1/baseFeePercentile", { headers: openAuth });
  assert.equal(median.status, 200);
  assert.equal(median.body, `{"baseFeePercentile":"${gwei(nearestRank(statsWindow, 50))}"}`);

  const historyAnswer = await call(port, "/networks/1/baseFeeHistory", { headers: openAuth });
  assert.equal(historyAnswer.status, 200);
  const array = JSON.parse(historyAnswer.body) as string[];
  assert.equal(array.length, 500);
  assert.deepEqual(array, history.map(gwei));
  assert.equal(array[0], gwei(MAINNET_FEES[MAINNET_BLOCKS - 500]!), "oldest first");
  assert.equal(array[499], gwei(MAINNET_FEES[MAINNET_BLOCKS - 1]!), "newest last");
  assert.equal(historyAnswer.body, JSON.stringify(history.map(gwei)));
});

test("a chain younger than 500 blocks: all its blocks, and the contract's example values", async (t) => {
  const { port } = await start(t);
  const busy = await call(port, "/networks/8453/busyThreshold", { headers: openAuth });
  assert.equal(busy.body, `{"busyThreshold":"37.378956101"}`);
  const median = await call(port, "/networks/8453/baseFeePercentile", { headers: openAuth });
  assert.equal(median.body, `{"baseFeePercentile":"23.227829059"}`);
  const history = await call(port, "/networks/8453/baseFeeHistory", { headers: openAuth });
  assert.equal(history.body, `["14.585610312","16.407222984","50","0.000000001","23.227829059","37.378956101","0.000000002","30","25","35"]`);
});

test("a 200 carries the freshness and caching headers", async (t) => {
  const { port } = await start(t);
  const answer = await call(port, "/networks/1/busyThreshold", { headers: openAuth });
  assert.equal(answer.status, 200);
  assert.equal(answer.headers["content-type"], "application/json; charset=utf-8");
  assert.equal(answer.headers["content-length"], String(Buffer.byteLength(answer.body)));
  assert.equal(answer.headers["x-block-number"], String(FIRST_BLOCK + BigInt(MAINNET_BLOCKS - 1)));
  assert.equal(answer.headers["x-data-age-ms"], "1500");
  assert.equal(answer.headers["last-modified"], "Thu, 01 Jan 2026 00:00:00 GMT");
  assert.equal(answer.headers["cache-control"], "private, max-age=0, must-revalidate");
  assert.equal(answer.headers["x-content-type-options"], "nosniff");
  assert.match(answer.headers["etag"] ?? "", /^"[A-Za-z0-9_-]{22}"$/);

  const young = await call(port, "/networks/8453/baseFeeHistory", { headers: openAuth });
  assert.equal(young.headers["x-block-number"], "9");
  assert.equal(young.headers["x-data-age-ms"], "1750");
});

test("a new block is answered at once, with a new ETag", async (t) => {
  const { port, source, clock } = await start(t);
  const before = await call(port, "/networks/8453/baseFeeHistory", { headers: openAuth });
  clock.ms += 2000;
  source.write(YOUNG, 10n, [3_000_000_000n], clock.ms);
  const after = await call(port, "/networks/8453/baseFeeHistory", { headers: openAuth });
  assert.equal(after.body, before.body.replace(/]$/, `,"3"]`));
  assert.notEqual(after.headers["etag"], before.headers["etag"]);
  assert.equal(after.headers["x-block-number"], "10");
  assert.equal(after.headers["x-data-age-ms"], "0");
});

test("GET /networks: the source's statuses as a JSON array, not cached", async (t) => {
  const { port, source, clock } = await start(t);
  const answer = await call(port, "/networks", { headers: openAuth });
  assert.equal(answer.status, 200);
  assert.equal(answer.body, JSON.stringify(source.list().map((publication) => networkStatusAt(publication, clock.ms))));
  const networks = JSON.parse(answer.body) as { chainId: number; busyThreshold: string | null }[];
  assert.deepEqual(
    networks.map((network) => network.chainId),
    [MAINNET, YOUNG, SYNCING, FAST_SYNCING, LEGACY],
  );
  assert.equal(networks[1]!.busyThreshold, "37.378956101");
  assert.equal(answer.headers["cache-control"], "no-store");
  assert.equal(answer.headers["etag"], undefined);
});

test("GET /healthz needs no key", async (t) => {
  const { port } = await start(t);
  const answer = await call(port, "/healthz");
  assert.equal(answer.status, 200);
  assert.equal(answer.body, `{"status":"ok"}`);
  assert.equal(answer.headers["content-type"], "application/json; charset=utf-8");
});

test("query strings are ignored and a percent-encoded chain id is decoded", async (t) => {
  const { port } = await start(t);
  const plain = await call(port, "/networks/8453/busyThreshold", { headers: openAuth });
  const withQuery = await call(port, "/networks/8453/busyThreshold?chainId=1&x", { headers: openAuth });
  const encoded = await call(port, "/networks/%38%34%35%33/busyThreshold", { headers: openAuth });
  assert.equal(withQuery.body, plain.body);
  assert.equal(encoded.body, plain.body);
});

// --- authentication --------------------------------------------------------------------------------------

test("Basic: a key without a secret, as base64(key:) and base64(key); a non-empty secret is refused", async (t) => {
  const { port } = await start(t);
  assert.equal((await call(port, "/networks/8453/busyThreshold", { headers: basic(`${OPEN_KEY}:`) })).status, 200);
  assert.equal((await call(port, "/networks/8453/busyThreshold", { headers: basic(OPEN_KEY) })).status, 200);
  assert.equal(
    (await call(port, "/networks/8453/busyThreshold", { headers: { Authorization: `bAsIc ${Buffer.from(OPEN_KEY).toString("base64")}` } })).status,
    200,
  );
  assertError(await call(port, "/networks/8453/busyThreshold", { headers: basic(`${OPEN_KEY}:anything`) }), "INVALID_API_KEY");
});

test("Basic: a key with a secret works only with that secret", async (t) => {
  const { port } = await start(t);
  const ok = await call(port, "/networks/8453/busyThreshold", { headers: basic(`${SECRET_KEY}:${SECRET}`) });
  assert.equal(ok.body, `{"busyThreshold":"37.378956101"}`);
  for (const credentials of [`${SECRET_KEY}:`, SECRET_KEY, `${SECRET_KEY}:wrong`, `${SECRET_KEY}:${SECRET}x`]) {
    assertError(await call(port, "/networks/8453/busyThreshold", { headers: basic(credentials) }), "INVALID_API_KEY");
  }
});

test("the key in the path: works for a key without a secret, SECRET_REQUIRED for a key with one", async (t) => {
  const { port } = await start(t);
  for (const name of ["busyThreshold", "baseFeePercentile", "baseFeeHistory"]) {
    const byPath = await call(port, `/v3/${OPEN_KEY}/networks/1/${name}`);
    const byBasic = await call(port, `/networks/1/${name}`, { headers: openAuth });
    assert.equal(byPath.status, 200);
    assert.equal(byPath.body, byBasic.body);
    assert.equal(byPath.headers["etag"], byBasic.headers["etag"]);
  }
  const networks = await call(port, `/v3/${OPEN_KEY}/networks`);
  assert.equal(networks.status, 200);
  assert.equal((JSON.parse(networks.body) as unknown[]).length, 5);
  assertError(await call(port, `/v3/${SECRET_KEY}/networks/1/busyThreshold`), "SECRET_REQUIRED");
  assertError(await call(port, `/v3/${SECRET_KEY}/networks/1/busyThreshold`, { headers: basic(`${SECRET_KEY}:${SECRET}`) }), "SECRET_REQUIRED");
  assertError(await call(port, `/v3/${"0".repeat(32)}/networks/1/busyThreshold`), "INVALID_API_KEY");
  assertError(await call(port, "/v3/%zz/networks/1/busyThreshold"), "INVALID_API_KEY");
});

test("no credentials: 401 MISSING_API_KEY with the Basic challenge, on every keyed route", async (t) => {
  const { port } = await start(t);
  for (const path of ["/networks", "/networks/1/busyThreshold", "/networks/1/baseFeePercentile", "/networks/1/baseFeeHistory"]) {
    const answer = await call(port, path);
    assertError(answer, "MISSING_API_KEY");
    assert.equal(answer.headers["www-authenticate"], 'Basic realm="gasfees"');
  }
});

test("garbage Authorization headers are a 401, never a throw", async (t) => {
  const { port } = await start(t);
  const invalid = [
    "Basic",
    "Basic !!!",
    "Basic YWJj",
    "Basic ====",
    `Basic ${"QUFB".repeat(2000)}`,
    `Basic ${Buffer.from([0xc3, 0x28]).toString("base64")}`,
    basic(":").Authorization,
  ];
  for (const header of invalid) {
    assertError(await call(port, "/networks/1/busyThreshold", { headers: { Authorization: header } }), "INVALID_API_KEY");
  }
  for (const header of ["Bearer abc", "   ", "x"]) {
    assertError(await call(port, "/networks/1/busyThreshold", { headers: { Authorization: header } }), "MISSING_API_KEY");
  }
});

// --- Host, methods, CORS -----------------------------------------------------------------------------------

test("Host header: loopback names with our port and allowed hosts pass; anything else is 403", async (t) => {
  const { port } = await start(t);
  for (const host of [`localhost:${port}`, `LOCALHOST:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, "gasfees.lan", `gasfees.lan:${port}`]) {
    const answer = await call(port, "/networks/8453/busyThreshold", { host, headers: openAuth });
    assert.equal(answer.status, 200, host);
  }
  for (const host of [`evil.example:${port}`, `localhost:${port + 1}`, "localhost", `localhost.:${port}`, `127.0.0.1.evil.example:${port}`]) {
    const answer = await call(port, "/networks/8453/busyThreshold", { host, headers: openAuth });
    assertError(answer, "FORBIDDEN_HOST");
  }
  assertError(await call(port, "/healthz", { host: `evil.example:${port}` }), "FORBIDDEN_HOST");
  const missing = await call(port, "/healthz", { host: null });
  assertError(missing, "FORBIDDEN_HOST");
  assert.match(JSON.parse(missing.body).message, /Host header is missing/);
});

test("HEAD answers GET's headers without a body", async (t) => {
  const { port } = await start(t);
  const get = await call(port, "/networks/1/baseFeeHistory", { headers: openAuth });
  const head = await call(port, "/networks/1/baseFeeHistory", { method: "HEAD", headers: openAuth });
  assert.equal(head.status, 200);
  assert.equal(head.body, "");
  for (const name of ["content-type", "content-length", "etag", "x-block-number", "x-data-age-ms", "last-modified", "cache-control"]) {
    assert.equal(head.headers[name], get.headers[name], name);
  }
  const error = await call(port, "/networks/6001/baseFeeHistory", { method: "HEAD", headers: openAuth });
  assert.equal(error.status, 400);
  assert.equal(error.body, "");
});

test("methods other than GET, HEAD and OPTIONS: 405 with Allow", async (t) => {
  const { port } = await start(t);
  for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
    const answer = await call(port, "/networks/1/busyThreshold", { method, headers: openAuth, body: "{}" });
    assertError(answer, "METHOD_NOT_ALLOWED");
    assert.equal(answer.headers["allow"], "GET, HEAD, OPTIONS");
  }
  assertError(await call(port, "/nowhere", { method: "POST" }), "METHOD_NOT_ALLOWED");
});

test("OPTIONS: a preflight for a listed origin gets the CORS headers, never *", async (t) => {
  const { port } = await start(t);
  const preflight = await call(port, "/networks/1/busyThreshold", {
    method: "OPTIONS",
    headers: { Origin: ORIGIN, "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "authorization" },
  });
  assert.equal(preflight.status, 204);
  assert.equal(preflight.body, "");
  assert.equal(preflight.headers["allow"], "GET, HEAD, OPTIONS");
  assert.equal(preflight.headers["access-control-allow-origin"], ORIGIN);
  assert.equal(preflight.headers["access-control-allow-methods"], "GET, HEAD, OPTIONS");
  assert.equal(preflight.headers["access-control-allow-headers"], "Authorization, If-None-Match");
  assert.equal(preflight.headers["vary"], "Origin");
});

test("OPTIONS and GET from an origin not listed get no CORS headers", async (t) => {
  const { port } = await start(t);
  for (const origin of ["http://evil.example", "http://localhost:5174", "null"]) {
    const preflight = await call(port, "/networks/1/busyThreshold", { method: "OPTIONS", headers: { Origin: origin } });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers["access-control-allow-origin"], undefined);
    assert.equal(preflight.headers["access-control-allow-methods"], undefined);
    const get = await call(port, "/networks/1/busyThreshold", { headers: { ...openAuth, Origin: origin } });
    assert.equal(get.status, 200);
    assert.equal(get.headers["access-control-allow-origin"], undefined);
    assert.equal(get.headers["vary"], "Origin");
  }
  const noOrigin = await call(port, "/healthz", { method: "OPTIONS" });
  assert.equal(noOrigin.status, 204);
  assert.equal(noOrigin.headers["access-control-allow-origin"], undefined);
});

test("GET from a listed origin, success or error, carries Access-Control-Allow-Origin", async (t) => {
  const { port } = await start(t);
  const ok = await call(port, "/networks/1/busyThreshold", { headers: { ...openAuth, Origin: ORIGIN } });
  assert.equal(ok.headers["access-control-allow-origin"], ORIGIN);
  assert.equal(ok.headers["vary"], "Origin");
  assert.match(ok.headers["access-control-expose-headers"] ?? "", /X-Block-Number/);
  const unauthorised = await call(port, "/networks/1/busyThreshold", { headers: { Origin: ORIGIN } });
  assert.equal(unauthorised.status, 401);
  assert.equal(unauthorised.headers["access-control-allow-origin"], ORIGIN);
});

// --- conditional requests ----------------------------------------------------------------------------------

test("If-None-Match with the current ETag (alone, in a list, weak, or *) answers 304 without a body", async (t) => {
  const { port } = await start(t);
  const first = await call(port, "/networks/1/baseFeePercentile", { headers: openAuth });
  const etag = first.headers["etag"]!;
  for (const header of [etag, `"other", ${etag}`, `W/${etag}`, "*"]) {
    const again = await call(port, "/networks/1/baseFeePercentile", { headers: { ...openAuth, "If-None-Match": header } });
    assert.equal(again.status, 304, header);
    assert.equal(again.body, "");
    assert.equal(again.headers["etag"], etag);
    assert.equal(again.headers["cache-control"], "private, max-age=0, must-revalidate");
  }
  const stale = await call(port, "/networks/1/baseFeePercentile", { headers: { ...openAuth, "If-None-Match": '"stale"' } });
  assert.equal(stale.status, 200);
  assert.equal(stale.body, first.body);
  const otherResource = await call(port, "/networks/1/busyThreshold", { headers: { ...openAuth, "If-None-Match": etag } });
  assert.equal(otherResource.status, 200);
});

test("If-None-Match does not bypass authentication", async (t) => {
  const { port } = await start(t);
  const first = await call(port, "/networks/1/baseFeePercentile", { headers: openAuth });
  assertError(await call(port, "/networks/1/baseFeePercentile", { headers: { "If-None-Match": first.headers["etag"]! } }), "MISSING_API_KEY");
});

// --- chain ids and chain states ------------------------------------------------------------------------------

test("UNSUPPORTED_CHAIN: the hosted service's exact body", async (t) => {
  const { port } = await start(t);
  const answer = await call(port, "/networks/6001/busyThreshold", { headers: openAuth });
  assertError(answer, "UNSUPPORTED_CHAIN");
  assert.equal(answer.body, `{"statusCode":400,"code":"UNSUPPORTED_CHAIN","message":"'6001' is not a supported chain id."}`);
  const largest = await call(port, "/networks/9007199254740991/baseFeeHistory", { headers: openAuth });
  assert.equal(largest.body, `{"statusCode":400,"code":"UNSUPPORTED_CHAIN","message":"'9007199254740991' is not a supported chain id."}`);
});

test("malformed chain ids: 400 INVALID_CHAIN_ID", async (t) => {
  const { port } = await start(t);
  const malformed = [
    "0x1",
    "abc",
    "-1",
    "",
    "01",
    "0",
    "1.0",
    "1e3",
    "%201",
    "9007199254740992",
    "99999999999999999999",
    "1".repeat(500),
    "%E0%A4%A",
    "%",
    "%31%",
    "%D9%A1",
    "%EF%BC%91",
  ];
  for (const chainId of malformed) {
    const answer = await call(port, `/networks/${chainId}/busyThreshold`, { headers: openAuth });
    assertError(answer, "INVALID_CHAIN_ID");
    const byPath = await call(port, `/v3/${OPEN_KEY}/networks/${chainId}/baseFeeHistory`);
    assertError(byPath, "INVALID_CHAIN_ID");
  }
});

test("a chain without data yet: 503 NO_DATA with Retry-After of about its block time", async (t) => {
  const { port } = await start(t);
  const answer = await call(port, `/networks/${SYNCING}/baseFeeHistory`, { headers: openAuth });
  assertError(answer, "NO_DATA");
  assert.equal(answer.headers["retry-after"], "3");
  assert.equal(answer.headers["cache-control"], "no-store");
  const fast = await call(port, `/networks/${FAST_SYNCING}/busyThreshold`, { headers: openAuth });
  assertError(fast, "NO_DATA");
  assert.equal(fast.headers["retry-after"], "1");
});

test("a chain without a base fee: 422 NO_BASE_FEE", async (t) => {
  const { port } = await start(t);
  assertError(await call(port, `/networks/${LEGACY}/busyThreshold`, { headers: openAuth }), "NO_BASE_FEE");
});

test("unknown paths: 404 NOT_FOUND, before authentication", async (t) => {
  const { port } = await start(t);
  for (const path of [
    "/nope",
    "/networks/1",
    "/networks/1/",
    "/networks/1/busythreshold",
    "/v3/networks/1/busyThreshold",
    "/v3/x/networks/1/nope",
    "/healthz/x",
    "/%zz",
    "/networks/1/busyThreshold/extra",
  ]) {
    assertError(await call(port, path), "NOT_FOUND");
  }
});

// --- rate limit ------------------------------------------------------------------------------------------

test("rate limit: 429 with Retry-After once a key's bucket is empty, and recovery once it refills", async (t) => {
  const { port, clock } = await start(t, { rateLimit: { requestsPerSecond: 0.5, burst: 2 } });
  assert.equal((await call(port, "/networks/1/busyThreshold", { headers: openAuth })).status, 200);
  assert.equal((await call(port, `/v3/${OPEN_KEY}/networks/1/busyThreshold`)).status, 200);
  const limited = await call(port, "/networks/1/busyThreshold", { headers: openAuth });
  assertError(limited, "RATE_LIMITED");
  assert.equal(limited.headers["retry-after"], "2");

  // Another key has its own bucket, and /healthz is not limited.
  assert.equal((await call(port, "/networks/1/busyThreshold", { headers: basic(`${SECRET_KEY}:${SECRET}`) })).status, 200);
  assert.equal((await call(port, "/healthz")).status, 200);

  clock.ms += 1000;
  const stillLimited = await call(port, "/networks/1/busyThreshold", { headers: openAuth });
  assertError(stillLimited, "RATE_LIMITED");
  assert.equal(stillLimited.headers["retry-after"], "1");
  clock.ms += 1000;
  assert.equal((await call(port, "/networks/1/busyThreshold", { headers: openAuth })).status, 200);
});

test("failed authentication does not spend a key's tokens", async (t) => {
  const { port } = await start(t, { rateLimit: { requestsPerSecond: 1, burst: 1 } });
  for (let i = 0; i < 5; i++) assertError(await call(port, "/networks/1/busyThreshold", { headers: basic(`${OPEN_KEY}:wrong`) }), "INVALID_API_KEY");
  assert.equal((await call(port, "/networks/1/busyThreshold", { headers: openAuth })).status, 200);
});

test("every row of the error table is reachable through the server", async (t) => {
  const { port } = await start(t, { rateLimit: { requestsPerSecond: 1, burst: 1 } });
  const reached = new Set<string>();
  const record = (answer: Answer) => reached.add((JSON.parse(answer.body) as { code: string }).code);
  record(await call(port, "/networks/6001/busyThreshold", { headers: openAuth }));
  record(await call(port, "/networks/0x1/busyThreshold", { headers: basic(`${SECRET_KEY}:${SECRET}`) }));
  record(await call(port, "/networks/1/busyThreshold"));
  record(await call(port, "/networks/1/busyThreshold", { headers: basic("nobody:") }));
  record(await call(port, `/v3/${SECRET_KEY}/networks/1/busyThreshold`));
  record(await call(port, "/healthz", { host: "evil.example" }));
  record(await call(port, "/nope"));
  record(await call(port, "/healthz", { method: "DELETE" }));
  record(await call(port, "/networks/1/busyThreshold", { headers: openAuth }));
  const { port: port2 } = await start(t);
  record(await call(port2, `/networks/${SYNCING}/busyThreshold`, { headers: openAuth }));
  record(await call(port2, `/networks/${LEGACY}/busyThreshold`, { headers: openAuth }));
  const contractCodes = Object.keys(API_ERRORS).filter((code) => code !== "INTERNAL_ERROR");
  assert.deepEqual([...reached].sort(), contractCodes.sort());
});

// --- robustness --------------------------------------------------------------------------------------------

function rawExchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(bytes));
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("end", () => resolve(Buffer.concat(chunks).toString("latin1")));
    socket.on("error", reject);
    socket.setTimeout(3000, () => {
      socket.destroy();
      reject(new Error("the server did not answer and close"));
    });
  });
}

test("malformed HTTP on a raw socket gets a 400 and the connection closed; the server goes on answering", async (t) => {
  const { port } = await start(t);
  const garbage = [
    "this is not http\r\n\r\n",
    "GET / HTTP/9.9\r\n\r\n",
    "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: abc\r\n\r\n",
    "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header Name: x\r\n\r\n",
    "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n",
    "get /healthz HTTP/1.1\r\n\r\n",
    "\u0000\u0001\u0002\r\n\r\n",
  ];
  for (const bytes of garbage) {
    const answer = await rawExchange(port, bytes);
    assert.match(answer, /^HTTP\/1\.1 400 Bad Request\r\n/, JSON.stringify(bytes));
    assert.equal((await call(port, "/healthz")).status, 200);
  }
});

test("oversized headers get a 431 and the server goes on answering", async (t) => {
  const { port } = await start(t);
  const answer = await rawExchange(port, `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`);
  assert.match(answer, /^HTTP\/1\.1 431 /);
  assert.equal((await call(port, "/healthz")).status, 200);
});

test("a body sent with GET is drained and ignored, and the connection stays usable", async (t) => {
  const { port } = await start(t);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  t.after(() => agent.destroy());
  const first = await call(port, "/networks/8453/busyThreshold", { headers: { ...openAuth, "Content-Type": "text/plain" }, body: "x".repeat(100_000), agent });
  assert.equal(first.body, `{"busyThreshold":"37.378956101"}`);
  const second = await call(port, "/networks/8453/baseFeePercentile", { headers: openAuth, agent });
  assert.equal(second.body, `{"baseFeePercentile":"23.227829059"}`);
});

test("on one keep-alive connection, a key revoked or a header changed is checked again at once", async (t) => {
  const keyring = new ApiKeyring([{ key: OPEN_KEY }, { key: SECRET_KEY, secret: SECRET }]);
  const { port } = await start(t, { keyring });
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  t.after(() => agent.destroy());
  const path = "/networks/8453/busyThreshold";
  assert.equal((await call(port, path, { headers: openAuth, agent })).status, 200);
  const answers = [
    await call(port, path, { headers: openAuth, agent }),
    // The same length as the accepted header, one character apart.
    await call(port, path, { headers: basic(`${OPEN_KEY.slice(0, -1)}e:`), agent }),
    await call(port, path, { headers: basic(`${OPEN_KEY}:a-secret-this-key-does-not-have`), agent }),
    await call(port, path, { headers: basic(`${SECRET_KEY}:${SECRET}`), agent }),
    await call(port, path, { headers: basic(`${SECRET_KEY}:`), agent }),
    await call(port, path, { headers: openAuth, agent }),
  ];
  assert.deepEqual(
    answers.map((answer) => answer.status),
    [200, 401, 401, 200, 401, 200],
  );
  keyring.remove(OPEN_KEY);
  const revoked = await call(port, path, { headers: openAuth, agent });
  assertError(revoked, "INVALID_API_KEY");
  keyring.add(OPEN_KEY);
  assert.equal((await call(port, path, { headers: openAuth, agent })).status, 200);
  keyring.add(OPEN_KEY, "now-with-a-secret");
  assertError(await call(port, path, { headers: openAuth, agent }), "INVALID_API_KEY");
  assert.ok(
    [...answers, revoked].every((answer) => answer.reusedSocket),
    "every request went on the first one's connection",
  );
});

test("an unexpected throw is logged and answered 500, without the key, and the server goes on", async (t) => {
  const inner = new TestFeeSource([]);
  let failing = true;
  const flaky: FeeSource = {
    get: (chainId) => inner.get(chainId),
    list: () => {
      if (failing) throw new Error("boom in list()");
      return inner.list();
    },
    subscribe: (listener) => inner.subscribe(listener),
  };
  const logs: string[] = [];
  const logger: Logger = createLogger("debug", (line) => logs.push(line));
  const server = createApiServer({ source: flaky, keyring: new ApiKeyring([{ key: OPEN_KEY }]), logger, port: 0 });
  const { port } = await server.listen();
  t.after(() => server.close());
  failing = true;
  const answer = await call(port, `/v3/${OPEN_KEY}/networks`);
  assertError(answer, "INTERNAL_ERROR");
  failing = false;
  assert.equal((await call(port, `/v3/${OPEN_KEY}/networks`)).body, "[]");
  const log = logs.join("");
  assert.match(log, /boom in list/);
  assert.match(log, /\/v3\/\*\*\*\/networks/);
  assert.ok(!log.includes(OPEN_KEY), "the key was logged");
});

test("no request of this file's kinds yields a 5xx", async (t) => {
  const { port } = await start(t);
  const paths = [
    "/",
    "/networks",
    "/networks/1/busyThreshold",
    `/v3/${OPEN_KEY}/networks/abc/baseFeeHistory`,
    "/v3/%/networks",
    "/networks/%00/busyThreshold",
    "/networks/1/baseFeeHistory?%zz",
    "//",
    "/../etc/passwd",
    `/${"a/".repeat(2000)}`,
  ];
  const headerSets: Record<string, string>[] = [{}, openAuth, { Authorization: "Basic \u00ff" }, { "If-None-Match": "\u00ff,,,*" }, { Origin: "\u00ff" }];
  for (const path of paths) {
    for (const headers of headerSets) {
      for (const method of ["GET", "HEAD", "OPTIONS", "POST"]) {
        const answer = await call(port, path, { method, headers });
        assert.ok(answer.status < 500, `${method} ${path} ${JSON.stringify(headers)}: ${answer.status}`);
      }
    }
  }
});

// --- lifecycle -------------------------------------------------------------------------------------------

test("listen() reports the real port and URL; address is set once listening", async (t) => {
  const { port, url } = await start(t);
  assert.ok(port > 0);
  assert.equal(url, `http://127.0.0.1:${port}`);
  const server = createApiServer({ source: new TestFeeSource([]), keyring: new ApiKeyring(), logger: createLogger("silent"), port: 0 });
  assert.equal(server.address, undefined);
  const address = await server.listen();
  assert.deepEqual(server.address, address);
  await server.close();
});

test("listen() rejects when the port is taken", async (t) => {
  const { port } = await start(t);
  const second = createApiServer({ source: new TestFeeSource([]), keyring: new ApiKeyring(), logger: createLogger("silent"), port });
  await assert.rejects(second.listen(), /EADDRINUSE/);
});

test("the server only reads the source's publications: it subscribes to nothing while no event stream is open", async (t) => {
  const source = new TestFeeSource([{ chainId: YOUNG }]);
  const server = createApiServer({ source, keyring: new ApiKeyring([{ key: OPEN_KEY }]), logger: createLogger("silent"), port: 0 });
  const { port } = await server.listen();
  t.after(() => server.close());
  assert.equal(source.listenerCount, 0);
  assertError(await call(port, `/networks/${YOUNG}/busyThreshold`, { headers: openAuth }), "NO_DATA");
  source.write(YOUNG, 0n, YOUNG_FEES, CONFIRMED_AT_MS);
  assert.equal((await call(port, `/networks/${YOUNG}/busyThreshold`, { headers: openAuth })).body, `{"busyThreshold":"37.378956101"}`);
  assert.equal(source.listenerCount, 0);
});

test("close() is prompt even with an idle keep-alive connection", async (t) => {
  const { port, close } = await start(t);
  const agent = new Agent({ keepAlive: true });
  t.after(() => agent.destroy());
  assert.equal((await call(port, "/healthz", { agent })).status, 200);
  const startedAt = performance.now();
  await close();
  assert.ok(performance.now() - startedAt < 500, "close() waited for the idle connection");
  await assert.rejects(call(port, "/healthz"), /ECONNREFUSED/);
});

test("GET /dashboard/credentials: the user's key for the dashboard's API panel, to the dashboard's token only", async (t) => {
  const DASHBOARD_TOKEN = "abcdefabcdefabcdefabcdefabcdef01";
  const keyring = new ApiKeyring([{ key: OPEN_KEY }, { key: SECRET_KEY, secret: SECRET }, { key: DASHBOARD_TOKEN }]);
  let shown: { key: string; secret?: string } | undefined = { key: OPEN_KEY };
  const { port } = await start(t, { keyring, dashboard: { token: DASHBOARD_TOKEN, apiKey: () => shown } });
  const answer = await call(port, "/dashboard/credentials", { headers: basic(`${DASHBOARD_TOKEN}:`) });
  assert.equal(answer.status, 200);
  assert.equal(answer.body, JSON.stringify({ apiKey: OPEN_KEY }));
  assert.equal(answer.headers["cache-control"], "no-store");
  assert.equal((await call(port, `/v3/${DASHBOARD_TOKEN}/dashboard/credentials`)).body, JSON.stringify({ apiKey: OPEN_KEY }));
  shown = { key: SECRET_KEY, secret: SECRET };
  assert.equal(
    (await call(port, "/dashboard/credentials", { headers: basic(`${DASHBOARD_TOKEN}:`) })).body,
    JSON.stringify({ apiKey: SECRET_KEY, apiKeySecret: SECRET }),
  );
  shown = undefined;
  assert.equal((await call(port, "/dashboard/credentials", { headers: basic(`${DASHBOARD_TOKEN}:`) })).body, JSON.stringify({ apiKey: null }));
  // A user key, even a valid one, cannot read another key through it.
  assertError(await call(port, "/dashboard/credentials", { headers: openAuth }), "INVALID_API_KEY");
  assertError(await call(port, "/dashboard/credentials"), "MISSING_API_KEY");

  const { port: without } = await start(t, { keyring });
  assertError(await call(without, "/dashboard/credentials", { headers: basic(`${DASHBOARD_TOKEN}:`) }), "INVALID_API_KEY");
});
