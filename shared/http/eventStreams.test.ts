import assert from "node:assert/strict";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { test, type TestContext } from "node:test";
import { countingListeners, type ScriptedService, scriptedService } from "../../test/support/scriptedFeed.ts";
import { waitFor } from "../../test/support/waitFor.ts";
import { ApiKeyring } from "../keys/apiKeyring.ts";
import { silentLogger } from "../log/logger.ts";
import { networkStatusAt } from "../service/chainPublication.ts";
import type { FeeSource } from "../service/feeSource.ts";
import type { NetworkEvent } from "../wire/networkEvent.ts";
import type { FeeSnapshot } from "../core/fees/feeSnapshot.ts";
import { blocksChanged, type EventStreamLimits } from "./eventStreams.ts";
import { type ApiServer, createApiServer } from "./server.ts";

const KEY = "0123456789abcdef0123456789abcdef";
const OTHER_KEY = "fedcba9876543210fedcba9876543210";
const MAINNET = 1;
const SYNCING = 8453;
const AT_MS = Date.UTC(2026, 0, 1);
const FIRST = 1_000n;
/** 600 blocks from FIRST: block FIRST + i has base fee (i + 1) Gwei + i wei, so every fee is distinct and exact. */
const FEES = Array.from({ length: 600 }, (_, i) => BigInt(i + 1) * 1_000_000_000n + BigInt(i));
const gwei = (wei: bigint) => {
  const digits = wei.toString().padStart(10, "0");
  const fraction = digits.slice(-9).replace(/0+$/, "");
  return `${digits.slice(0, -9).replace(/^0+(?=\d)/, "")}${fraction ? `.${fraction}` : ""}`;
};

/** The server's clock: a second after the newest new data, so that every status carries dataAgeMs 1000. */
const NOW_MS = AT_MS + 1000;

interface Opened {
  scripted: ScriptedService;
  /** The service as the server reads it, counting the listeners the server holds. */
  source: FeeSource & { readonly listenerCount: number };
  keyring: ApiKeyring;
  streams: { readonly size: number };
  url: string;
  close: () => Promise<void>;
}

async function start(t: TestContext, limits?: Partial<EventStreamLimits>): Promise<Opened> {
  const scripted = scriptedService([
    { chainId: MAINNET, name: "Ethereum" },
    { chainId: SYNCING, name: "Base", blockTimeMs: 2000 },
  ]);
  scripted.write(MAINNET, FIRST, FEES, { newDataAt: AT_MS });
  const source = countingListeners(scripted.service);
  const keyring = new ApiKeyring([{ key: KEY }, { key: OTHER_KEY }]);
  const server: ApiServer = createApiServer({
    source,
    keyring,
    logger: silentLogger,
    port: 0,
    rateLimit: { requestsPerSecond: 0, burst: 1 },
    now: () => NOW_MS,
    ...(limits ? { eventStreamLimits: limits } : {}),
  });
  const { url } = await server.listen();
  t.after(() => server.close());
  const streams = {
    get size() {
      return server.eventStreamCount;
    },
  };
  return { scripted, source, keyring, streams, url, close: () => server.close() };
}

interface EventClient {
  response: IncomingMessage;
  /** Resolves with the next `network` event not yet taken. */
  next(): Promise<NetworkEvent>;
  readonly raw: string;
  readonly ended: Promise<void>;
  close(): void;
}

