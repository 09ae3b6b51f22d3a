// What a hostile RPC endpoint can do to the real service, seen only through its HTTP API. The service runs in a child
// process (startLocalService, the real HTTP server and feeds) and follows three chains, each through a hostile
// server of test/support/hostileRpcServer.ts: A over HTTP, B over a WebSocket, C through a URL holding a provider's
// keys whose endpoint answers every call with an error quoting them. Each attack runs alone, after A and B are
// honest and caught up: the service must not exit, must keep serving the data it held, must mark the endpoint
// failing (saying why in /networks), must follow the chain again once the endpoint is honest, and its resident
// memory after collection must come back within 20 MB of where it was before any attack.
import assert from "node:assert/strict";
import { after, before, test, type TestContext } from "node:test";
import { startHostileRpcServer, type HostileMode, type HostileRpcServer } from "../support/hostileRpcServer.ts";
import { MAX_RPC_ANSWER_BYTES } from "../../shared/rpc/connection/answerLimits.ts";
import { callApi } from "../support/apiClient.ts";
import { waitFor } from "../support/waitFor.ts";
import { startServiceProcess, type ServiceProcess } from "../support/serviceProcess.ts";

const KEY = "0123456789abcdef0123456789abcdef";
const A = 31_337;
const B = 31_338;
const C = 31_339;
const RSS_BOUND_BYTES = 20 * 1024 * 1024;
const CAP = `${MAX_RPC_ANSWER_BYTES / 1024 / 1024} MiB`;
const LONG_MS = 120_000;
// A provider's URL with its keys: in the path, in the query, and a password.
const PATH_KEY = "9aa3d95b3bc440fa88ea12eaa4456161";
const QUERY_KEY = "Q1w2e3r4t5y6u7i8";
const PASSWORD = "s3cr3t-pa55";

interface EndpointState {
  readonly url: string;
  readonly state: string;
  readonly lastError?: string;
}
interface NetworkState {
  readonly chainId: number;
  readonly state: string;
  readonly newestBlock: string | null;
  readonly endpoints: readonly EndpointState[];
}

let http: HostileRpcServer;
let ws: HostileRpcServer;
let keyed: HostileRpcServer;
let service: ServiceProcess;
let baselineRssBytes = 0;

const keyedUrl = (base: string) => base.replace("://", `://alice:${PASSWORD}@`) + `/v3/${PATH_KEY}?apikey=${QUERY_KEY}`;

/** The API's answer; a failure to get one says whether the service process is gone. */
async function call<T>(path: string): Promise<{ status: number; headers: Headers; body: T }> {
  try {
    return await callApi<T>(service.url, path, KEY);
  } catch (error) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    throw new Error(`the service did not answer ${path} (${String(error)}); ${service.exit ? `it exited: ${JSON.stringify(service.exit)}` : "it still runs"}`, {
      cause: error,
    });
  }
}

async function network(chainId: number): Promise<NetworkState> {
  const answer = await call<NetworkState[]>("/networks");
  assert.equal(answer.status, 200);
  const found = answer.body.find((entry) => entry.chainId === chainId);
  assert.ok(found, `chain ${chainId} is in /networks`);
  return found;
}

/** The chain's held history as the API serves it, with the block it ends at. */
async function history(chainId: number): Promise<{ status: number; block: string | null; fees: unknown }> {
  const answer = await call(`/networks/${chainId}/baseFeeHistory`);
  return { status: answer.status, block: answer.headers.get("x-block-number"), fees: answer.body };
}

/** Waits until the chain's only endpoint is ok and the API serves the hostile server's newest block. */
async function caughtUp(chainId: number, server: HostileRpcServer): Promise<void> {
  await waitFor(
    `chain ${chainId} at block ${server.head}`,
    async () => {
      const [state, held] = await Promise.all([network(chainId), history(chainId)]);
      return state.endpoints[0]?.state === "ok" && held.status === 200 && held.block === String(server.head) ? true : undefined;
    },
    { timeoutMs: LONG_MS, everyMs: 100 },
  );
}

before(async () => {
  [http, ws, keyed] = await Promise.all([startHostileRpcServer({ chainId: A }), startHostileRpcServer({ chainId: B }), startHostileRpcServer({ chainId: C })]);
  await keyed.turn("rpc-error", { errorMessage: `invalid request to ${keyedUrl(keyed.httpUrl)}: project ${PATH_KEY}, apikey=${QUERY_KEY}` });
  const plan = (chainId: number, url: string) => ({
    chainId,
    name: `Hostile ${chainId}`,
    rpcUrls: [url],
    blockTimeMs: 1000,
    statsWindowBlocks: 500,
    pollIntervalMs: 200,
    requestTimeoutMs: 2000,
  });
  service = await startServiceProcess([plan(A, http.httpUrl), plan(B, ws.wsUrl), plan(C, keyedUrl(keyed.httpUrl))], [{ key: KEY }]);
  await Promise.all([caughtUp(A, http), caughtUp(B, ws)]);
  // A few polls more, so that the baseline is the service's steady state rather than its start.
  http.mine();
  ws.mine();
  await Promise.all([caughtUp(A, http), caughtUp(B, ws)]);
  baselineRssBytes = await service.rssAfterGc();
});

