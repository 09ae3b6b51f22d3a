// GET /networks/{chainId}/baseFeeHistory.csv against the real server on an ephemeral port, over the real FeeService's
// histories (blocks written by a scripted feed and backfill): the CSV parses and round-trips to the blocks held, it is
// made only as fast as the client reads it, and a client that leaves stops it.
import assert from "node:assert/strict";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { test, type TestContext } from "node:test";
import type { ArrayBlock } from "../../../test/support/arrayHistoryView.ts";
import { type PlainAnswer, plainCall } from "../../../test/support/plainCall.ts";
import { type ScriptedService, scriptedService } from "../../../test/support/scriptedFeed.ts";
import { ApiKeyring } from "../../keys/apiKeyring.ts";
import { createLogger } from "../../log/logger.ts";
import { createApiServer } from "../server.ts";

const KEY = "0123456789abcdef0123456789abcdef";
const AUTH = { Authorization: `Basic ${Buffer.from(`${KEY}:`).toString("base64")}` };
const CHAIN = 1;
const ONE_BLOCK = 8453;
const SYNCING = 6000;
const HUGE = 42161;
const HEADER = "block,timestamp,base_fee_gwei,blob_base_fee_gwei,gas_used_ratio";

/**
 * The live (newest 500) blocks come with a blob base fee and a gas-used ratio, as an endpoint with EIP-4844 gives them;
 * the backfilled ones without (their cells are empty). Both functions of the block number, so a test can recompute them.
 */
const blobFeeOf = (block: bigint): bigint => 1n + ((block * 104_729n) % 90_000_000_000n);
const gasUsedRatioOf = (block: bigint): number => Number(block % 10_001n) / 10_000;

/** 2026-01-01T00:00:00Z. */
const START_SECONDS = 1_767_225_600;

/** Deterministic fees over the whole range of the store (1 wei to 2^63 - 1), most of them real-sized. */
function feeWei(index: number): bigint {
  if (index % 97 === 5) return 1n;
  if (index % 101 === 7) return 2n ** 63n - 1n;
  return 1_000_000_000n + ((BigInt(index) * 7_919_000_003n) % 60_000_000_000n);
}

/** Blocks 12 s apart with a gap, exact and interpolated (fractional) timestamps, and two blocks in one second. */
function heldBlocks(): ArrayBlock[] {
  const blocks: ArrayBlock[] = [];
  for (let index = 0; index < 3000; index++) {
    if (index >= 1000 && index < 1100) continue;
    const timestamp = START_SECONDS + index * 12 + (index % 7 === 2 ? 11.5 : 0) + (index === 2000 ? 0.25 : 0);
    blocks.push({ block: 19_000_000n + BigInt(index), timestamp, baseFeeWei: feeWei(index) });
  }
  // Another block in the same second as the one before it.
  blocks.push({ block: 19_003_000n, timestamp: blocks.at(-1)!.timestamp + 0.5, baseFeeWei: 3n });
  return blocks;
}

/** Gwei text back to wei, by string arithmetic: the inverse of the contract's Gwei strings. */
function weiOf(gweiText: string): bigint {
  assert.match(gweiText, /^(0|[1-9][0-9]*)(\.[0-9]*[1-9])?$/, `'${gweiText}' is not a contract Gwei string`);
  const [whole = "", fraction = ""] = gweiText.split(".");
  assert.ok(fraction.length <= 9, gweiText);
  return BigInt(whole) * 1_000_000_000n + BigInt(fraction.padEnd(9, "0"));
}

/** A CSV row: a held block, with its blob base fee and gas-used ratio where the line has them. */
interface CsvRow extends ArrayBlock {
  readonly blobBaseFeeWei: bigint | undefined;
  readonly gasUsedRatio: number | undefined;
}

/** The CSV's rows as blocks, checking the header and the line format. */
function parseCsv(text: string): CsvRow[] {
  assert.ok(text.endsWith("\n"), "every line ends with a newline");
  const [header, ...lines] = text.slice(0, -1).split("\n");
  assert.equal(header, HEADER);
  return lines.map((line) => {
    const cells = line.split(",");
    assert.equal(cells.length, 5, line);
    assert.match(cells[0]!, /^[0-9]+$/, line);
    assert.match(cells[1]!, /^[0-9]+$/, line);
    assert.match(cells[4]!, /^(|0|1|0\.[0-9]{0,3}[1-9])$/, line);
    return {
      block: BigInt(cells[0]!),
      timestamp: Number(cells[1]),
      baseFeeWei: weiOf(cells[2]!),
      blobBaseFeeWei: cells[3] === "" ? undefined : weiOf(cells[3]!),
      gasUsedRatio: cells[4] === "" ? undefined : Number(cells[4]),
    };
  });
}

