// GET /networks/{chainId}/hourlyStats and hourlyStats.csv against the real server on an ephemeral port, over the real
// FeeService (its chains' blocks written by a scripted feed, every header seen): each closed hour wholly held is
// answered exactly as summarizeHour makes it from those blocks, a re-mined block changes its hour (and the ETag),
// from/to select by the hour's start, and the errors are the contract's.
import assert from "node:assert/strict";
import { test, type TestContext } from "node:test";
import { plainCall } from "../../../test/support/plainCall.ts";
import { scriptedService } from "../../../test/support/scriptedFeed.ts";
import { hourStartOf, type HourlySummary } from "../../core/outlook/hourlySummary.ts";
import { summarizeHour } from "../../core/outlook/summarizeHour.ts";
import { ApiKeyring } from "../../keys/apiKeyring.ts";
import { createLogger } from "../../log/logger.ts";
import { HOURLY_STATS_CSV_HEADER, type HourlyStats } from "../../wire/hourlyStats.ts";
import { createApiServer } from "../server.ts";

const KEY = "0123456789abcdef0123456789abcdef";
const AUTH = { Authorization: `Basic ${Buffer.from(`${KEY}:`).toString("base64")}` };
const CHAIN = 1;
const EMPTY = 8453;
/** Block FIRST at 00:07:00 on 2026-01-01; 12 s apart. */
const T0 = 1_767_225_600 + 420;
const FIRST = 21_000_000n;
const BLOCKS = 2_000;
const timeOf = (block: bigint) => T0 + 12 * Number(block - FIRST);
const feeOf = (block: bigint) => 9_000_000_000n + ((block * 104_729n) % 40_000_000_000n) + (block % 97n === 3n ? 2n ** 62n : 0n);

/** Gwei text back to wei, by string arithmetic. */
function weiOf(gwei: string): bigint {
  const [whole = "", fraction = ""] = gwei.split(".");
  return BigInt(whole) * 1_000_000_000n + BigInt(fraction.padEnd(9, "0"));
}

const summaryOfRow = (row: HourlyStats[number]): HourlySummary => ({
  start: row.start,
  blocks: row.blocks,
  sampled: row.sampled,
  min: weiOf(row.min),
  p10: weiOf(row.p10),
  p50: weiOf(row.p50),
  p90: weiOf(row.p90),
  max: weiOf(row.max),
  last: weiOf(row.last),
});

/** Each closed hour wholly held, summarised from `fee` of its blocks (reorg depth 64 on chain 1). */
function expectedSummaries(fee: (block: bigint) => bigint): HourlySummary[] {
  const newest = FIRST + BigInt(BLOCKS - 1);
  const closedBefore = hourStartOf(timeOf(newest - 64n));
  const byHour = new Map<number, bigint[]>();
  for (let block = FIRST; block <= newest; block++) {
    const start = hourStartOf(timeOf(block));
    if (start <= hourStartOf(T0) || start >= closedBefore) continue;
    byHour.set(start, [...(byHour.get(start) ?? []), fee(block)]);
  }
  return [...byHour].map(([start, fees]) => summarizeHour(start, fees));
}

async function start(t: TestContext) {
  const scripted = scriptedService([{ chainId: CHAIN }, { chainId: EMPTY }]);
  const blocks = Array.from({ length: BLOCKS }, (_, i) => FIRST + BigInt(i));
  for (let i = 0; i < BLOCKS; i += 250) {
    const page = blocks.slice(i, i + 250);
    scripted.write(CHAIN, page[0]!, page.map(feeOf), {
      anchors: page.map((block) => ({ block, timestamp: timeOf(block) })),
      newDataAt: timeOf(page.at(-1)!) * 1_000,
    });
  }
  const server = createApiServer({
    source: scripted.service,
    keyring: new ApiKeyring([{ key: KEY }]),
    logger: createLogger("error", () => {}),
    port: 0,
    rateLimit: { requestsPerSecond: 0, burst: 1 },
  });
  const { port } = await server.listen();
  t.after(() => server.close());
  return { port, scripted };
}

const call = (port: number, path: string, headers: Record<string, string> = AUTH, method?: string) => plainCall(port, path, headers, method);

test("hourlyStats answers every closed hour wholly held, oldest first, exactly as its blocks summarise; from and to select by start", async (t) => {
  const { port } = await start(t);
  const answer = await call(port, "/networks/1/hourlyStats");
  assert.equal(answer.status, 200, answer.body);
  assert.equal(answer.headers["content-type"], "application/json; charset=utf-8");
  const rows = JSON.parse(answer.body) as HourlyStats;
  const expected = expectedSummaries(feeOf);
  assert.equal(expected.length, 5, "hours 1 to 5 of 00:07 to 06:47, the newest closed 64 blocks back");
  assert.deepEqual(rows.map(summaryOfRow), expected);
  const second = expected[1]!.start;
  const ranged = JSON.parse((await call(port, `/networks/1/hourlyStats?from=${second}&to=${second + 3_600}`)).body) as HourlyStats;
  assert.deepEqual(
    ranged.map((row) => row.start),
    [second, second + 3_600],
  );
  const fromOnly = JSON.parse((await call(port, `/networks/1/hourlyStats?from=${second + 1}`)).body) as HourlyStats;
  assert.equal(fromOnly[0]!.start, second + 3_600);
  // The key in the path answers the same.
  assert.equal((await call(port, `/v3/${KEY}/networks/1/hourlyStats`, {})).body, answer.body);
  // A chain with no summary yet: an empty list, not an error.
  assert.equal((await call(port, `/networks/${EMPTY}/hourlyStats`)).body, "[]");
});

