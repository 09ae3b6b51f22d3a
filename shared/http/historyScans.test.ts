// History scans (baseFeeStats, the CSV export) against the real server on an ephemeral port, over the real
// FeeService's history of a fast chain: other clients are answered while a scan runs (counted in answers, not timed),
// a scan costs its key what it read, and the scans waiting their turn are bounded.
import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { test, type TestContext } from "node:test";
import { plainCall } from "../../test/support/plainCall.ts";
import { scriptedService } from "../../test/support/scriptedFeed.ts";
import { ApiKeyring } from "../keys/apiKeyring.ts";
import { createLogger } from "../log/logger.ts";
import type { RateLimit } from "./rateLimiter.ts";
import type { HistoryScanLimits } from "./historyScans.ts";
import { createApiServer } from "./server.ts";

const KEY = "0123456789abcdef0123456789abcdef";
const AUTH = { Authorization: `Basic ${Buffer.from(`${KEY}:`).toString("base64")}` };
const FAST = 42161;
/** 2026-01-01T00:00:00Z. */
const START_SECONDS = 1_767_225_600;
/** 300,000 blocks 0.25 s apart: about 21 hours; its CSV is about 10 MB. */
const BLOCKS = 300_000;

async function start(t: TestContext, options: { rateLimit?: RateLimit; historyScans?: Partial<HistoryScanLimits> } = {}) {
  const scripted = scriptedService([{ chainId: FAST, blockTimeMs: 250 }]);
  const last = 300_000_000n + BigInt(BLOCKS - 1);
  scripted.backfillPage(FAST, {
    firstBlock: 300_000_000n,
    baseFeesWei: BigUint64Array.from({ length: BLOCKS }, (_, index) => 10_000_000n + BigInt((index * 7919) % 1_000_003)),
    anchors: [
      { block: 300_000_000n, timestamp: START_SECONDS },
      { block: last, timestamp: START_SECONDS + (BLOCKS - 1) * 0.25 },
    ],
  });
  const server = createApiServer({
    source: scripted.service,
    keyring: new ApiKeyring([{ key: KEY }]),
    logger: createLogger("error", () => {}),
    port: 0,
    rateLimit: options.rateLimit ?? { requestsPerSecond: 0, burst: 1 },
    ...(options.historyScans === undefined ? {} : { historyScans: options.historyScans }),
  });
  const { port } = await server.listen();
  t.after(() => server.close());
  return port;
}

/** A GET read as fast as the socket delivers it; resolves with its status, byte count and its first megabyte as text. */
function fastRead(port: number, path: string): Promise<{ status: number; bytes: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, headers: AUTH, agent: false }, (res) => {
      let bytes = 0;
      let body = "";
      res.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
        if (body.length < 1_000_000) body += chunk.toString("utf8");
      });
      res.on("end", () => resolve({ status: res.statusCode!, bytes, body }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

/** Asks /healthz one request after another until `done` settles; resolves with how many were answered before it. */
async function healthAnsweredDuring(port: number, done: Promise<unknown>): Promise<number> {
  let settled = false;
  void done.finally(() => (settled = true));
  let answered = 0;
  while (!settled) {
    const answer = await plainCall(port, "/healthz", {});
    assert.equal(answer.status, 200);
    if (!settled) answered++;
  }
  return answered;
}

test("while baseFeeStats reads a long history, other clients are answered: the scan lets the event loop turn between slices", async (t) => {
  const port = await start(t, { historyScans: { sliceBlocks: 4096 } });
  const stats = fastRead(port, `/networks/${FAST}/baseFeeStats?from=0&to=253402300799&buckets=2000`);
  const answered = await healthAnsweredDuring(port, stats);
  const { status, body } = await stats;
  assert.equal(status, 200, body);
  // 300,000 blocks in slices of 4,096: 74 turns of the event loop, each leaving room for the health checks' requests.
  // Computed in one go, the scan would let none be answered before it ends (at most one that raced ahead of it).
  assert.ok(answered >= 5, `only ${answered} /healthz answered while baseFeeStats read ${BLOCKS} blocks`);
  const buckets = JSON.parse(body) as { blocks: number }[];
  assert.equal(
    buckets.reduce((sum, bucket) => sum + bucket.blocks, 0),
    BLOCKS,
  );
});

test("while a fast reader downloads the CSV export, other clients are answered between its pieces", async (t) => {
  const port = await start(t);
  const csv = fastRead(port, `/networks/${FAST}/baseFeeHistory.csv`);
  const answered = await healthAnsweredDuring(port, csv);
  const { status, bytes } = await csv;
  assert.equal(status, 200);
  assert.ok(bytes > 9_000_000, `${bytes} bytes`);
  // About 150 pieces of 2,048 lines, one per turn of the event loop. Written while the socket accepts them, without
  // yielding, the export holds the loop for as long as the kernel takes its bytes: a handful of answers at most.
  assert.ok(answered >= 20, `only ${answered} /healthz answered while ${bytes} bytes of CSV were streamed`);
});

test("a scan costs its key a request per blocksPerRequest blocks read: the next request waits for the rate limit", async (t) => {
  const port = await start(t, { rateLimit: { requestsPerSecond: 1, burst: 10 }, historyScans: { blocksPerRequest: 10_000 } });
  const first = await plainCall(port, `/networks/${FAST}/baseFeeStats?window=1d`, AUTH);
  assert.equal(first.status, 200, first.body);
  // 300,000 blocks read: 30 requests more than the key's 10, owed at 1 a second.
  const next = await plainCall(port, `/networks/${FAST}/baseFeeStats?window=1s`, AUTH);
  assert.equal(next.status, 429, next.body);
  assert.equal((JSON.parse(next.body) as { code: string }).code, "RATE_LIMITED");
  assert.ok(Number(next.headers["retry-after"]) >= 20, `Retry-After ${next.headers["retry-after"]}`);

  const csvPort = await start(t, { rateLimit: { requestsPerSecond: 1, burst: 10 }, historyScans: { blocksPerRequest: 10_000 } });
  const csv = await fastRead(csvPort, `/networks/${FAST}/baseFeeHistory.csv`);
  assert.equal(csv.status, 200);
  const afterCsv = await plainCall(csvPort, "/networks", AUTH);
  assert.equal(afterCsv.status, 429, afterCsv.body);
});

test("at most maxWaiting baseFeeStats scans run or wait at once: one more is refused with RATE_LIMITED, and the others are answered", async (t) => {
  const port = await start(t, { historyScans: { sliceBlocks: 4096, maxWaiting: 2 } });
  const answers = await Promise.all([1, 2, 3].map(() => plainCall(port, `/networks/${FAST}/baseFeeStats?window=1d&buckets=24`, AUTH)));
  assert.deepEqual(
    answers.map((answer) => answer.status),
    [200, 200, 429],
  );
  assert.deepEqual(JSON.parse(answers[2]!.body), {
    statusCode: 429,
    code: "RATE_LIMITED",
    message: "Too many baseFeeStats requests running or waiting (at most 2): close one, or retry after 1 s.",
  });
  assert.equal(answers[2]!.headers["retry-after"], "1");
});