/** The rows expected for blocks whose second lies in [from, to]; the newest 500 (the live ones) with blob fee and ratio. */
const expectedRows = (blocks: readonly ArrayBlock[], fromSeconds = -Infinity, toSeconds = Infinity): CsvRow[] =>
  blocks
    .map((block, index) => {
      const live = index >= blocks.length - 500;
      return {
        ...block,
        timestamp: Math.floor(block.timestamp),
        blobBaseFeeWei: live ? blobFeeOf(block.block) : undefined,
        gasUsedRatio: live ? gasUsedRatioOf(block.block) : undefined,
      };
    })
    .filter((block) => block.timestamp >= fromSeconds && block.timestamp <= toSeconds);

type Answer = PlainAnswer;

function call(port: number, path: string, options: { method?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  return plainCall(port, path, options.headers ?? AUTH, options.method);
}

/** A GET whose response the caller reads itself. */
function open(port: number, path: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, headers: AUTH, agent: false }, resolve);
    req.on("error", reject);
    req.end();
  });
}

/**
 * Backfills `chainId`'s history with consecutive runs of `blocks` (split where block numbers have gaps), each block
 * dated by its header: the history then holds exactly these blocks and times.
 */
function backfill(scripted: ScriptedService, chainId: number, blocks: readonly ArrayBlock[]): void {
  let start = 0;
  for (let index = 1; index <= blocks.length; index++) {
    if (index < blocks.length && blocks[index]!.block === blocks[index - 1]!.block + 1n) continue;
    const run = blocks.slice(start, index);
    scripted.backfillPage(chainId, {
      firstBlock: run[0]!.block,
      baseFeesWei: run.map((block) => block.baseFeeWei),
      anchors: run.map(({ block, timestamp }) => ({ block, timestamp })),
    });
    start = index;
  }
}

/**
 * A week of a 0.25 s chain, as large as the tests need: millions of lines, far more than any socket buffer holds;
 * backfilled as one page dated at its ends (the times between them, 0.25 s apart, interpolated exactly).
 */
function backfillHuge(scripted: ScriptedService, blocks: number): void {
  const baseFeesWei = BigUint64Array.from({ length: blocks }, (_, index) => 10_000_000n + BigInt(index % 1_000_003));
  const last = 300_000_000n + BigInt(blocks - 1);
  scripted.backfillPage(HUGE, {
    firstBlock: 300_000_000n,
    baseFeesWei,
    anchors: [
      { block: 300_000_000n, timestamp: START_SECONDS },
      { block: last, timestamp: START_SECONDS + (blocks - 1) * 0.25 },
    ],
  });
}

/** Counts the blocks the history of `chainId` hands out (to the export, in runs) from now on. */
function countHandedOut(t: TestContext, scripted: ScriptedService, chainId: number): { readonly blocks: number } {
  const history = scripted.service.history(chainId)!;
  const runs = history.runs.bind(history);
  const count = { blocks: 0 };
  t.mock.method(history, "runs", function* (fromSeconds: number, toSeconds: number) {
    for (const run of runs(fromSeconds, toSeconds)) {
      count.blocks += run.timestamps.length;
      yield run;
    }
  });
  return count;
}

/** The line of block `index` of the huge chain. */
const hugeLine = (index: number) =>
  `${300_000_000 + index},${Math.floor(START_SECONDS + index * 0.25)},${weiToGwei(10_000_000n + BigInt(index % 1_000_003))},,`;

function weiToGwei(wei: bigint): string {
  const digits = wei.toString().padStart(10, "0");
  const fraction = digits.slice(-9).replace(/0+$/, "");
  const whole = digits.slice(0, -9).replace(/^0+(?=\d)/, "");
  return fraction === "" ? whole : `${whole}.${fraction}`;
}

