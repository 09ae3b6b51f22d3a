import assert from "node:assert/strict";
import { defaultReorgDepthBlocks } from "../core/chains/defaultChains.ts";
import { HOUR_SECONDS, hourStartOf } from "../core/outlook/hourlySummary.ts";
import { Agent, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { connect, type Socket } from "node:net";
import { test, type TestContext } from "node:test";
import {
  type ContractErrorRow,
  type ContractRoute,
  PENDING_ERROR_CODES,
  PENDING_ROUTES,
  pendingIssueOf,
  readApiContract,
} from "../../test/support/apiContract.ts";
import { countingListeners, type ScriptedService, scriptedService } from "../../test/support/scriptedFeed.ts";
import { syntheticHours } from "../../test/support/hourlySummaries.ts";
import { ApiKeyring } from "../keys/apiKeyring.ts";
import type { FeeSource } from "../service/feeSource.ts";
import { createLogger, type Logger } from "../log/logger.ts";
import { API_ERRORS, ApiError, type ApiErrorCode } from "./apiErrors.ts";
import { createApiServer, type ApiServerOptions } from "./server.ts";
import type { NetworkStatus } from "../wire/networkStatus.ts";

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
const NEW_DATA_AT_MS = Date.UTC(2026, 0, 1);
/** The young chain's 14 days of hourly summaries start here (a whole hour). */
const YOUNG_PAST_START = NEW_DATA_AT_MS / 1000 - 14 * 86_400;
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

// The young chain's blobs (the mainnet chain here has none: NO_BLOB_FEE): p50 5 wei, p90 1 gwei + 1 wei.
const YOUNG_BLOB_FEES = [1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n, 1_000_000_001n, 2_000_000_000n];

interface Started {
  port: number;
  url: string;
  scripted: ScriptedService;
  clock: { ms: number };
  logs: string[];
  close: () => Promise<void>;
}

async function start(t: TestContext, overrides: Partial<ApiServerOptions> = {}): Promise<Started> {
  const scripted = scriptedService([
    { chainId: MAINNET, name: "Ethereum", statsWindowBlocks: 1000 },
    { chainId: YOUNG, name: "Base", blockTimeMs: 2000 },
    { chainId: SYNCING, blockTimeMs: 2500 },
    { chainId: FAST_SYNCING, blockTimeMs: 250 },
    { chainId: LEGACY, noBaseFee: true },
  ]);
  scripted.write(MAINNET, FIRST_BLOCK, MAINNET_FEES, { newDataAt: NEW_DATA_AT_MS });
  scripted.write(YOUNG, 0n, YOUNG_FEES, { newDataAt: NEW_DATA_AT_MS - 250, blobBaseFeesWei: YOUNG_BLOB_FEES, nextBlobBaseFeeWei: 9n });
  // The young chain has the 14 days of hourly summaries its outlook needs; mainnet has none (NOT_ENOUGH_HISTORY).
  scripted.service.writeHourlySummaries(YOUNG, syntheticHours(YOUNG_PAST_START, 14 * 24));
  const clock = { ms: NEW_DATA_AT_MS + 1500 };
  const logs: string[] = [];
  const server = createApiServer({
    source: scripted.service,
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
  return { port, url, scripted, clock, logs, close: () => server.close() };
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

test("the blob fee endpoints: the base fee's answers for the blob base fee, in both forms; NO_BLOB_FEE on a chain without blobs", async (t) => {
  const { port } = await start(t);
  const sorted = [...YOUNG_BLOB_FEES].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const busy = await call(port, "/networks/8453/blobBusyThreshold", { headers: openAuth });
  assert.equal(busy.status, 200);
  assert.equal(busy.body, `{"blobBusyThreshold":"${gwei(nearestRank(sorted, 90))}"}`);
  assert.equal(busy.body, `{"blobBusyThreshold":"1.000000001"}`);
  assert.equal(busy.headers["x-stats-blocks"], "10");
  assert.equal(busy.headers["x-stats-from-block"], "0");
  assert.equal(busy.headers["x-stats-to-block"], "9");
  assert.equal(busy.headers["x-block-number"], "9");
  assert.ok(busy.headers.etag);
  const median = await call(port, `/v3/${OPEN_KEY}/networks/8453/blobBaseFeePercentile`);
  assert.equal(median.body, `{"blobBaseFeePercentile":"0.000000005"}`);
  assert.equal(median.headers["x-stats-blocks"], "10");
  const history = await call(port, "/networks/8453/blobBaseFeeHistory", { headers: openAuth });
  assert.equal(history.body, JSON.stringify(YOUNG_BLOB_FEES.map(gwei)));
  assert.equal(history.headers["x-stats-blocks"], undefined, "the history is not the window");
  const again = await call(port, "/networks/8453/blobBaseFeeHistory", { headers: { ...openAuth, "If-None-Match": history.headers.etag! } });
  assert.equal(again.status, 304);
  for (const path of ["blobBusyThreshold", "blobBaseFeePercentile", "blobBaseFeeHistory"]) {
    const refused = await call(port, `/networks/${MAINNET}/${path}`, { headers: openAuth });
    assert.equal(refused.status, 422, path);
    assert.equal((JSON.parse(refused.body) as { code: string }).code, "NO_BLOB_FEE");
    assert.equal((await call(port, `/networks/${SYNCING}/${path}`, { headers: openAuth })).status, 503, "no data comes first");
    assert.equal((await call(port, `/networks/${LEGACY}/${path}`, { headers: openAuth })).status, 422, "no base fee: no blob fee either");
  }
  const networks = JSON.parse((await call(port, "/networks", { headers: openAuth })).body) as {
    chainId: number;
    blobBaseFee: string | null;
    blobBusy: boolean | null;
    blobSchedule: { target: number; max: number; source: "eth_config" | "known" } | null;
  }[];
  const young = networks.find((network) => network.chainId === YOUNG)!;
  assert.equal(young.blobBaseFee, "0.000000009", "the next block's, as the endpoint gave it");
  assert.equal(young.blobBusy, false, "9 wei is below the blob busy threshold");
  const mainnet = networks.find((network) => network.chainId === MAINNET)!;
  assert.equal(mainnet.blobBaseFee, null);
  assert.equal(mainnet.blobBusy, null);
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
  const { port, scripted, clock } = await start(t);
  const before = await call(port, "/networks/8453/baseFeeHistory", { headers: openAuth });
  clock.ms += 2000;
  scripted.write(YOUNG, 10n, [3_000_000_000n], { newDataAt: clock.ms });
  const after = await call(port, "/networks/8453/baseFeeHistory", { headers: openAuth });
  assert.equal(after.body, before.body.replace(/]$/, `,"3"]`));
  assert.notEqual(after.headers["etag"], before.headers["etag"]);
  assert.equal(after.headers["x-block-number"], "10");
  assert.equal(after.headers["x-data-age-ms"], "0");
});

test("GET /networks: each chain's state, every field computed here from the blocks written, not cached", async (t) => {
  const { port } = await start(t);
  const answer = await call(port, "/networks", { headers: openAuth });
  assert.equal(answer.status, 200);
  assert.equal(answer.headers["cache-control"], "no-store");
  assert.equal(answer.headers["etag"], undefined);

  // Mainnet: 1200 blocks written, a statistics window of 1000, the history of 500; no next base fee was reported,
  // so the current base fee is the newest block's.
  const mainnetWindow = MAINNET_FEES.slice(-1000);
  const min = (fees: readonly bigint[]) => fees.reduce((a, b) => (b < a ? b : a));
  const max = (fees: readonly bigint[]) => fees.reduce((a, b) => (b > a ? b : a));
  // The window and the history must tell apart, or a status computed over the wrong one would pass.
  assert.notEqual(min(mainnetWindow), min(MAINNET_FEES.slice(-500)));
  assert.notEqual(nearestRank(mainnetWindow, 90), nearestRank(MAINNET_FEES.slice(-500), 90));
  const mainnetCurrent = MAINNET_FEES.at(-1)!;
  const youngCurrent = YOUNG_FEES.at(-1)!;
  // The history holds every block written: the newest dated by its header (read with the fees, in whole seconds, at
  // the time the blocks arrived), the older ones back from it at the chain's block time.
  const heldHistory = (blocks: number, firstBlock: bigint, newDataAtMs: number, blockTimeMs: number, chainId: number) => {
    const newestTime = Math.floor(newDataAtMs / 1000);
    const oldestTime = newestTime - ((blocks - 1) * blockTimeMs) / 1000;
    // The hourly summaries: every hour wholly held (a block before it) and closed (the block the chain's reorg depth
    // below the newest past its end).
    const firstWhole = hourStartOf(oldestTime) + HOUR_SECONDS;
    const closedBefore = hourStartOf(newestTime - (defaultReorgDepthBlocks(chainId) * blockTimeMs) / 1000);
    const hours = Math.max(0, (closedBefore - firstWhole) / HOUR_SECONDS);
    return {
      horizon: "7d",
      blocks,
      oldestBlock: String(firstBlock),
      newestBlock: String(firstBlock + BigInt(blocks - 1)),
      oldestTime: newestTime - ((blocks - 1) * blockTimeMs) / 1000,
      newestTime,
      backfill: { running: false, progress: 0, blocksToGo: null },
      store: { state: "off" as const, problem: null, since: null, unsavedBlocks: 0, droppedBlocks: 0 },
      summaries: { horizon: "52w", hours, oldestStart: hours > 0 ? firstWhole : null },
    };
  };
  const noData = { newestBlock: null, currentBaseFee: null, baseFeePercentile: null, busyThreshold: null, minBaseFee: null, maxBaseFee: null };
  const expected: NetworkStatus[] = [
    {
      chainId: MAINNET,
      name: "Ethereum",
      state: "ok",
      newestBlock: String(FIRST_BLOCK + BigInt(MAINNET_BLOCKS - 1)),
      currentBaseFee: gwei(mainnetCurrent),
      baseFeePercentile: gwei(nearestRank(mainnetWindow, 50)),
      busyThreshold: gwei(nearestRank(mainnetWindow, 90)),
      minBaseFee: gwei(min(mainnetWindow)),
      maxBaseFee: gwei(max(mainnetWindow)),
      busy: mainnetCurrent > nearestRank(mainnetWindow, 90),
      blobBaseFee: null,
      blobBaseFeePercentile: null,
      blobBusyThreshold: null,
      blobBusy: null,
      blobSchedule: null,
      historyBlocks: 500,
      statsWindow: "1000 blocks",
      statsWindowBlocks: 1000,
      statsFromBlock: String(FIRST_BLOCK + BigInt(MAINNET_BLOCKS - 1000)),
      statsToBlock: String(FIRST_BLOCK + BigInt(MAINNET_BLOCKS - 1)),
      history: heldHistory(MAINNET_BLOCKS, FIRST_BLOCK, NEW_DATA_AT_MS, 12_000, MAINNET),
      blockTimeMs: 12_000,
      dataAgeMs: 1500,
      endpoints: [],
      price: null,
      priceProblem: "the price has not been read yet",
    },
    {
      chainId: YOUNG,
      name: "Base",
      state: "ok",
      newestBlock: "9",
      currentBaseFee: "35",
      baseFeePercentile: "23.227829059",
      busyThreshold: "37.378956101",
      minBaseFee: "0.000000001",
      maxBaseFee: "50",
      busy: youngCurrent > 37_378_956_101n,
      blobBaseFee: "0.000000009",
      blobBaseFeePercentile: "0.000000005",
      blobBusyThreshold: "1.000000001",
      blobBusy: 9n > nearestRank(YOUNG_BLOB_FEES, 90),
      // No eth_config read by these tests' source: the schedule known for the chain (mainnet's BPO2 by default).
      blobSchedule: { target: 14, max: 21, source: "known" },
      historyBlocks: 10,
      statsWindow: "500 blocks",
      statsWindowBlocks: 10,
      statsFromBlock: "0",
      statsToBlock: "9",
      // Its summaries are the 14 days written above, not its ten blocks' (none of their hours is whole).
      history: {
        ...heldHistory(YOUNG_FEES.length, 0n, NEW_DATA_AT_MS - 250, 2000, YOUNG),
        summaries: { horizon: "52w", hours: 14 * 24, oldestStart: YOUNG_PAST_START },
      },
      blockTimeMs: 2000,
      dataAgeMs: 1750,
      endpoints: [],
      price: null,
      priceProblem: "the price has not been read yet",
    },
    {
      chainId: SYNCING,
      name: `Chain ${SYNCING}`,
      state: "syncing",
      ...noData,
      busy: null,
      blobBaseFee: null,
      blobBaseFeePercentile: null,
      blobBusyThreshold: null,
      blobBusy: null,
      blobSchedule: null,
      historyBlocks: 0,
      statsWindow: "500 blocks",
      statsWindowBlocks: 0,
      statsFromBlock: null,
      statsToBlock: null,
      history: {
        horizon: "7d",
        blocks: 0,
        oldestBlock: null,
        newestBlock: null,
        oldestTime: null,
        newestTime: null,
        backfill: { running: false, progress: 0, blocksToGo: null },
        store: { state: "off", problem: null, since: null, unsavedBlocks: 0, droppedBlocks: 0 },
        summaries: { horizon: "52w", hours: 0, oldestStart: null },
      },
      blockTimeMs: 2500,
      dataAgeMs: null,
      endpoints: [],
      price: null,
      priceProblem: "the price has not been read yet",
    },
    {
      chainId: FAST_SYNCING,
      name: `Chain ${FAST_SYNCING}`,
      state: "syncing",
      ...noData,
      busy: null,
      blobBaseFee: null,
      blobBaseFeePercentile: null,
      blobBusyThreshold: null,
      blobBusy: null,
      blobSchedule: null,
      historyBlocks: 0,
      statsWindow: "500 blocks",
      statsWindowBlocks: 0,
      statsFromBlock: null,
      statsToBlock: null,
      history: {
        horizon: "7d",
        blocks: 0,
        oldestBlock: null,
        newestBlock: null,
        oldestTime: null,
        newestTime: null,
        backfill: { running: false, progress: 0, blocksToGo: null },
        store: { state: "off", problem: null, since: null, unsavedBlocks: 0, droppedBlocks: 0 },
        summaries: { horizon: "52w", hours: 0, oldestStart: null },
      },
      blockTimeMs: 250,
      dataAgeMs: null,
      endpoints: [],
      price: null,
      priceProblem: "the price has not been read yet",
    },
    {
      chainId: LEGACY,
      name: `Chain ${LEGACY}`,
      state: "no-base-fee",
      ...noData,
      busy: null,
      blobBaseFee: null,
      blobBaseFeePercentile: null,
      blobBusyThreshold: null,
      blobBusy: null,
      blobSchedule: null,
      historyBlocks: 0,
      statsWindow: "500 blocks",
      statsWindowBlocks: 0,
      statsFromBlock: null,
      statsToBlock: null,
      history: {
        horizon: "7d",
        blocks: 0,
        oldestBlock: null,
        newestBlock: null,
        oldestTime: null,
        newestTime: null,
        backfill: { running: false, progress: 0, blocksToGo: null },
        store: { state: "off", problem: null, since: null, unsavedBlocks: 0, droppedBlocks: 0 },
        summaries: { horizon: "52w", hours: 0, oldestStart: null },
      },
      blockTimeMs: 12_000,
      dataAgeMs: null,
      endpoints: [],
      price: null,
      priceProblem: "the price has not been read yet",
    },
  ];
  assert.deepEqual(JSON.parse(answer.body), expected);
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
  assert.match((JSON.parse(missing.body) as { message: string }).message, /Host header is missing/);
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

// --- completeness against the contract (../shared/CONTRACT.md) ----------------------------------------------------

/** The contract, read when a test needs it, so that without it only the tests that compare with it fail (saying where it was looked for). */
const contract = () => readApiContract();

/** A request that gets each of the contract's error rows from the server of `start()`. */
const ERROR_TRIGGERS: Readonly<Record<string, (t: TestContext, port: number) => Promise<Answer>>> = {
  UNSUPPORTED_CHAIN: (_t, port) => call(port, "/networks/6001/busyThreshold", { headers: openAuth }),
  INVALID_CHAIN_ID: (_t, port) => call(port, "/networks/0x1/busyThreshold", { headers: openAuth }),
  MISSING_API_KEY: (_t, port) => call(port, "/networks/1/busyThreshold"),
  INVALID_API_KEY: (_t, port) => call(port, "/networks/1/busyThreshold", { headers: basic("nobody:") }),
  SECRET_REQUIRED: (_t, port) => call(port, `/v3/${SECRET_KEY}/networks/1/busyThreshold`),
  FORBIDDEN_HOST: (_t, port) => call(port, "/healthz", { host: "evil.example" }),
  NOT_FOUND: (_t, port) => call(port, "/nope"),
  METHOD_NOT_ALLOWED: (_t, port) => call(port, "/healthz", { method: "DELETE" }),
  RATE_LIMITED: async (t) => {
    const { port } = await start(t, { rateLimit: { requestsPerSecond: 1, burst: 1 } });
    assert.equal((await call(port, "/networks/1/busyThreshold", { headers: openAuth })).status, 200);
    return call(port, "/networks/1/busyThreshold", { headers: openAuth });
  },
  NO_DATA: (_t, port) => call(port, `/networks/${SYNCING}/busyThreshold`, { headers: openAuth }),
  NO_BASE_FEE: (_t, port) => call(port, `/networks/${LEGACY}/busyThreshold`, { headers: openAuth }),
  INVALID_QUERY: (_t, port) => call(port, `/networks/${MAINNET}/baseFeeStats?buckets=0`, { headers: openAuth }),
  NO_BLOB_FEE: (_t, port) => call(port, `/networks/${MAINNET}/blobBusyThreshold`, { headers: openAuth }),
  NOT_ENOUGH_HISTORY: (_t, port) => call(port, `/networks/${MAINNET}/outlook?within=6h`, { headers: openAuth }),
};

/** What is wrong with the server's answer to a contract row, if anything. */
function contractRowProblem(answer: Answer, row: ContractErrorRow): string | undefined {
  const what = `${row.code} (${row.when})`;
  if (answer.status !== row.statusCode) return `${what}: answered ${answer.status}, the contract says ${row.statusCode}: ${answer.body}`;
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return `${what}: the body is not JSON: ${answer.body}`;
  }
  const { statusCode, code, message } = body as { statusCode?: unknown; code?: unknown; message?: unknown };
  // Every error has these three fields, and a row may add its own (NOT_ENOUGH_HISTORY's held and needed).
  const fields = ["statusCode", "code", "message", ...Object.keys(new ApiError(row.code as ApiErrorCode).extra)];
  if (statusCode !== row.statusCode || code !== row.code || typeof message !== "string" || Object.keys(body as object).join() !== fields.join()) {
    return `${what}: the body is not {statusCode, code, message} of this row: ${answer.body}`;
  }
  if (answer.headers["content-type"] !== "application/json; charset=utf-8") return `${what}: Content-Type ${answer.headers["content-type"]}`;
  for (const [name, value] of Object.entries(row.headers)) {
    const sent = answer.headers[name.toLowerCase()];
    if (typeof sent !== "string" || sent === "") return `${what}: the contract asks for a ${name} header, none was sent`;
    if (value !== undefined && sent !== value) return `${what}: ${name} is ${sent}, the contract says ${value}`;
  }
  return undefined;
}

/** Each of `rows` asked of the server: the problems found (a row without a request here is one). */
async function contractRowProblems(t: TestContext, rows: readonly ContractErrorRow[]): Promise<string[]> {
  const { port } = await start(t);
  const problems: string[] = [];
  for (const row of rows) {
    if (PENDING_ERROR_CODES[row.code] !== undefined) {
      if (row.code in API_ERRORS)
        problems.push(`${row.code} is built now: remove it from PENDING_ERROR_CODES (test/support/apiContract.ts) and add its request here`);
      continue;
    }
    const trigger = ERROR_TRIGGERS[row.code];
    if (trigger === undefined) {
      problems.push(`${row.code} (${row.when}): no request here gets it; build it and add one to ERROR_TRIGGERS, or list it as pending with its issue`);
      continue;
    }
    const problem = contractRowProblem(await trigger(t, port), row);
    if (problem !== undefined) problems.push(problem);
  }
  return problems;
}

test("every row of the contract's error table is answered by the server, with the contract's status and headers", async (t) => {
  assert.deepEqual(await contractRowProblems(t, contract().errors), []);
  // The server's table has nothing the contract does not list, but for the 500 of a bug.
  const contractCodes = new Set(contract().errors.map((row) => row.code));
  assert.deepEqual(
    Object.keys(API_ERRORS).filter((code) => !contractCodes.has(code)),
    ["INTERNAL_ERROR"],
  );
});

test("the contract check can fail: a row not built, a wrong status and a missing header are each reported", async (t) => {
  const noData = contract().errors.find((row) => row.code === "NO_DATA")!;
  const problems = await contractRowProblems(t, [
    { code: "TEAPOT", statusCode: 418, headers: {}, when: "a row no issue built" },
    { ...noData, statusCode: 502 },
    { ...noData, headers: { ...noData.headers, "X-Not-Sent": undefined } },
  ]);
  assert.equal(problems.length, 3, problems.join("\n"));
  assert.match(problems[0]!, /^TEAPOT .*no request here gets it/);
  assert.match(problems[1]!, /^NO_DATA .*answered 503, the contract says 502/);
  assert.match(problems[2]!, /^NO_DATA .*asks for a X-Not-Sent header/);
});

/**
 * Each of `routes` asked of the server (HEAD, so that an event stream ends too): a built route answers 200 with a key
 * where it needs one and 401 without; a pending one is not served yet (404). The problems found.
 */
async function contractRouteProblems(
  t: TestContext,
  routes: readonly ContractRoute[],
  pendingIssue: (path: string) => string | undefined = pendingIssueOf,
): Promise<string[]> {
  const { port } = await start(t);
  const problems: string[] = [];
  const fill = (path: string, key: string) => path.replaceAll("{chainId}", String(YOUNG)).replaceAll("{apiKey}", key);
  for (const route of routes) {
    const keyInPath = route.path.includes("{apiKey}");
    const withKey = await call(port, fill(route.path, OPEN_KEY), { method: "HEAD", headers: keyInPath ? {} : openAuth });
    const pending = pendingIssue(route.path);
    if (pending !== undefined) {
      if (withKey.status !== 404) problems.push(`${route.path} answers ${withKey.status}: it is built now, so remove it from PENDING_ROUTES (${pending})`);
      continue;
    }
    if (withKey.status !== 200) {
      problems.push(`${route.path}: the contract names it, the server answers ${withKey.status} (build it, or list it as pending with its issue)`);
      continue;
    }
    const withoutKey = await call(port, fill(route.path, "f".repeat(32)), { method: "HEAD" });
    const expected = route.auth === "key" ? 401 : 200;
    if (withoutKey.status !== expected) {
      problems.push(
        `${route.path}: without a key it answers ${withoutKey.status}; the contract says ${route.auth === "key" ? "a key is needed" : "no key is needed"}`,
      );
    }
  }
  return problems;
}

test("every endpoint the contract names is served, with the contract's authentication; pending ones are not yet", async (t) => {
  assert.deepEqual(await contractRouteProblems(t, contract().routes), []);
  const pending = contract()
    .routes.filter((route) => pendingIssueOf(route.path) !== undefined)
    .map((route) => route.path);
  // The pending list names only what the contract asks for, so that a renamed endpoint cannot hide there.
  for (const path of Object.keys(PENDING_ROUTES)) assert.ok(pending.includes(path), `${path} is pending but the contract does not name it`);
});

test("the endpoint check can fail: an endpoint not built, a wrong authentication and a pending one served are each reported", async (t) => {
  const problems = await contractRouteProblems(
    t,
    [
      { path: "/networks/{chainId}/gasPrices", auth: "key" },
      { path: "/networks", auth: "none" },
      { path: "/healthz", auth: "none" },
    ],
    (path) => (path === "/healthz" ? "issue 0" : undefined),
  );
  assert.equal(problems.length, 3, problems.join("\n"));
  assert.match(problems[0]!, /^\/networks\/\{chainId\}\/gasPrices: the contract names it, the server answers 404/);
  assert.match(problems[1]!, /^\/networks: without a key it answers 401/);
  assert.match(problems[2]!, /^\/healthz answers 200: it is built now/);
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
  assert.ok(second.reusedSocket, "the connection that carried the body carries the next request");
  // A reply written later (a history scan) and an error answer leave the connection usable as well.
  const body = { headers: { ...openAuth, "Content-Type": "text/plain" }, body: "y".repeat(200_000), agent };
  assert.equal((await call(port, "/networks/8453/baseFeeStats", body)).status, 200);
  assertError(await call(port, "/networks/8453/nowhere", body), "NOT_FOUND");
  const last = await call(port, "/networks/8453/busyThreshold", { headers: openAuth, agent });
  assert.equal(last.body, `{"busyThreshold":"37.378956101"}`);
  assert.ok(last.reusedSocket, "one connection carried every request");
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
  const inner = scriptedService([]).service;
  let failing = true;
  const flaky: FeeSource = {
    get: (chainId) => inner.get(chainId),
    list: () => {
      if (failing) throw new Error("boom in list()");
      return inner.list();
    },
    subscribe: (listener) => inner.subscribe(listener),
    history: (chainId) => inner.history(chainId),
    outlook: (chainId) => inner.outlook(chainId),
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
  const server = createApiServer({ source: scriptedService([]).service, keyring: new ApiKeyring(), logger: createLogger("silent"), port: 0 });
  assert.equal(server.address, undefined);
  const address = await server.listen();
  assert.deepEqual(server.address, address);
  await server.close();
});

test("listen() rejects when the port is taken", async (t) => {
  const { port } = await start(t);
  const second = createApiServer({ source: scriptedService([]).service, keyring: new ApiKeyring(), logger: createLogger("silent"), port });
  await assert.rejects(second.listen(), /EADDRINUSE/);
});

test("the server only reads the source's publications: it subscribes to nothing while no event stream is open", async (t) => {
  const scripted = scriptedService([{ chainId: YOUNG }]);
  // The service as the server reads it, counting the listeners the server holds.
  const source = countingListeners(scripted.service);
  const server = createApiServer({ source, keyring: new ApiKeyring([{ key: OPEN_KEY }]), logger: createLogger("silent"), port: 0 });
  const { port } = await server.listen();
  t.after(() => server.close());
  assert.equal(source.listenerCount, 0);
  assertError(await call(port, `/networks/${YOUNG}/busyThreshold`, { headers: openAuth }), "NO_DATA");
  scripted.write(YOUNG, 0n, YOUNG_FEES, { newDataAt: NEW_DATA_AT_MS });
  assert.equal((await call(port, `/networks/${YOUNG}/busyThreshold`, { headers: openAuth })).body, `{"busyThreshold":"37.378956101"}`);
  assert.equal(source.listenerCount, 0);
});

/** Resolves once `socket` has received `text` (the bytes so far, as latin1); rejects if it closes first. */
function received(socket: Socket, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let bytes = "";
    const onData = (chunk: Buffer) => {
      bytes += chunk.toString("latin1");
      if (!bytes.includes(text)) return;
      socket.off("data", onData);
      socket.off("close", onClose);
      resolve(bytes);
    };
    const onClose = () => reject(new Error(`the connection closed before ${JSON.stringify(text)} arrived; got ${JSON.stringify(bytes)}`));
    socket.on("data", onData);
    socket.once("close", onClose);
  });
}

/** `promise`, or a rejection naming `what` after `timeoutMs`: a wait for an event, never a measure of its latency. */
async function settledWithin<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} (waited ${timeoutMs} ms)`)), timeoutMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

test("close() closes every connection at once, an idle keep-alive one and an open event stream too, rather than waiting", async (t) => {
  const { port, close } = await start(t);
  const openSocket = () =>
    new Promise<Socket>((resolve, reject) => {
      const socket = connect(port, "127.0.0.1", () => resolve(socket));
      socket.on("error", reject);
      t.after(() => socket.destroy());
    });
  // A keep-alive connection left idle after an answered request.
  const idle = await openSocket();
  idle.write(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
  await received(idle, `{"status":"ok"}`);
  // An event stream, which never ends by itself: a close() that waited for its connections would never resolve.
  const stream = await openSocket();
  stream.write(`GET /networks/${YOUNG}/events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: ${openAuth.Authorization}\r\n\r\n`);
  await received(stream, "event: network");
  const bothClosed = Promise.all([idle, stream].map((socket) => new Promise((resolve) => socket.once("close", resolve))));

  await settledWithin(close(), 20_000, "close() did not resolve: it waits for the open connections instead of closing them");
  await settledWithin(bothClosed, 20_000, "a connection stayed open after close()");
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
  // A user key, even a valid one, cannot read another key through it: it is told it is a user key (a 200, so that a
  // dashboard opened with a key as its ?token= makes no failing request), and given no key.
  const asKey = await call(port, "/dashboard/credentials", { headers: openAuth });
  assert.equal(asKey.status, 200);
  assert.equal(asKey.body, JSON.stringify({ apiKey: null, askedWithApiKey: true }));
  assertError(await call(port, "/dashboard/credentials"), "MISSING_API_KEY");

  const { port: without } = await start(t, { keyring });
  assert.equal(
    (await call(without, "/dashboard/credentials", { headers: basic(`${DASHBOARD_TOKEN}:`) })).body,
    JSON.stringify({ apiKey: null, askedWithApiKey: true }),
  );
});