function openEvents(url: string, path: string, key: string | null = KEY, method = "GET"): Promise<EventClient> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {};
    if (key !== null) headers.authorization = `Basic ${Buffer.from(`${key}:`).toString("base64")}`;
    const req = httpRequest(`${url}${path}`, { method, headers, agent: false }, (response) => {
      let raw = "";
      let parsed = 0;
      const events: NetworkEvent[] = [];
      const waiting: Array<(event: NetworkEvent) => void> = [];
      const ended = new Promise<void>((done) => response.once("close", () => done()));
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        raw += chunk;
        const blocks = raw.split("\n\n");
        for (const block of blocks.slice(parsed, -1)) {
          parsed++;
          const lines = block.split("\n");
          if (!lines.includes("event: network")) continue;
          const data = lines.find((line) => line.startsWith("data: "))!.slice("data: ".length);
          const event = JSON.parse(data) as NetworkEvent;
          const waiter = waiting.shift();
          if (waiter) waiter(event);
          else events.push(event);
        }
      });
      response.on("error", () => {});
      resolve({
        response,
        next: () => {
          const ready = events.shift();
          if (ready) return Promise.resolve(ready);
          return new Promise((took, failed) => {
            const timer = setTimeout(() => failed(new Error(`no event within 5 s; got so far: ${raw}`)), 5000);
            waiting.push((event) => (clearTimeout(timer), took(event)));
          });
        },
        get raw() {
          return raw;
        },
        ended,
        close: () => req.destroy(),
      });
    });
    req.on("error", reject);
    req.end();
  });
}

async function bodyOf(client: EventClient): Promise<Record<string, unknown>> {
  await client.ended;
  return JSON.parse(client.raw) as Record<string, unknown>;
}

test("the first event carries the full state: the status of /networks and the 500 newest base fees, oldest first", async (t) => {
  const { url, source } = await start(t);
  const stream = await openEvents(url, `/networks/${MAINNET}/events`);
  t.after(() => stream.close());
  assert.equal(stream.response.statusCode, 200);
  assert.equal(stream.response.headers["content-type"], "text/event-stream; charset=utf-8");
  assert.equal(stream.response.headers["cache-control"], "no-store");
  const first = await stream.next();
  assert.deepEqual(first.status, networkStatusAt(source.get(MAINNET)!, NOW_MS));
  assert.equal(first.status.dataAgeMs, 1000);
  assert.equal(first.status.newestBlock, "1599");
  assert.deepEqual(first.blocks, { kind: "all", firstBlock: "1100", baseFees: FEES.slice(100).map(gwei) });
  assert.equal(first.blocks.baseFees[0], "101.0000001");
  assert.match(stream.raw, /^retry: 1000\n\n/);
});

test("each change is one event: new blocks, a reorganisation from its first re-mined block, a status-only change", async (t) => {
  const { url, scripted } = await start(t);
  const stream = await openEvents(url, `/networks/${MAINNET}/events`);
  t.after(() => stream.close());
  await stream.next();

  scripted.write(MAINNET, 1600n, [7_000_000_001n], { newDataAt: AT_MS + 12_000 });
  const added = await stream.next();
  assert.deepEqual(added.blocks, { kind: "from", firstBlock: "1600", baseFees: ["7.000000001"] });
  assert.equal(added.status.newestBlock, "1600");
  assert.equal(added.status.currentBaseFee, "7.000000001");

  scripted.write(MAINNET, 1599n, [5n, 6n, 7n], { newDataAt: AT_MS + 24_000 });
  const reorganised = await stream.next();
  assert.deepEqual(reorganised.blocks, { kind: "from", firstBlock: "1599", baseFees: ["0.000000005", "0.000000006", "0.000000007"] });
  assert.equal(reorganised.status.newestBlock, "1601");

  // The same blocks with a new next-block base fee: nothing to redraw, only the status (current base fee, busy).
  scripted.write(MAINNET, 1601n, [7n], { newDataAt: AT_MS + 25_000, nextBaseFeeWei: 900_000_000_000n });
  const statusOnly = await stream.next();
  assert.equal(statusOnly.blocks, null);
  assert.equal(statusOnly.status.currentBaseFee, "900");
  assert.equal(statusOnly.status.busy, true);

  // Only the history moved (a backfill's page of older blocks, then its progress): the status tells, with no blocks
  // to redraw. Blocks 1000 to 1601 were held; the page adds 900 to 999.
  scripted.backfillPage(MAINNET, { firstBlock: 900n, baseFeesWei: FEES.slice(0, 100) });
  const paged = await stream.next();
  assert.equal(paged.blocks, null);
  assert.deepEqual([paged.status.history.blocks, paged.status.history.oldestBlock, paged.status.history.newestBlock], [702, "900", "1601"]);
  const backfill = { running: true, progress: 0.25, blocksToGo: 27_000 };
  scripted.backfillProgress(MAINNET, backfill);
  const historyOnly = await stream.next();
  assert.equal(historyOnly.blocks, null);
  assert.deepEqual(historyOnly.status.history, { ...paged.status.history, backfill });

  // The next block keeps the history's status: a block does not undo a backfill's progress.
  scripted.write(MAINNET, 1602n, [8n], { newDataAt: AT_MS + 26_000 });
  const next = (await stream.next()).status.history;
  assert.deepEqual([next.blocks, next.oldestBlock, next.newestBlock, next.backfill], [703, "900", "1602", backfill]);
});

