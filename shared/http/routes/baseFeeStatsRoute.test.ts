// GET /networks/{chainId}/baseFeeStats against the real server on an ephemeral port, over the real FeeService's
// histories (blocks written by a scripted feed and backfill, and a history store's from before a restart), each
// bucket checked against values computed here, independently, from the same blocks.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test, type TestContext } from "node:test";
import fc from "fast-check";
import type { ArrayBlock } from "../../../test/support/arrayHistoryView.ts";
import { type PlainAnswer, plainCall } from "../../../test/support/plainCall.ts";
import { type ScriptedService, scriptedService } from "../../../test/support/scriptedFeed.ts";
import { HistoryStore } from "../../history/historyStore.ts";
import { ApiKeyring } from "../../keys/apiKeyring.ts";
import { createLogger } from "../../log/logger.ts";
import { baseFeeStatsSchema } from "../../wire/baseFeeStats.ts";
import { createApiServer } from "../server.ts";

const KEY = "0123456789abcdef0123456789abcdef";
const AUTH = { Authorization: `Basic ${Buffer.from(`${KEY}:`).toString("base64")}` };

const ETHEREUM = 1;
const BASE = 8453;
const SYNCING = 6000;
const RESTARTED = 10;
const ONE_BLOCK = 42161;
const LEGACY = 56;

/** 2026-01-01T00:00:00Z. */
const NEWEST_SECONDS = 1_767_225_600;
const NOW_MS = NEWEST_SECONDS * 1000 + 4000;

/** Deterministic fees (1 to 61 Gwei, most with 9 decimals), by a 64-bit LCG. */
function feesWei(count: number, seed: bigint): bigint[] {
  let state = seed;
  return Array.from({ length: count }, () => {
    state = (state * 6364136223846793005n + 1442695040888963407n) % 2n ** 64n;
    return 1_000_000_000n + (state % 60_000_000_000n);
  });
}

/**
 * Three days of 12 s blocks ending at NEWEST_SECONDS, with an hour missing (a gap in the history) and every tenth
 * timestamp a fraction of a second late (an interpolated one).
 */
function ethereumBlocks(): ArrayBlock[] {
  const count = (3 * 86_400) / 12;
  const fees = feesWei(count, 7n);
  const blocks: ArrayBlock[] = [];
  for (let index = 0; index < count; index++) {
    const timestamp = NEWEST_SECONDS - (count - 1 - index) * 12 + (index % 10 === 3 ? 0.75 : 0);
    if (timestamp >= NEWEST_SECONDS - 30 * 3600 && timestamp < NEWEST_SECONDS - 29 * 3600) continue;
    blocks.push({ block: 23_000_000n + BigInt(index), timestamp, baseFeeWei: fees[index]! });
  }
  return blocks;
}

/** 2 s blocks. */
function baseBlocks(): ArrayBlock[] {
  const fees = feesWei(2000, 3n);
  return fees.map((baseFeeWei, index) => ({ block: 30_000_000n + BigInt(index), timestamp: NEWEST_SECONDS - (1999 - index) * 2, baseFeeWei }));
}

/** The contract's Gwei string by string arithmetic on the decimal wei. */
function gwei(wei: bigint): string {
  const digits = wei.toString().padStart(10, "0");
  const whole = digits.slice(0, -9).replace(/^0+(?=\d)/, "");
  const fraction = digits.slice(-9).replace(/0+$/, "");
  return fraction === "" ? whole : `${whole}.${fraction}`;
}