async function start(t: TestContext, hugeBlocks?: number) {
  const scripted = scriptedService([{ chainId: CHAIN }, { chainId: ONE_BLOCK }, { chainId: SYNCING }, { chainId: HUGE }]);
  // The feed brings the newest blocks with their headers; the backfill, the older ones.
  const blocks = heldBlocks();
  const live = blocks.slice(-500);
  scripted.write(
    CHAIN,
    live[0]!.block,
    live.map((block) => block.baseFeeWei),
    {
      anchors: live.map(({ block, timestamp }) => ({ block, timestamp })),
      blobBaseFeesWei: live.map(({ block }) => blobFeeOf(block)),
      gasUsedRatios: live.map(({ block }) => gasUsedRatioOf(block)),
    },
  );
  backfill(scripted, CHAIN, blocks.slice(0, -500));
  scripted.write(ONE_BLOCK, 1n, [5n], { newDataAt: START_SECONDS * 1000 });
  if (hugeBlocks !== undefined) backfillHuge(scripted, hugeBlocks);
  const server = createApiServer({
    source: scripted.service,
    keyring: new ApiKeyring([{ key: KEY }]),
    logger: createLogger("error", () => {}),
    port: 0,
    rateLimit: { requestsPerSecond: 0, burst: 1 },
  });
  const { port } = await server.listen();
  t.after(() => server.close());
  return { port, blocks, scripted };
}

test("the CSV holds every block held, oldest first, and round-trips: block, timestamp rounded down, exact Gwei", async (t) => {
  const { port, blocks } = await start(t);
  const answer = await call(port, "/networks/1/baseFeeHistory.csv");
  assert.equal(answer.status, 200, answer.body);
  assert.equal(answer.headers["content-type"], "text/csv; charset=utf-8");
  assert.equal(answer.headers["cache-control"], "no-store");
  assert.equal(answer.headers["transfer-encoding"], "chunked", "streamed, not sized ahead");
  const rows = parseCsv(answer.body);
  assert.deepEqual(rows, expectedRows(blocks));
  assert.equal(rows.length, 2901);
  assert.ok(rows.some((row) => row.baseFeeWei === 2n ** 63n - 1n) && rows.some((row) => row.baseFeeWei === 1n));
  // The key-in-path form answers the same.
  assert.equal((await call(port, `/v3/${KEY}/networks/1/baseFeeHistory.csv`, { headers: {} })).body, answer.body);
});

test("from and to keep the blocks whose second (as written) lies between them, both included", async (t) => {
  const { port, blocks } = await start(t);
  // Block 2 is at START + 24 + 11.5: its second, START + 35, is inside [START + 35, ...].
  for (const [fromSeconds, toSeconds] of [
    [START_SECONDS + 35, START_SECONDS + 35],
    [START_SECONDS + 35, START_SECONDS + 600],
    [START_SECONDS + 11_990, START_SECONDS + 13_250],
    [START_SECONDS - 100, START_SECONDS],
    [START_SECONDS + 999_999, START_SECONDS + 1_000_000],
  ] as const) {
    const answer = await call(port, `/networks/1/baseFeeHistory.csv?from=${fromSeconds}&to=${toSeconds}`);
    assert.deepEqual(parseCsv(answer.body), expectedRows(blocks, fromSeconds, toSeconds), `${fromSeconds}..${toSeconds}`);
  }
  assert.equal(parseCsv((await call(port, `/networks/1/baseFeeHistory.csv?from=${START_SECONDS + 35}&to=${START_SECONDS + 35}`)).body).length, 1);
  assert.deepEqual(
    parseCsv((await call(port, `/networks/1/baseFeeHistory.csv?to=${START_SECONDS + 12}`)).body),
    expectedRows(blocks, -Infinity, START_SECONDS + 12),
  );
  const last = blocks.at(-1)!;
  assert.deepEqual(
    parseCsv((await call(port, `/networks/1/baseFeeHistory.csv?from=${Math.floor(last.timestamp)}`)).body).map((row) => row.block),
    [last.block - 1n, last.block],
    "two blocks in the newest second",
  );
});