test("a chain without data streams its syncing status, then the full history once data arrives", async (t) => {
  const { url, scripted } = await start(t);
  const stream = await openEvents(url, `/networks/${SYNCING}/events`);
  t.after(() => stream.close());
  const first = await stream.next();
  assert.equal(first.status.state, "syncing");
  assert.equal(first.blocks, null);
  scripted.write(SYNCING, 0n, [1n, 2n, 3n], { newDataAt: AT_MS });
  const data = await stream.next();
  assert.deepEqual(data.blocks, { kind: "all", firstBlock: "0", baseFees: ["0.000000001", "0.000000002", "0.000000003"] });
  assert.equal(data.status.state, "ok");
});

test("events need a key like the other data routes, answer under /v3/{apiKey}, and refuse unknown chains with the contract's errors", async (t) => {
  const { url } = await start(t);
  const missing = await openEvents(url, `/networks/${MAINNET}/events`, null);
  assert.equal(missing.response.statusCode, 401);
  assert.equal((await bodyOf(missing))["code"], "MISSING_API_KEY");
  const wrong = await openEvents(url, `/networks/${MAINNET}/events`, "ffffffffffffffffffffffffffffffff");
  assert.equal((await bodyOf(wrong))["code"], "INVALID_API_KEY");
  const unsupported = await openEvents(url, "/networks/6001/events");
  assert.equal(unsupported.response.statusCode, 400);
  assert.deepEqual(await bodyOf(unsupported), { statusCode: 400, code: "UNSUPPORTED_CHAIN", message: "'6001' is not a supported chain id." });
  const malformed = await openEvents(url, "/networks/0x1/events");
  assert.equal((await bodyOf(malformed))["code"], "INVALID_CHAIN_ID");

  const inPath = await openEvents(url, `/v3/${KEY}/networks/${MAINNET}/events`, null);
  t.after(() => inPath.close());
  assert.equal(inPath.response.statusCode, 200);
  assert.equal((await inPath.next()).status.chainId, MAINNET);
});

test("HEAD answers the stream's headers and holds no stream open", async (t) => {
  const { url, streams } = await start(t);
  const head = await openEvents(url, `/networks/${MAINNET}/events`, KEY, "HEAD");
  assert.equal(head.response.statusCode, 200);
  assert.equal(head.response.headers["content-type"], "text/event-stream; charset=utf-8");
  await head.ended;
  assert.equal(head.raw, "");
  assert.equal(streams.size, 0);
});

test("a quiet stream gets heartbeats, one each heartbeat interval", async (t) => {
  // The heartbeat's timer is a setInterval: mocked, so that its intervals pass at once and exactly.
  t.mock.timers.enable({ apis: ["setInterval"] });
  const { url } = await start(t, { heartbeatMs: 40 });
  const stream = await openEvents(url, `/networks/${MAINNET}/events`);
  t.after(() => stream.close());
  await stream.next();
  const heartbeats = () => stream.raw.split(": heartbeat\n\n").length - 1;
  t.mock.timers.tick(40);
  await waitFor("the first heartbeat", () => heartbeats() === 1);
  t.mock.timers.tick(40);
  await waitFor("the second heartbeat", () => heartbeats() === 2);
});