/** One bucket as the contract describes it, from the blocks whose timestamp rounded down lies in [start, end) (or [start, end] for the last). */
function expectedBucket(blocks: readonly ArrayBlock[], start: number, end: number, last: boolean): Record<string, unknown> {
  const inBucket = blocks.filter(
    (block) => Math.floor(block.timestamp) >= start && (last ? Math.floor(block.timestamp) <= end : Math.floor(block.timestamp) < end),
  );
  if (inBucket.length === 0) return { start, end, blocks: 0 };
  const sorted = inBucket.map((block) => block.baseFeeWei).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const rank = (percentile: number) => gwei(sorted[Math.ceil((percentile / 100) * sorted.length) - 1]!);
  return {
    start,
    end,
    blocks: inBucket.length,
    fromBlock: inBucket[0]!.block.toString(),
    toBlock: inBucket.at(-1)!.block.toString(),
    min: gwei(sorted[0]!),
    p10: rank(10),
    p25: rank(25),
    p50: rank(50),
    p75: rank(75),
    p90: rank(90),
    max: gwei(sorted.at(-1)!),
  };
}

/** The buckets expected for the given starts (and the range's last second), each computed from `blocks`. */
function expectedBuckets(blocks: readonly ArrayBlock[], starts: readonly number[], toSeconds: number): Record<string, unknown>[] {
  return starts.map((start, index) => {
    const last = index === starts.length - 1;
    return expectedBucket(blocks, start, last ? toSeconds : starts[index + 1]!, last);
  });
}

type Answer = PlainAnswer;

