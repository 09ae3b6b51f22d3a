// GET /metrics scraped from a real server as Prometheus scrapes it (Basic credentials), on the real FeeService fed by a
// scripted feed: each chain's series compared with values computed here from the blocks written (and with what the
// API answers at the same moment). test/integration/prometheus.test.ts runs a real Prometheus against it.
import assert from "node:assert/strict";
import { test, type TestContext } from "node:test";
import { expectedGwei, expectedPercentile } from "../../test/support/independentFees.ts";
import { type ScriptedService, scriptedService } from "../../test/support/scriptedFeed.ts";
import { ApiKeyring } from "../keys/apiKeyring.ts";
import { silentLogger } from "../log/logger.ts";
import type { FeeSource } from "../service/feeSource.ts";
import type { EndpointStatus, NetworkStatus } from "../wire/networkStatus.ts";
import { openApiDocument } from "./openApi.ts";
import { ROUTES } from "./routes.ts";
import { createApiServer } from "./server.ts";

const KEY = "0123456789abcdef0123456789abcdef";
const OTHER_KEY = "fedcba9876543210fedcba9876543210";
const NEW_DATA_AT_MS = Date.UTC(2026, 0, 1);
const FIRST_BLOCK = 20_000_000n;
const basic = (key: string) => ({ authorization: `Basic ${Buffer.from(`${key}:`).toString("base64")}` });

/** Varied base fees with 9 decimals of Gwei, so that a value rounded or read from the wrong block shows. */
const feesWei = (count: number, seed: bigint) =>
  Array.from({ length: count }, (_, i) => 10_000_000_000n + ((BigInt(i) * 7_919_000_013n + seed) % 40_000_000_000n));

interface Started {
  readonly url: string;
  readonly scripted: ScriptedService;
  readonly clock: { ms: number };
}

const MAINNET_FEES = feesWei(600, 3n);
const MAINNET_NEXT_BASE_FEE = 31_000_000_007n;

/** Ethereum with 600 blocks and a next base fee of its own, Base still syncing, BNB without a base fee. */
async function start(t: TestContext): Promise<Started> {
  const scripted = scriptedService([
    { chainId: 1, name: "Ethereum", statsWindowBlocks: 500 },
    { chainId: 8453, name: "Base", blockTimeMs: 2000 },
    { chainId: 56, name: "BNB Smart Chain", noBaseFee: true },
  ]);
  scripted.write(1, FIRST_BLOCK, MAINNET_FEES, { newDataAt: NEW_DATA_AT_MS, nextBaseFeeWei: MAINNET_NEXT_BASE_FEE });
  const clock = { ms: NEW_DATA_AT_MS + 2_500 };
  const url = await listen(t, scripted.service, () => clock.ms);
  return { url, scripted, clock };
}

async function listen(t: TestContext, source: FeeSource, now: () => number = Date.now): Promise<string> {
  const server = createApiServer({ source, keyring: new ApiKeyring([{ key: KEY }, { key: OTHER_KEY }]), logger: silentLogger, port: 0, now });
  const { url } = await server.listen();
  t.after(() => server.close());
  return url;
}

interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** Prometheus' text format (0.0.4), read independently of the code under test: one sample per line that is not a comment. */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    assert.ok(match, `not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name = "", escaped = ""] of (match[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[name] = escaped.replace(/\\(.)/g, (_, char: string) => (char === "n" ? "\n" : char));
    }
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

async function scrape(url: string, path = "/metrics", headers: Record<string, string> = basic(KEY)): Promise<{ text: string; samples: Sample[] }> {
  const response = await fetch(`${url}${path}`, { headers });
  const text = await response.text();
  assert.equal(response.status, 200, text);
  assert.equal(response.headers.get("content-type"), "text/plain; version=0.0.4; charset=utf-8");
  assert.equal(response.headers.get("cache-control"), "no-store");
  return { text, samples: parseExposition(text) };
}