test("hourlyStats.csv holds the same hours under its header; both are ETag'd, 304 while no hour changed, a new tag once one did", async (t) => {
  const { port, scripted } = await start(t);
  const json = await call(port, "/networks/1/hourlyStats");
  const csv = await call(port, "/networks/1/hourlyStats.csv");
  assert.equal(csv.status, 200);
  assert.equal(csv.headers["content-type"], "text/csv; charset=utf-8");
  const rows = JSON.parse(json.body) as HourlyStats;
  const lines = rows.map((row) => `${row.start},${row.blocks},${row.sampled},${row.min},${row.p10},${row.p50},${row.p90},${row.max},${row.last}`);
  assert.equal(csv.body, `${[HOURLY_STATS_CSV_HEADER, ...lines].join("\n")}\n`);
  assert.equal((await call(port, "/networks/1/hourlyStats.csv?from=0&to=1")).body, `${HOURLY_STATS_CSV_HEADER}\n`);
  for (const [path, first] of [
    ["/networks/1/hourlyStats", json],
    ["/networks/1/hourlyStats.csv", csv],
  ] as const) {
    const etag = first.headers["etag"]!;
    assert.match(etag, /^"[A-Za-z0-9_-]{22}"$/);
    assert.equal(first.headers["cache-control"], "private, max-age=0, must-revalidate");
    const again = await call(port, path, { ...AUTH, "If-None-Match": etag });
    assert.equal(again.status, 304, path);
    assert.equal(again.body, "");
  }
  const head = await call(port, "/networks/1/hourlyStats.csv", AUTH, "HEAD");
  assert.equal(head.status, 200);
  assert.equal(head.body, "");

  // A block of the second hour re-mined with another fee (a write over it, as the feed writes a reorganisation).
  const second = rows[1]!.start;
  let block = FIRST;
  while (timeOf(block) < second + 900) block++;
  const remined = (candidate: bigint) => (candidate === block ? 2n ** 63n - 1n : feeOf(candidate));
  scripted.write(CHAIN, block, [remined(block)], { anchors: [{ block, timestamp: timeOf(block) }], newDataAt: timeOf(FIRST + BigInt(BLOCKS - 1)) * 1_000 });
  const after = await call(port, "/networks/1/hourlyStats", { ...AUTH, "If-None-Match": json.headers["etag"]! });
  assert.equal(after.status, 200, "the hour changed: a new answer");
  assert.notEqual(after.headers["etag"], json.headers["etag"]);
  assert.deepEqual((JSON.parse(after.body) as HourlyStats).map(summaryOfRow), expectedSummaries(remined));
  assert.equal((JSON.parse(after.body) as HourlyStats)[1]!.max, "9223372036.854775807");
});

test("summaries written through the service (the outlook backfill's way) are answered at once; the query's and the chain's errors are the contract's", async (t) => {
  const { port, scripted } = await start(t);
  const old: HourlySummary = { start: hourStartOf(T0) - 30 * 86_400, blocks: 12, sampled: true, min: 1n, p10: 2n, p50: 3n, p90: 4n, max: 5n, last: 3n };
  scripted.service.writeHourlySummaries(CHAIN, [old]);
  const rows = JSON.parse((await call(port, "/networks/1/hourlyStats")).body) as HourlyStats;
  assert.deepEqual(rows[0], {
    start: old.start,
    blocks: 12,
    sampled: true,
    min: "0.000000001",
    p10: "0.000000002",
    p50: "0.000000003",
    p90: "0.000000004",
    max: "0.000000005",
    last: "0.000000003",
  });
  assert.equal(rows.length, 6);

  const expectError = async (path: string, status: number, code: string, message?: RegExp, headers: Record<string, string> = AUTH) => {
    const answer = await call(port, path, headers);
    assert.equal(answer.status, status, `${path}: ${answer.body}`);
    const body = JSON.parse(answer.body) as { code: string; message: string };
    assert.equal(body.code, code, path);
    if (message) assert.match(body.message, message, path);
  };
  for (const endpoint of ["hourlyStats", "hourlyStats.csv"]) {
    await expectError(
      `/networks/1/${endpoint}?from=abc`,
      400,
      "INVALID_QUERY",
      /'from' is 'abc': it must be a whole number of unix seconds from 0 to 253402300799\./,
    );
    await expectError(
      `/networks/1/${endpoint}?to=-5`,
      400,
      "INVALID_QUERY",
      /'to' is '-5': it must be a whole number of unix seconds from 0 to 253402300799\./,
    );
    await expectError(`/networks/1/${endpoint}?from=9&to=8`, 400, "INVALID_QUERY", /'from' \(9\) is after to \(8\)/);
    await expectError(
      `/networks/1/${endpoint}?window=24h`,
      400,
      "INVALID_QUERY",
      new RegExp(`'window' is not one that ${endpoint.replace(".", "\\.")} takes: it takes from and to\\.`),
    );
    await expectError(`/networks/6001/${endpoint}`, 400, "UNSUPPORTED_CHAIN");
    await expectError(`/networks/0x1/${endpoint}`, 400, "INVALID_CHAIN_ID");
    await expectError(`/networks/1/${endpoint}`, 401, "MISSING_API_KEY", undefined, {});
  }
});