test("streams are bounded: one over the limit gets 429 RATE_LIMITED, and a closed stream frees its place", async (t) => {
  const { url, streams } = await start(t, { maxStreams: 2 });
  const first = await openEvents(url, `/networks/${MAINNET}/events`);
  const second = await openEvents(url, `/networks/${SYNCING}/events`);
  t.after(() => (first.close(), second.close()));
  const third = await openEvents(url, `/networks/${MAINNET}/events`, OTHER_KEY);
  assert.equal(third.response.statusCode, 429);
  assert.equal(third.response.headers["retry-after"], "5");
  const refused = await bodyOf(third);
  assert.equal(refused["code"], "RATE_LIMITED");
  assert.match(String(refused["message"]), /event streams open on this service \(at most 2\)/);
  assert.equal(streams.size, 2);

  first.close();
  await waitFor("the closed stream to be removed", () => streams.size === 1);
  const fourth = await openEvents(url, `/networks/${MAINNET}/events`);
  t.after(() => fourth.close());
  assert.equal(fourth.response.statusCode, 200);
});

test("a client leaving removes its stream and the last one unsubscribes; closing the server ends every stream", async (t) => {
  const { url, scripted, source, streams, close } = await start(t);
  assert.equal(source.listenerCount, 0);
  const leaving = await openEvents(url, `/networks/${MAINNET}/events`);
  await leaving.next();
  assert.equal(source.listenerCount, 1);
  leaving.close();
  await waitFor("the stream to be removed", () => streams.size === 0 && source.listenerCount === 0);

  const staying = await openEvents(url, `/networks/${MAINNET}/events`);
  await staying.next();
  assert.equal(streams.size, 1);
  await close();
  await staying.ended;
  await waitFor("the server's close to remove the stream", () => streams.size === 0);
  assert.equal(source.listenerCount, 0);
  // A change after the close writes nowhere and throws nothing.
  scripted.write(MAINNET, 1600n, [1n], { newDataAt: AT_MS });
});

test("GET /events: every chain's full state at once, then each change of any chain", async (t) => {
  const { url, scripted, source } = await start(t);
  const stream = await openEvents(url, "/events");
  t.after(() => stream.close());
  const first = await stream.next();
  const second = await stream.next();
  assert.deepEqual(first.status, networkStatusAt(source.get(MAINNET)!, NOW_MS));
  assert.deepEqual(first.blocks, { kind: "all", firstBlock: "1100", baseFees: FEES.slice(100).map(gwei) });
  assert.deepEqual(second.status, networkStatusAt(source.get(SYNCING)!, NOW_MS));
  assert.equal(second.blocks, null);

  scripted.write(SYNCING, 0n, [1n, 2n], { newDataAt: AT_MS });
  const syncing = await stream.next();
  assert.equal(syncing.status.chainId, SYNCING);
  assert.deepEqual(syncing.blocks, { kind: "all", firstBlock: "0", baseFees: ["0.000000001", "0.000000002"] });
  scripted.write(MAINNET, 1600n, [3n], { newDataAt: AT_MS });
  const mainnet = await stream.next();
  assert.equal(mainnet.status.chainId, MAINNET);
  assert.deepEqual(mainnet.blocks, { kind: "from", firstBlock: "1600", baseFees: ["0.000000003"] });
  const inPath = await openEvents(url, `/v3/${KEY}/events`, null);
  t.after(() => inPath.close());
  assert.equal(inPath.response.statusCode, 200, "EventSource sends no headers: the key goes in the path");
  assert.equal((await inPath.next()).status.chainId, MAINNET);
});