/** The one sample of `name` whose labels include `labels`; undefined when there is none. */
function valueOf(samples: readonly Sample[], name: string, labels: Readonly<Record<string, string>> = {}): number | undefined {
  const found = samples.filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value));
  assert.ok(found.length <= 1, `${name} ${JSON.stringify(labels)}: ${found.length} samples`);
  return found[0]?.value;
}

async function api<T>(url: string, path: string): Promise<{ body: T; headers: Headers }> {
  const response = await fetch(`${url}${path}`, { headers: basic(KEY) });
  assert.equal(response.status, 200, path);
  return { body: (await response.json()) as T, headers: response.headers };
}

/** What the API answers for chain 1 now: the values each series must carry. */
async function apiAnswersOfMainnet(url: string) {
  const history = await api<string[]>(url, "/networks/1/baseFeeHistory");
  const threshold = await api<{ busyThreshold: string }>(url, "/networks/1/busyThreshold");
  const percentile = await api<{ baseFeePercentile: string }>(url, "/networks/1/baseFeePercentile");
  const networks = await api<NetworkStatus[]>(url, "/networks");
  const status = networks.body.find((network) => network.chainId === 1)!;
  return {
    newestBlock: Number(history.headers.get("x-block-number")),
    baseFee: Number(history.body[history.body.length - 1]),
    busyThreshold: Number(threshold.body.busyThreshold),
    baseFeePercentile: Number(percentile.body.baseFeePercentile),
    nextBaseFee: Number(status.currentBaseFee),
    busy: status.busy ? 1 : 0,
    dataAgeSeconds: Number(history.headers.get("x-data-age-ms")) / 1000,
    statsWindowBlocks: status.statsWindowBlocks,
  };
}

/**
 * Chain 1's series as computed here from what was written: blocks `FIRST_BLOCK` on with `feesWei` (Ethereum's 12 s
 * blocks, a statistics window of 500), the next base fee reported with the newest, the newest block's header and the
 * newest new data at `newDataAtMs`, scraped at `nowMs`. Nearest rank: sorted[ceil(q/100 * N) - 1]; Gwei from wei.
 */
function expectedMainnetSeries(feesWei: readonly bigint[], nextBaseFeeWei: bigint, newDataAtMs: number, nowMs: number) {
  const window = feesWei.slice(-500);
  const busyThresholdWei = expectedPercentile(window, 90);
  const newestTime = Math.floor(newDataAtMs / 1000);
  const gwei = (wei: bigint) => Number(expectedGwei(wei));
  return {
    newestBlock: Number(FIRST_BLOCK) + feesWei.length - 1,
    baseFee: gwei(feesWei.at(-1)!),
    busyThreshold: gwei(busyThresholdWei),
    baseFeePercentile: gwei(expectedPercentile(window, 50)),
    nextBaseFee: gwei(nextBaseFeeWei),
    busy: nextBaseFeeWei > busyThresholdWei ? 1 : 0,
    dataAgeSeconds: (nowMs - newDataAtMs) / 1000,
    statsWindowBlocks: window.length,
    historyBlocks: feesWei.length,
    historyNewest: newestTime,
    historyOldest: newestTime - (feesWei.length - 1) * 12,
  };
}

/** Chain 1's series in a scrape equal `expected`; the API answers the same at the same moment. */
async function assertMainnetSeries(url: string, expected: ReturnType<typeof expectedMainnetSeries>): Promise<void> {
  const { samples } = await scrape(url);
  const chain = { chain_id: "1", chain: "Ethereum" };
  assert.deepEqual(
    {
      newestBlock: valueOf(samples, "gasfees_newest_block", chain),
      baseFee: valueOf(samples, "gasfees_base_fee_gwei", chain),
      busyThreshold: valueOf(samples, "gasfees_busy_threshold_gwei", chain),
      baseFeePercentile: valueOf(samples, "gasfees_base_fee_percentile_gwei", chain),
      nextBaseFee: valueOf(samples, "gasfees_next_base_fee_gwei", chain),
      busy: valueOf(samples, "gasfees_busy", chain),
      dataAgeSeconds: valueOf(samples, "gasfees_data_age_seconds", chain),
      statsWindowBlocks: valueOf(samples, "gasfees_stats_window_blocks", chain),
      historyBlocks: valueOf(samples, "gasfees_history_blocks", chain),
      historyNewest: valueOf(samples, "gasfees_history_newest_timestamp_seconds", chain),
      historyOldest: valueOf(samples, "gasfees_history_oldest_timestamp_seconds", chain),
    },
    expected,
  );
  const { historyBlocks: _blocks, historyNewest: _newest, historyOldest: _oldest, ...answered } = expected;
  assert.deepEqual(await apiAnswersOfMainnet(url), answered, "the API answers what the metrics say");
}