test("HEAD, a chain of one block, and the errors of a chain route and of its query", async (t) => {
  const { port } = await start(t);
  const head = await call(port, "/networks/1/baseFeeHistory.csv", { method: "HEAD" });
  assert.equal(head.status, 200);
  assert.equal(head.headers["content-type"], "text/csv; charset=utf-8");
  assert.equal(head.body, "");
  assert.equal((await call(port, `/networks/${ONE_BLOCK}/baseFeeHistory.csv`)).body, `${HEADER}\n1,${START_SECONDS},0.000000005,,\n`);

  const expectError = async (path: string, status: number, code: string, message?: RegExp, headers?: Record<string, string>) => {
    const answer = await call(port, path, headers === undefined ? {} : { headers });
    assert.equal(answer.status, status, `${path}: ${answer.body}`);
    const body = JSON.parse(answer.body) as { code: string; message: string };
    assert.equal(body.code, code, path);
    if (message) assert.match(body.message, message, path);
  };
  await expectError(
    "/networks/1/baseFeeHistory.csv?window=24h",
    400,
    "INVALID_QUERY",
    /'window' is not one that baseFeeHistory\.csv takes: it takes from and to\./,
  );
  await expectError(
    "/networks/1/baseFeeHistory.csv?from=abc",
    400,
    "INVALID_QUERY",
    /'from' is 'abc': it must be a whole number of unix seconds from 0 to 253402300799\./,
  );
  await expectError("/networks/1/baseFeeHistory.csv?from=9&to=8", 400, "INVALID_QUERY", /'from' \(9\) is after to \(8\)/);
  await expectError("/networks/1/baseFeeHistory.csv?to=1&to=2", 400, "INVALID_QUERY", /'to' is given more than once/);
  await expectError(`/networks/${SYNCING}/baseFeeHistory.csv`, 503, "NO_DATA");
  await expectError("/networks/6001/baseFeeHistory.csv", 400, "UNSUPPORTED_CHAIN");
  await expectError("/networks/1/baseFeeHistory.csv", 401, "MISSING_API_KEY", undefined, {});
});

test("backpressure: while the client does not read, the server stops making lines; when it reads again, every line arrives once", async (t) => {
  const blockCount = 1_500_000;
  const { port, scripted } = await start(t, blockCount);
  const handed = countHandedOut(t, scripted, HUGE);
  const res = await open(port, `/networks/${HUGE}/baseFeeHistory.csv`);
  assert.equal(res.statusCode, 200);
  res.pause();
  // Wait until the server has filled what the socket buffers hold and stopped: the count no longer grows.
  let handedOut = -1;
  let stillFor = 0;
  while (stillFor < 10) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    stillFor = handed.blocks === handedOut ? stillFor + 1 : 0;
    handedOut = handed.blocks;
  }
  // About 35 bytes a line: the socket buffers hold a few hundred thousand lines, not 1.5 million.
  assert.ok(handedOut < blockCount / 2, `${handedOut} of ${blockCount} blocks were read from the history while the client read nothing`);

  res.setEncoding("utf8");
  let pending = "";
  let lines = 0;
  const mismatches: string[] = [];
  for await (const chunk of res) {
    pending += chunk as string;
    const parts = pending.split("\n");
    pending = parts.pop()!;
    for (const line of parts) {
      const expected = lines === 0 ? HEADER : hugeLine(lines - 1);
      if (line !== expected && mismatches.length < 3) mismatches.push(`line ${lines}: ${line} instead of ${expected}`);
      lines++;
    }
  }
  assert.deepEqual(mismatches, []);
  assert.equal(pending, "");
  assert.equal(lines, blockCount + 1);
});

test("a client that disconnects stops the export: the history is read no further", async (t) => {
  const blockCount = 1_500_000;
  const { port, scripted } = await start(t, blockCount);
  const handed = countHandedOut(t, scripted, HUGE);
  const res = await open(port, `/networks/${HUGE}/baseFeeHistory.csv`);
  const first = await new Promise<string>((resolve) => res.once("data", (chunk: Buffer) => resolve(chunk.toString("utf8"))));
  assert.ok(first.startsWith(`${HEADER}\n`), first.slice(0, 80));
  res.destroy();
  // The server answers other requests meanwhile, and the export it had begun stays where the client left it.
  let handedOut = -1;
  let stillFor = 0;
  while (stillFor < 10) {
    assert.equal((await call(port, `/networks/${CHAIN}/baseFeeHistory.csv?from=0&to=0`)).status, 200);
    await new Promise((resolve) => setTimeout(resolve, 100));
    stillFor = handed.blocks === handedOut ? stillFor + 1 : 0;
    handedOut = handed.blocks;
  }
  assert.ok(handedOut < blockCount / 2, `${handedOut} of ${blockCount} blocks were read after the client left`);
});