test("one key cannot take every stream: a per-key limit, named in the 429, while other keys still get theirs", async (t) => {
  const { url } = await start(t, { maxStreams: 4, maxStreamsPerKey: 2 });
  const mine = [await openEvents(url, "/events"), await openEvents(url, `/networks/${MAINNET}/events`)];
  t.after(() => mine.forEach((stream) => stream.close()));
  const overMine = await openEvents(url, "/events");
  assert.equal(overMine.response.statusCode, 429);
  assert.match(String((await bodyOf(overMine))["message"]), /event streams open with this API key \(at most 2\)/);
  const theirs = await openEvents(url, "/events", OTHER_KEY);
  t.after(() => theirs.close());
  assert.equal(theirs.response.statusCode, 200);
});

test("revoking a key ends its open streams at once; other keys' streams go on", async (t) => {
  const { url, keyring, scripted, streams } = await start(t);
  const revoked = await openEvents(url, `/networks/${MAINNET}/events`);
  const kept = await openEvents(url, `/networks/${MAINNET}/events`, OTHER_KEY);
  t.after(() => (revoked.close(), kept.close()));
  await revoked.next();
  await kept.next();
  keyring.remove(KEY);
  await revoked.ended;
  assert.equal(streams.size, 1);
  scripted.write(MAINNET, 1600n, [3n], { newDataAt: AT_MS });
  assert.equal((await kept.next()).blocks?.firstBlock, "1600");
  assert.equal(revoked.raw.includes('"firstBlock":"1600"'), false, "the revoked key's stream got no event after the revocation");
});

/** A snapshot of the newest blocks ending at `newestBlock`, with blob base fees and ratios where given (the rest of it unused here). */
function blobSnapshot(newestBlock: bigint, baseFees: readonly bigint[], blobFees?: readonly bigint[], ratios?: readonly number[]): FeeSnapshot {
  return {
    chainId: 1,
    newestBlock,
    historyWei: baseFees,
    baseFeePercentileWei: 1n,
    busyThresholdWei: 1n,
    minWei: 1n,
    maxWei: 1n,
    currentBaseFeeWei: 1n,
    busy: false,
    networkCongestion: 0,
    recentTips: [],
    blockTimeMs: 12_000,
    statsBlocks: baseFees.length,
    statsFromBlock: newestBlock,
    statsToBlock: newestBlock,
    ...(blobFees
      ? {
          blob: {
            historyWei: blobFees,
            gasUsedRatios: ratios ?? blobFees.map(() => undefined),
            percentileWei: 1n,
            busyThresholdWei: 1n,
            minWei: 1n,
            maxWei: 1n,
            currentWei: 1n,
            busy: false,
            statsBlocks: blobFees.length,
            statsFromBlock: newestBlock,
            statsToBlock: newestBlock,
          },
        }
      : {}),
  };
}

test("the events' blocks carry each block's blob base fee and blob gas used ratio on a chain with blobs, aligned with the base fees", () => {
  // Four blocks, the oldest without a blob fee (the blob history starts a block later).
  const first = blobSnapshot(13n, [10n, 11n, 12n, 13n], [2_000_000_000n, 1n, 5n], [0.5, 1, 0]);
  assert.deepEqual(blocksChanged(undefined, first), {
    kind: "all",
    firstBlock: "10",
    baseFees: ["0.00000001", "0.000000011", "0.000000012", "0.000000013"],
    blobBaseFees: [null, "2", "0.000000001", "0.000000005"],
    blobGasUsedRatios: [null, 0.5, 1, 0],
  });
  // Block 13 re-mined with the same base fee but another blob fee: it is sent again, with the new block 14.
  const next = blobSnapshot(14n, [10n, 11n, 12n, 13n, 14n], [2_000_000_000n, 1n, 6n, 7n], [0.5, 1, 0, 0.25]);
  assert.deepEqual(blocksChanged(first, next), {
    kind: "from",
    firstBlock: "13",
    baseFees: ["0.000000013", "0.000000014"],
    blobBaseFees: ["0.000000006", "0.000000007"],
    blobGasUsedRatios: [0, 0.25],
  });
  // A chain without blobs: no blob fields at all.
  assert.deepEqual(blocksChanged(undefined, blobSnapshot(1n, [5n])), { kind: "all", firstBlock: "1", baseFees: ["0.000000005"] });
});