function call(port: number, path: string, options: { method?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  return plainCall(port, path, options.headers ?? AUTH, options.method);
}

/** Consecutive runs of `blocks` (split where block numbers have gaps), each block with its exact time (its header's). */
function runsOf(blocks: readonly ArrayBlock[]): { firstBlock: bigint; baseFeesWei: bigint[]; anchors: { block: bigint; timestamp: number }[] }[] {
  const runs = [];
  let start = 0;
  for (let index = 1; index <= blocks.length; index++) {
    if (index < blocks.length && blocks[index]!.block === blocks[index - 1]!.block + 1n) continue;
    const run = blocks.slice(start, index);
    runs.push({
      firstBlock: run[0]!.block,
      baseFeesWei: run.map((block) => block.baseFeeWei),
      anchors: run.map(({ block, timestamp }) => ({ block, timestamp })),
    });
    start = index;
  }
  return runs;
}

/** A block's blob base fee, where its chain has them (Base's live blocks here): a function of its number. */
const blobFeeOf = (block: bigint): bigint => 1n + ((block * 104_729n) % 3_000_000_000n);

/**
 * The chain's history as the service fills it: the feed brings the newest 500 blocks (with `blobFees`, their blob base
 * fees too), the backfill the older ones (without).
 */
function follow(scripted: ScriptedService, chainId: number, blocks: readonly ArrayBlock[], blobFees = false): void {
  const [live] = runsOf(blocks.slice(-500));
  scripted.write(chainId, live!.firstBlock, live!.baseFeesWei, {
    newDataAt: NOW_MS,
    anchors: live!.anchors,
    ...(blobFees ? { blobBaseFeesWei: blocks.slice(-500).map((block) => blobFeeOf(block.block)) } : {}),
  });
  for (const page of runsOf(blocks.slice(0, -500))) scripted.backfillPage(chainId, page);
}

async function start(t: TestContext) {
  const ethereum = ethereumBlocks();
  const base = baseBlocks();
  // Held from before a restart: the history store on its file holds the chain's blocks, and nothing is published yet.
  const dir = mkdtempSync(join(tmpdir(), "gasfees-stats-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const store = HistoryStore.open(join(dir, "history.sqlite"));
  t.after(() => store.close());
  for (const run of runsOf(base)) store.write(RESTARTED, run.firstBlock, run);
  const scripted = scriptedService(
    [
      // Its blocks' exact times have fractions of a second, which the store does not keep (a header's are whole
      // seconds): kept in memory only.
      { chainId: ETHEREUM, name: "Ethereum", blockTimeMs: 12_000, statsWindow: "24h", persistHistory: false },
      { chainId: BASE, name: "Base", blockTimeMs: 2000, statsWindow: "500 blocks" },
      { chainId: SYNCING, blockTimeMs: 2500 },
      { chainId: RESTARTED, blockTimeMs: 2000 },
      { chainId: ONE_BLOCK, blockTimeMs: 250 },
      { chainId: LEGACY, noBaseFee: true },
    ],
    { store },
  );
  follow(scripted, ETHEREUM, ethereum);
  follow(scripted, BASE, base, true);
  scripted.write(ONE_BLOCK, 1n, [5n], { newDataAt: NOW_MS });
  const server = createApiServer({
    source: scripted.service,
    keyring: new ApiKeyring([{ key: KEY }]),
    logger: createLogger("error", () => {}),
    port: 0,
    rateLimit: { requestsPerSecond: 0, burst: 1 },
    now: () => NOW_MS,
  });
  const { port } = await server.listen();
  t.after(() => server.close());
  return { port, ethereum, base };
}

const statsOf = (answer: Answer) => {
  assert.equal(answer.status, 200, answer.body);
  assert.equal(answer.headers["content-type"], "application/json; charset=utf-8");
  return baseFeeStatsSchema.parse(JSON.parse(answer.body)) as unknown as Record<string, unknown>[];
};

test("window=24h in 96 buckets: each bucket's count, blocks and percentiles equal those computed from the same blocks", async (t) => {
  const { port, ethereum } = await start(t);
  const buckets = statsOf(await call(port, "/networks/1/baseFeeStats?window=24h&buckets=96"));
  const fromSeconds = NEWEST_SECONDS - 86_400;
  const starts = Array.from({ length: 96 }, (_, index) => fromSeconds + index * 900);
  assert.deepEqual(buckets, expectedBuckets(ethereum, starts, NEWEST_SECONDS));
  assert.equal(buckets.at(-1)!["end"], NEWEST_SECONDS, "the last bucket ends at the newest block");
  assert.equal(buckets.at(-1)!["toBlock"], ethereum.at(-1)!.block.toString());
  // Every block of the day is counted once.
  const dayBlocks = ethereum.filter((block) => Math.floor(block.timestamp) >= fromSeconds).length;
  assert.equal(
    buckets.reduce((sum, bucket) => sum + (bucket["blocks"] as number), 0),
    dayBlocks,
  );
});

test("fee=blob: the buckets of the blob base fees, counting only the blocks that have one; NO_BLOB_FEE on a chain without", async (t) => {
  const { port, base } = await start(t);
  const withBlobFees = base.slice(-500).map((block) => ({ ...block, baseFeeWei: blobFeeOf(block.block) }));
  const fromSeconds = NEWEST_SECONDS - 2_000;
  const buckets = statsOf(await call(port, "/networks/8453/baseFeeStats?window=2000s&buckets=8&fee=blob"));
  const starts = Array.from({ length: 8 }, (_, index) => fromSeconds + index * 250);
  assert.deepEqual(buckets, expectedBuckets(withBlobFees, starts, NEWEST_SECONDS));
  assert.equal(buckets[0]!["blocks"], 0, "the older blocks, backfilled without blob fees, are not counted");
  assert.equal(
    buckets.reduce((sum, bucket) => sum + (bucket["blocks"] as number), 0),
    500,
  );
  // The base fee's buckets of the same range still count every block.
  const baseFees = statsOf(await call(port, "/networks/8453/baseFeeStats?window=2000s&buckets=8&fee=base"));
  assert.deepEqual(baseFees, expectedBuckets(base, starts, NEWEST_SECONDS));
  const refused = await call(port, "/networks/1/baseFeeStats?fee=blob");
  assert.equal(refused.status, 422);
  assert.equal((JSON.parse(refused.body) as { code: string }).code, "NO_BLOB_FEE");
  assert.equal((await call(port, "/networks/8453/baseFeeStats?fee=all")).status, 400);
});

test("without a range, the chain's statistics window: a duration ends at the newest block, a count of blocks is the newest N held", async (t) => {
  const { port, ethereum, base } = await start(t);
  assert.deepEqual(statsOf(await call(port, "/networks/1/baseFeeStats")), expectedBuckets(ethereum, [NEWEST_SECONDS - 86_400], NEWEST_SECONDS));
  const newest500 = statsOf(await call(port, "/networks/8453/baseFeeStats"));
  assert.deepEqual(newest500, expectedBuckets(base, [base[1500]!.timestamp], NEWEST_SECONDS));
  assert.equal(newest500[0]!["blocks"], 500);
  assert.equal(newest500[0]!["fromBlock"], base[1500]!.block.toString());
  // The same window in buckets.
  assert.deepEqual(
    statsOf(await call(port, "/networks/8453/baseFeeStats?buckets=4")),
    expectedBuckets(
      base,
      [0, 1, 2, 3].map((index) => base[1500]!.timestamp + Math.floor((index * 998) / 4)),
      NEWEST_SECONDS,
    ),
  );
});

test("from and to with bucket=<seconds>: buckets from `from` on, the last one ending at `to`; gaps and ranges not held are buckets without blocks", async (t) => {
  const { port, ethereum } = await start(t);
  const fromSeconds = NEWEST_SECONDS - 32 * 3600;
  // A block lies at toSeconds + 0.75: its second is toSeconds, so it is in the range.
  const toSeconds = NEWEST_SECONDS - 93_792;
  assert.ok(ethereum.some((block) => block.timestamp === toSeconds + 0.75));
  const buckets = statsOf(await call(port, `/networks/1/baseFeeStats?from=${fromSeconds}&to=${toSeconds}&bucket=3600`));
  assert.deepEqual(
    buckets,
    expectedBuckets(
      ethereum,
      [0, 1, 2, 3, 4, 5].map((hour) => fromSeconds + hour * 3600),
      toSeconds,
    ),
  );
  // The missing hour: the bucket that lies in it holds nothing, and says only its bounds and 0.
  assert.deepEqual(buckets[2], { start: fromSeconds + 7200, end: fromSeconds + 10_800, blocks: 0 });

  const future = statsOf(await call(port, `/networks/1/baseFeeStats?from=${NEWEST_SECONDS + 10}&to=${NEWEST_SECONDS + 20}&buckets=2`));
  assert.deepEqual(future, [
    { start: NEWEST_SECONDS + 10, end: NEWEST_SECONDS + 15, blocks: 0 },
    { start: NEWEST_SECONDS + 15, end: NEWEST_SECONDS + 20, blocks: 0 },
  ]);
  // Only `from`: up to the newest block; only `to`: from the oldest.
  assert.deepEqual(
    statsOf(await call(port, `/networks/1/baseFeeStats?from=${NEWEST_SECONDS - 3600}`)),
    expectedBuckets(ethereum, [NEWEST_SECONDS - 3600], NEWEST_SECONDS),
  );
  const oldestSeconds = Math.floor(ethereum[0]!.timestamp);
  assert.deepEqual(
    statsOf(await call(port, `/networks/1/baseFeeStats?to=${oldestSeconds + 600}`)),
    expectedBuckets(ethereum, [oldestSeconds], oldestSeconds + 600),
  );
});

test("a chain of one block answers buckets without blocks around it; a history held from before a restart answers before new data", async (t) => {
  const { port, base } = await start(t);
  // Its block's header came at NOW_MS, in whole seconds: NEWEST_SECONDS + 4.
  const oneBlock: ArrayBlock[] = [{ block: 1n, timestamp: NEWEST_SECONDS + 4, baseFeeWei: 5n }];
  assert.deepEqual(statsOf(await call(port, `/networks/${ONE_BLOCK}/baseFeeStats?window=1h&buckets=2`)), [
    { start: NEWEST_SECONDS + 4 - 3600, end: NEWEST_SECONDS + 4 - 1800, blocks: 0 },
    expectedBucket(oneBlock, NEWEST_SECONDS + 4 - 1800, NEWEST_SECONDS + 4, true),
  ]);
  assert.deepEqual(statsOf(await call(port, `/networks/${RESTARTED}/baseFeeStats?window=1h`)), expectedBuckets(base, [NEWEST_SECONDS - 3600], NEWEST_SECONDS));
});

test("every malformed, unknown, conflicting or out-of-range parameter is a 400 INVALID_QUERY naming it and what it may be", async (t) => {
  const { port } = await start(t);
  const cases: [string, RegExp][] = [
    ["buckets=0", /'buckets' is '0': it must be a whole number from 1 to 2000\./],
    ["buckets=2001", /'buckets' is '2001': it must be a whole number from 1 to 2000\./],
    ["buckets=1.5", /'buckets' .* from 1 to 2000/],
    ["buckets=", /'buckets' is '': .* from 1 to 2000/],
    ["buckets=12&buckets=12", /'buckets' is given more than once/],
    ["bucket=0", /'bucket' is '0': it must be a whole number of seconds from 1 to 31622400\./],
    ["bucket=1h", /'bucket' is '1h': .*seconds from 1 to 31622400/],
    ["bucket=60&buckets=10", /'bucket' cannot be given with buckets/],
    ["window=7d&bucket=60", /'bucket' of 60 seconds cuts the 604800 seconds .* into 10080 buckets, more than 2000: ask for 303 to 31622400 seconds\./],
    ["window=10s&buckets=11", /'buckets' asks for 11 buckets over the 10 seconds .*: ask for 1 to 10\./],
    ["window=5x", /'window' is '5x', not a duration: .*from 1s to 366d/],
    ["window=400d", /'window' is '400d', not a duration/],
    ["window=24h&from=1", /'window' cannot be given with from or to/],
    ["from=-1", /'from' is '-1': it must be a whole number of unix seconds from 0 to 253402300799\./],
    ["to=99999999999999", /'to' is '99999999999999': .*from 0 to 253402300799/],
    ["from=0x10", /'from' is '0x10'/],
    ["from=20&to=10", /'from' \(20\) is after to \(10\)/],
    ["foo=1", /'foo' is not one that baseFeeStats takes: it takes window, from, to, buckets, bucket and fee\./],
    ["Buckets=2", /'Buckets' is not one that baseFeeStats takes/],
  ];
  for (const [query, message] of cases) {
    const answer = await call(port, `/networks/1/baseFeeStats?${query}`);
    assert.equal(answer.status, 400, `${query}: ${answer.body}`);
    const body = JSON.parse(answer.body) as { statusCode: number; code: string; message: string };
    assert.deepEqual(Object.keys(body), ["statusCode", "code", "message"]);
    assert.equal(body.code, "INVALID_QUERY", query);
    assert.match(body.message, message, query);
  }
  // A huge value is echoed cut short.
  const huge = JSON.parse((await call(port, `/networks/1/baseFeeStats?window=${"9".repeat(5000)}`)).body) as { message: string };
  assert.ok(huge.message.length < 300, huge.message);
});

test("the chain routes' rules: key in the path, no key, HEAD, OPTIONS, other methods, unknown and malformed chains, no data, no base fee", async (t) => {
  const { port, ethereum } = await start(t);
  const withKeyInPath = await call(port, `/v3/${KEY}/networks/1/baseFeeStats?window=1h&buckets=4`, { headers: {} });
  assert.deepEqual(
    statsOf(withKeyInPath),
    expectedBuckets(
      ethereum,
      [0, 1, 2, 3].map((index) => NEWEST_SECONDS - 3600 + index * 900),
      NEWEST_SECONDS,
    ),
  );
  const get = await call(port, "/networks/1/baseFeeStats?window=1h");
  const head = await call(port, "/networks/1/baseFeeStats?window=1h", { method: "HEAD" });
  assert.equal(head.status, 200);
  assert.equal(head.body, "");
  assert.equal(head.headers["content-length"], String(Buffer.byteLength(get.body)));
  assert.equal(get.headers["cache-control"], "no-store");

  const expectError = async (path: string, status: number, code: string, options?: Parameters<typeof call>[2]) => {
    const answer = await call(port, path, options);
    assert.equal(answer.status, status, `${path}: ${answer.body}`);
    assert.equal((JSON.parse(answer.body) as { code: string }).code, code, path);
    return answer;
  };
  await expectError("/networks/1/baseFeeStats", 401, "MISSING_API_KEY", { headers: {} });
  await expectError(`/v3/${"f".repeat(32)}/networks/1/baseFeeStats`, 401, "INVALID_API_KEY", { headers: {} });
  await expectError("/networks/1/baseFeeStats", 405, "METHOD_NOT_ALLOWED", { method: "POST" });
  await expectError("/networks/6001/baseFeeStats", 400, "UNSUPPORTED_CHAIN");
  await expectError("/networks/0x1/baseFeeStats?buckets=0", 400, "INVALID_CHAIN_ID");
  await expectError("/networks/56/baseFeeStats", 422, "NO_BASE_FEE");
  const noData = await expectError(`/networks/${SYNCING}/baseFeeStats?window=1h`, 503, "NO_DATA");
  assert.equal(noData.headers["retry-after"], "3");
  // A query that can never be answered is said before the wait for data.
  await expectError(`/networks/${SYNCING}/baseFeeStats?buckets=0`, 400, "INVALID_QUERY");
  const options = await call(port, "/networks/1/baseFeeStats", { method: "OPTIONS", headers: {} });
  assert.equal(options.status, 204);
  assert.equal(options.headers["allow"], "GET, HEAD, OPTIONS");
});

test("any query on either endpoint is answered 200 or 400 INVALID_QUERY, never 500; every 200 of baseFeeStats has the contract's shape", async (t) => {
  const { port } = await start(t);
  // Well-formed ranges and divisions at their edges (around the history's ends, tiny and huge spans), with now and
  // then a parameter that is junk, repeated or unknown.
  const second = fc.oneof(
    fc.integer({ min: NEWEST_SECONDS - 4 * 86_400, max: NEWEST_SECONDS + 86_400 }),
    fc.integer({ min: NEWEST_SECONDS - 3, max: NEWEST_SECONDS + 3 }),
    fc.integer({ min: 0, max: 40 }),
  );
  const range = fc.oneof(
    fc.constant([]),
    fc.constantFrom("1s", "10s", "1h", "24h", "7d", "366d", "0h", "5x", "").map((window) => [`window=${window}`]),
    fc.tuple(fc.option(second), fc.option(second)).map(([from, to]) => [...(from === null ? [] : [`from=${from}`]), ...(to === null ? [] : [`to=${to}`])]),
  );
  const division = fc.oneof(
    fc.constant([]),
    fc.oneof(fc.integer({ min: 0, max: 40 }), fc.constantFrom(672, 1999, 2000, 2001)).map((buckets) => [`buckets=${buckets}`]),
    fc.oneof(fc.integer({ min: 0, max: 4000 }), fc.constantFrom(1, 60, 3600, 86_400, 31_622_400, 31_622_401)).map((bucket) => [`bucket=${bucket}`]),
  );
  const junk = fc.oneof(
    { arbitrary: fc.constant([]), weight: 5 },
    {
      arbitrary: fc.tuple(fc.stringMatching(/^[A-Za-z%0-9+]{0,6}$/), fc.stringMatching(/^[0-9a-z.%+-]{0,8}$/)).map(([key, text]) => [`${key}=${text}`]),
      weight: 1,
    },
  );
  const query = fc.tuple(range, division, junk).map((parts) => parts.flat().join("&"));
  await fc.assert(
    fc.asyncProperty(fc.constantFrom("baseFeeStats", "baseFeeHistory.csv"), query, async (endpoint, text) => {
      const answer = await call(port, `/networks/1/${endpoint}?${text}`);
      if (answer.status === 400) assert.equal((JSON.parse(answer.body) as { code: string }).code, "INVALID_QUERY", text);
      else assert.equal(answer.status, 200, `${text}: ${answer.body}`);
      if (answer.status === 200 && endpoint === "baseFeeStats") baseFeeStatsSchema.parse(JSON.parse(answer.body));
    }),
    { numRuns: 300 },
  );
});