test("/metrics needs a key, by Basic (as Prometheus sends it) or in the path; without one it is a 401 with the Basic challenge", async (t) => {
  const { url } = await start(t);
  const refused = await fetch(`${url}/metrics`);
  assert.equal(refused.status, 401);
  assert.equal(refused.headers.get("www-authenticate"), 'Basic realm="gasfees"');
  assert.equal((await fetch(`${url}/metrics`, { headers: basic("f".repeat(32)) })).status, 401);
  await scrape(url);
  await scrape(url, `/v3/${KEY}/metrics`, {});
  const head = await fetch(`${url}/metrics`, { method: "HEAD", headers: basic(KEY) });
  assert.equal(head.status, 200);
  assert.equal(await head.text(), "");
});

test("the OpenAPI description has /metrics as text behind Basic, and its key-in-path form", () => {
  const paths = openApiDocument(ROUTES)["paths"] as Record<string, { get: { security: unknown; responses: Record<string, { content?: unknown }> } }>;
  for (const [path, security] of [
    ["/metrics", [{ basicAuth: [] }]],
    ["/v3/{apiKey}/metrics", []],
  ] as const) {
    const operation = paths[path]!.get;
    assert.deepEqual(operation.security, security, path);
    assert.deepEqual(operation.responses["200"]!.content, { "text/plain": { schema: { type: "string" } } }, path);
    assert.ok(operation.responses["401"], path);
  }
});

test("each chain's series carry the values of the blocks written: newest block, base fee, next base fee, percentile, busy threshold, busy, data age, history", async (t) => {
  const { url, scripted, clock } = await start(t);
  await assertMainnetSeries(url, expectedMainnetSeries(MAINNET_FEES, MAINNET_NEXT_BASE_FEE, NEW_DATA_AT_MS, clock.ms));

  // A new block, a later clock and a next base fee above the busy threshold: the next scrape says so.
  scripted.write(1, FIRST_BLOCK + 600n, [59_999_999_999n], { newDataAt: NEW_DATA_AT_MS + 12_000, nextBaseFeeWei: 66_000_000_001n });
  clock.ms = NEW_DATA_AT_MS + 12_000 + 750;
  const expected = expectedMainnetSeries([...MAINNET_FEES, 59_999_999_999n], 66_000_000_001n, NEW_DATA_AT_MS + 12_000, clock.ms);
  assert.deepEqual([expected.baseFee, expected.busy, expected.dataAgeSeconds], [59.999999999, 1, 0.75]);
  await assertMainnetSeries(url, expected);
});

test("a chain without data has its state and no fee series; every chain has exactly one state at 1", async (t) => {
  const { url } = await start(t);
  const { samples } = await scrape(url);
  for (const [chainId, state] of [
    ["1", "ok"],
    ["8453", "syncing"],
    ["56", "no-base-fee"],
  ] as const) {
    const states = samples.filter((sample) => sample.name === "gasfees_chain_state" && sample.labels["chain_id"] === chainId);
    assert.deepEqual(
      states.filter((sample) => sample.value === 1).map((sample) => sample.labels["state"]),
      [state],
      chainId,
    );
    assert.equal(states.length, 5, `${chainId}: one series per state`);
  }
  for (const name of ["gasfees_base_fee_gwei", "gasfees_busy_threshold_gwei", "gasfees_busy", "gasfees_newest_block", "gasfees_data_age_seconds"]) {
    assert.equal(valueOf(samples, name, { chain_id: "8453" }), undefined, `${name} of a syncing chain`);
    assert.equal(valueOf(samples, name, { chain_id: "56" }), undefined, `${name} of a chain without base fee`);
  }
  assert.equal(valueOf(samples, "gasfees_history_blocks", { chain_id: "8453", chain: "Base" }), 0);
});