after(async () => {
  await service?.stop();
  await Promise.all([http?.close(), ws?.close(), keyed?.close()]);
});

/**
 * Turns `server` (chain `chainId`) hostile in `mode` until it has sent at least two hostile answers and the endpoint
 * shows as failing for the reason `expected`; meanwhile the API must serve the data held. Then turns it honest, mines
 * a block, and waits for the service to follow it again, and for its memory to come back.
 */
async function survives(t: TestContext, chainId: number, server: HostileRpcServer, mode: HostileMode, expected: RegExp): Promise<void> {
  await caughtUp(chainId, server);
  const beforeRssBytes = await service.rssAfterGc();
  const held = await history(chainId);
  let hostileAnswers: number;
  await server.turn(mode);
  try {
    // A WebSocket endpoint is asked on each new head: make one come.
    if (mode.startsWith("ws-")) server.mine();
    await waitFor(
      `chain ${chainId} degraded, its endpoint failing for ${expected} after two ${mode} answers`,
      async () => {
        assert.equal(service.exit, null, `the service exited under ${mode}`);
        const state = await network(chainId);
        const endpoint = state.endpoints[0]!;
        return server.hostileAnswers >= 2 && state.state === "degraded" && endpoint.state === "failing" && expected.test(endpoint.lastError ?? "")
          ? true
          : undefined;
      },
      { timeoutMs: LONG_MS, everyMs: 100 },
    );
    const during = await history(chainId);
    assert.equal(during.status, 200, "the data held is still served");
    assert.equal(during.block, held.block);
    assert.deepEqual(during.fees, held.fees);
  } finally {
    hostileAnswers = server.hostileAnswers;
    await server.turn("honest");
  }
  server.mine();
  await caughtUp(chainId, server);
  assert.equal(service.exit, null);
  const rssBytes = await service.rssAfterGc();
  const grownMb = (rssBytes - beforeRssBytes) / 1024 / 1024;
  t.diagnostic(
    `${hostileAnswers} hostile answers; resident memory after collection ${grownMb.toFixed(1)} MB from before the attack, ${((rssBytes - baselineRssBytes) / 1024 / 1024).toFixed(1)} MB from before any`,
  );
  assert.ok(
    rssBytes - beforeRssBytes <= RSS_BOUND_BYTES,
    `after ${mode}, resident memory after collection is ${grownMb.toFixed(1)} MB above where it was (at most ${RSS_BOUND_BYTES / 1024 / 1024})`,
  );
}

test("HTTP: a brotli bomb (1.6 KB decoding to 1 GiB) is refused unread", { timeout: LONG_MS * 3 }, (t) =>
  survives(t, A, http, "http-brotli-bomb", /compressed with "br" although the request asked for none/),
);

test(`HTTP: a gzip bomb (1 MB decoding to 1 GiB) is decoded only up to the ${CAP} cap`, { timeout: LONG_MS * 3 }, (t) =>
  survives(t, A, http, "http-gzip-bomb", /exceeded the size limit/),
);

test(`HTTP: an answer running past the ${CAP} cap is cut there`, { timeout: LONG_MS * 3 }, (t) =>
  survives(t, A, http, "http-oversized", /exceeded the size limit/),
);

test("HTTP: an answer dripping one byte at a time times out", { timeout: LONG_MS * 3 }, (t) => survives(t, A, http, "http-slow-drip", /timed out/));

test(`WebSocket: a message over the ${CAP} cap closes the socket`, { timeout: LONG_MS * 3 }, (t) =>
  survives(t, B, ws, "ws-oversized-frame", /exceeded the size limit/),
);

test("WebSocket: a compressed frame (~100 KB inflating to 90 MB) is refused, not inflated", { timeout: LONG_MS * 3 }, (t) =>
  survives(t, B, ws, "ws-deflate-bomb", /RSV1 must be clear/),
);

test("an endpoint's error quoting its URL, key, query or password shows none of them in /networks", { timeout: LONG_MS }, async () => {
  const endpoint = await waitFor(
    "chain C's endpoint failing with the provider's error",
    async () => {
      const state = await network(C);
      const first = state.endpoints[0]!;
      return first.state === "failing" && first.lastError !== undefined ? first : undefined;
    },
    { timeoutMs: LONG_MS, everyMs: 100 },
  );
  assert.ok(keyed.hostileAnswers >= 1);
  assert.match(endpoint.lastError!, /invalid request to http:\/\/127\.0\.0\.1:\d+\/…:? project \*\*\*, (apikey=)?\*\*\*/);
  const all = JSON.stringify((await call("/networks")).body);
  for (const secret of [PATH_KEY, QUERY_KEY, PASSWORD]) assert.ok(!all.includes(secret), `/networks shows ${secret}: ${all}`);
});