test("the blob series: the newest and next blob base fee, its percentile, busy threshold and busy, from the blocks written; none without blob fees", async (t) => {
  const { url, scripted } = await start(t);
  const blobFees = Array.from({ length: 600 }, (_, i) => 1n + ((BigInt(i) * 104_729n) % 5_000_000_000n));
  // Base's feed brings blob base fees: 600 blocks, a statistics window of its newest 500 (the scripted service's default).
  scripted.write(8453, 1_000n, feesWei(600, 5n), { blobBaseFeesWei: blobFees, nextBlobBaseFeeWei: 4_999_999_999n });
  const window = blobFees.slice(-500);
  assert.equal(valueOf((await scrape(url)).samples, "gasfees_stats_window_blocks", { chain_id: "8453" }), window.length);
  const { samples } = await scrape(url);
  const base = { chain_id: "8453", chain: "Base" };
  const gwei = (wei: bigint) => Number(expectedGwei(wei));
  const threshold = expectedPercentile(window, 90);
  assert.deepEqual(
    {
      blobBaseFee: valueOf(samples, "gasfees_blob_base_fee_gwei", base),
      nextBlobBaseFee: valueOf(samples, "gasfees_next_blob_base_fee_gwei", base),
      percentile: valueOf(samples, "gasfees_blob_base_fee_percentile_gwei", base),
      busyThreshold: valueOf(samples, "gasfees_blob_busy_threshold_gwei", base),
      busy: valueOf(samples, "gasfees_blob_busy", base),
    },
    {
      blobBaseFee: gwei(blobFees.at(-1)!),
      nextBlobBaseFee: 4.999999999,
      percentile: gwei(expectedPercentile(window, 50)),
      busyThreshold: gwei(threshold),
      busy: 4_999_999_999n > threshold ? 1 : 0,
    },
  );
  assert.equal(valueOf(samples, "gasfees_blob_busy", base), 1, "the next blob base fee is above p90 here");
  for (const name of ["gasfees_blob_base_fee_gwei", "gasfees_next_blob_base_fee_gwei", "gasfees_blob_busy_threshold_gwei", "gasfees_blob_busy"]) {
    assert.equal(valueOf(samples, name, { chain_id: "1" }), undefined, `${name} of a chain without blob fees`);
  }
});

test("the server's answers are counted by route pattern and status, and a key in the path never shows", async (t) => {
  const { url } = await start(t);
  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${url}${path}`, { headers }).then((response) => response.text());
  await get("/networks/1/busyThreshold", basic(KEY));
  await get("/networks/1/busyThreshold", basic(KEY));
  const etag = (await fetch(`${url}/networks/1/busyThreshold`, { headers: basic(KEY) })).headers.get("etag")!;
  await get("/networks/1/busyThreshold", { ...basic(KEY), "if-none-match": etag });
  await get(`/v3/${OTHER_KEY}/networks/1/baseFeeHistory`);
  await get("/networks/1/busyThreshold");
  await get("/networks/8453/busyThreshold", basic(KEY));
  await get("/nope");
  await get("/healthz");
  await get("/v1/supportedNetworks");
  await scrape(url);
  const { text, samples } = await scrape(url);
  const counted = samples
    .filter((sample) => sample.name === "gasfees_http_requests_total")
    .map((sample) => `${sample.labels["route"]} ${sample.labels["status"]} ${sample.value}`)
    .sort();
  assert.deepEqual(counted, [
    "/healthz 200 1",
    "/metrics 200 1",
    "/networks/{chainId}/busyThreshold 200 3",
    "/networks/{chainId}/busyThreshold 304 1",
    "/networks/{chainId}/busyThreshold 401 1",
    "/networks/{chainId}/busyThreshold 503 1",
    "/v1/supportedNetworks 200 1",
    "/v3/{apiKey}/networks/{chainId}/baseFeeHistory 200 1",
    "none 404 1",
  ]);
  assert.ok(!text.includes(KEY) && !text.includes(OTHER_KEY), "no key in the metrics");
});

test("each server has its own registry: two servers in one process count only their own answers", async (t) => {
  const { url: first } = await start(t);
  const { url: second } = await start(t);
  for (let i = 0; i < 3; i++) await fetch(`${first}/healthz`).then((response) => response.text());
  await fetch(`${second}/healthz`).then((response) => response.text());
  assert.equal(valueOf((await scrape(first)).samples, "gasfees_http_requests_total", { route: "/healthz" }), 3);
  assert.equal(valueOf((await scrape(second)).samples, "gasfees_http_requests_total", { route: "/healthz" }), 1);
});

test("a standby endpoint never tried is not down: no endpoint_up sample for it, and endpoint_state says unknown", async (t) => {
  const endpoints: EndpointStatus[] = [
    { url: "https://rpc.example/", transport: "http", state: "ok", active: true },
    { url: "https://standby.example/", transport: "http", state: "unknown", active: false },
  ];
  const scripted = scriptedService([{ chainId: 1, name: "Ethereum" }]);
  scripted.setPhase(1, "ok", { endpoints });
  const url = await listen(t, scripted.service);
  const { samples } = await scrape(url);
  const ofEndpoint = (name: string, endpoint: string) => samples.filter((sample) => sample.name === name && sample.labels["endpoint"] === endpoint);
  assert.deepEqual(
    ofEndpoint("gasfees_rpc_endpoint_up", "https://standby.example/").map((sample) => sample.value),
    [],
    "unknown is not down",
  );
  assert.deepEqual(
    ofEndpoint("gasfees_rpc_endpoint_up", "https://rpc.example/").map((sample) => sample.value),
    [1],
  );
  assert.deepEqual(
    ofEndpoint("gasfees_rpc_endpoint_state", "https://standby.example/")
      .filter((sample) => sample.value === 1)
      .map((sample) => sample.labels["state"]),
    ["unknown"],
  );
});

test("each RPC endpoint's state, by its redacted URL: up, active, and one state at 1", async (t) => {
  const endpoints: EndpointStatus[] = [
    { url: "https://rpc.example/v3/…", transport: "http", state: "failing", active: false, lastError: "HTTP 429", retryAt: NEW_DATA_AT_MS + 4_000 },
    { url: "wss://ws.example/", transport: "ws", state: "ok", active: true },
    { url: "https://other-chain.example/", transport: "http", state: "wrong-chain", active: false, reportedChainId: 10 },
  ];
  const scripted = scriptedService([{ chainId: 1, name: "Ethereum" }]);
  scripted.setPhase(1, "syncing", { endpoints });
  const url = await listen(t, scripted.service);
  const { text, samples } = await scrape(url);
  const byEndpoint = (name: string): Record<string, number> =>
    Object.fromEntries(
      samples
        .filter((sample) => sample.name === name && sample.labels["chain_id"] === "1")
        .map((sample): [string, number] => [sample.labels["endpoint"] ?? "", sample.value]),
    );
  assert.deepEqual(byEndpoint("gasfees_rpc_endpoint_up"), { "https://rpc.example/v3/…": 0, "wss://ws.example/": 1, "https://other-chain.example/": 0 });
  assert.deepEqual(byEndpoint("gasfees_rpc_endpoint_active"), { "https://rpc.example/v3/…": 0, "wss://ws.example/": 1, "https://other-chain.example/": 0 });
  const states = samples.filter((sample) => sample.name === "gasfees_rpc_endpoint_state" && sample.value === 1);
  assert.deepEqual(
    states.map((sample) => `${sample.labels["endpoint"]} ${sample.labels["transport"]} ${sample.labels["state"]}`),
    ["https://rpc.example/v3/… http failing", "wss://ws.example/ ws ok", "https://other-chain.example/ http wrong-chain"],
  );
  assert.ok(!text.includes("HTTP 429"), "errors stay in /networks, not in label values");
});
