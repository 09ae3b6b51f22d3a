// GET /networks/{chainId}/outlook on the real server, over the real FeeService with scripted feeds (no RPC): its
// errors, the 422 before 14 days, the three thresholds, ETag, the hour closing, and a long backtest sharing the loop.
import assert from "node:assert/strict";
import { test, type TestContext } from "node:test";
import { syntheticHours } from "../../../test/support/hourlySummaries.ts";
import { scriptedService, type ScriptedServiceOptions } from "../../../test/support/scriptedFeed.ts";
import { waitFor } from "../../../test/support/waitFor.ts";
import { createDefaultEstimator } from "../../core/outlook/defaultEstimator.ts";
import type { HourlySummary } from "../../core/outlook/hourlySummary.ts";
import { pooledBacktestSlices, runToEnd } from "../../core/outlook/outlookBacktestSlices.ts";
import { ApiKeyring } from "../../keys/apiKeyring.ts";
import { createLogger } from "../../log/logger.ts";
import type { ChainMoney } from "../../service/chainMoney.ts";
import { outlookBodySchema, type OutlookBody } from "../../wire/outlook.ts";
import type { Costs } from "../../wire/costs.ts";
import { createApiServer } from "../server.ts";

const KEY = "0123456789abcdef0123456789abcdef";
const AUTH = { Authorization: `Basic ${Buffer.from(`${KEY}:`).toString("base64")}` };
const MAINNET = 1;
const YOUNG = 8453;
const SYNCING = 6000;
const LEGACY = 56;
/** 2026-01-01T00:00:00Z: the summaries start here. */
const START = 1_767_225_600;
const DAYS = 30;
/** The newest block: ten minutes into the hour after the summaries' newest. */
const NOW_S = START + DAYS * 86_400 + 600;
const CURRENT_WEI = 20_000_000_000n;
const GWEI = 1_000_000_000n;

interface Started {
  url: string;
  scripted: ReturnType<typeof scriptedService>;
  hours: HourlySummary[];
}

async function start(t: TestContext, options: ScriptedServiceOptions = {}, hours = syntheticHours(START, DAYS * 24, 4)): Promise<Started> {
  const scripted = scriptedService(
    [{ chainId: MAINNET, name: "Ethereum" }, { chainId: YOUNG, name: "Base", blockTimeMs: 2000 }, { chainId: SYNCING }, { chainId: LEGACY, noBaseFee: true }],
    { now: () => NOW_S * 1000, ...options },
  );
  const fees = Array.from({ length: 50 }, (_, index) => 15n * GWEI + BigInt(index) * 100_000_000n);
  scripted.write(MAINNET, 21_000_000n, fees, { newDataAt: NOW_S * 1000, nextBaseFeeWei: CURRENT_WEI });
  scripted.write(YOUNG, 0n, fees, { newDataAt: NOW_S * 1000, nextBaseFeeWei: CURRENT_WEI });
  scripted.service.writeHourlySummaries(MAINNET, hours);
  scripted.service.writeHourlySummaries(YOUNG, hours.slice(-(13 * 24)));
  const server = createApiServer({
    source: scripted.service,
    keyring: new ApiKeyring([{ key: KEY }]),
    logger: createLogger("error", () => undefined),
    port: 0,
    rateLimit: { requestsPerSecond: 0, burst: 1 },
    now: () => NOW_S * 1000,
  });
  const { url } = await server.listen();
  t.after(async () => {
    await server.close();
    await scripted.service.stop();
  });
  return { url, scripted, hours };
}

async function get(url: string, path: string, headers: Record<string, string> = AUTH, method = "GET") {
  const response = await fetch(`${url}${path}`, { headers, method });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

async function outlook(url: string, query: string): Promise<OutlookBody> {
  const answer = await get(url, `/networks/1/outlook${query}`);
  assert.equal(answer.status, 200, answer.text);
  return outlookBodySchema.parse(JSON.parse(answer.text));
}

/** The default estimator fed every hour, as an independent reference of the service's live one. */
function referenceForecast(hours: readonly HourlySummary[], withinHours: number) {
  const estimator = createDefaultEstimator();
  for (const hour of hours) estimator.observe(hour);
  return estimator.forecast({ timestamp: NOW_S, baseFee: CURRENT_WEI }, withinHours);
}

/** Exact wei of a Gwei string, by string arithmetic. */
function weiOf(gwei: string): bigint {
  const [whole = "0", fraction = ""] = gwei.split(".");
  return BigInt(whole + fraction.padEnd(9, "0"));
}

function assertInvalidQuery(answer: { status: number; text: string }, parameter: string, range?: RegExp): void {
  assert.equal(answer.status, 400, answer.text);
  const body = JSON.parse(answer.text) as { code: string; message: string };
  assert.equal(body.code, "INVALID_QUERY");
  assert.match(body.message, new RegExp(`^The query parameter '${parameter}' `), body.message);
  if (range !== undefined) assert.match(body.message, range);
}

test("fewer than 14 days of summaries: 422 NOT_ENOUGH_HISTORY with held and needed; 14 days: 200", async (t) => {
  const { url, scripted, hours } = await start(t);
  const refused = await get(url, "/networks/8453/outlook?within=6h");
  assert.equal(refused.status, 422);
  const body = JSON.parse(refused.text) as Record<string, unknown>;
  assert.deepEqual(Object.keys(body), ["statusCode", "code", "message", "held", "needed"]);
  assert.deepEqual({ ...body, message: undefined }, { statusCode: 422, code: "NOT_ENOUGH_HISTORY", message: undefined, held: "13d", needed: "14d" });
  assert.match(body["message"] as string, /14 days/);
  scripted.service.writeHourlySummaries(YOUNG, hours.slice(-(14 * 24 - 1)));
  assert.equal((JSON.parse((await get(url, "/networks/8453/outlook")).text) as { held: string }).held, "335h");
  scripted.service.writeHourlySummaries(YOUNG, hours.slice(-(14 * 24)));
  const answered = await get(url, "/networks/8453/outlook");
  assert.equal(answered.status, 200, answered.text);
  assert.equal(outlookBodySchema.parse(JSON.parse(answered.text)).basis.hours, 336);
});

test("the body: now, the lowest fee's quantiles at the current fee, the basis and the backtest of H, below null without a threshold", async (t) => {
  const { url, hours } = await start(t);
  const body = await outlook(url, "?within=6h");
  assert.deepEqual(body.at, { block: "21000049", timestamp: NOW_S, baseFee: "20" });
  assert.equal(body.chainId, "1");
  assert.equal(body.within, "6h");
  assert.equal(body.below, null);
  const reference = referenceForecast(hours, 6);
  for (const [name, q] of [
    ["p10", 0.1],
    ["p50", 0.5],
    ["p90", 0.9],
  ] as const) {
    const expected = Number(CURRENT_WEI) * reference.quantileRatio(q);
    assert.ok(Math.abs(Number(weiOf(body.lowest[name])) - expected) <= 0.5, `${name}: ${body.lowest[name]} against ${expected} wei`);
  }
  assert.deepEqual(body.basis, { from: START, to: START + DAYS * 86_400, hours: DAYS * 24, sampledHours: 0, weeks: 4.3 });
  assert.deepEqual(body.backtest, runToEnd(pooledBacktestSlices(hours, createDefaultEstimator, 6)));
  assert.ok(body.backtest.forecasts > 0);
  // Without within: 6 hours.
  assert.deepEqual(await outlook(url, ""), body);
  assert.equal((await outlook(url, "?within=1d")).within, "24h");
});

test("the three thresholds: Gwei, a ratio of the current fee rounded to whole wei, and an action's medium cost in money", async (t) => {
  const { url, scripted, hours } = await start(t);
  const reference = referenceForecast(hours, 12);
  const gwei = await outlook(url, "?within=12h&below=17.5");
  assert.equal(gwei.below!.baseFee, "17.5");
  assert.equal(gwei.below!.probability, Math.round(reference.probabilityAtOrBelow(0.875) * 10_000) / 10_000);

  const ratio = await outlook(url, "?within=12h&belowRatio=0.333333333333");
  // 0.333333333333 x 20 Gwei = 6.66666666666 Gwei: 6666666666.66 wei, rounded to 6666666667.
  assert.equal(ratio.below!.baseFee, "6.666666667");
  assert.equal((await outlook(url, "?within=12h&belowRatio=1")).below!.baseFee, "20");
  assert.equal((await outlook(url, "?within=12h&belowRatio=0")).below!.baseFee, "0");

  const noPrice = await get(url, "/networks/1/outlook?action=transfer&fiat=1.50");
  assertInvalidQuery(noPrice, "fiat", /no price/);
  const money: ChainMoney = {
    currency: "USD",
    price: {
      shown: { value: "3012.34567891", token: "ETH", feed: "0x5f4eC3Df9cbd43714FE2740f5E3616155c5b8419", feedChainId: 1, updatedAt: NOW_S },
      feedPrice: { answer: 301_234_567_891n, decimals: 8, updatedAt: NOW_S },
    },
    priceProblem: null,
    l1FeeKind: "none",
    l1Fees: undefined,
    l1FeeProblem: null,
  };
  scripted.service.setMoney(MAINNET, money);
  const fiat = await outlook(url, "?within=12h&action=swap&fiat=7.25");
  // /costs' own arithmetic: medium wei = gas x (base fee + medium tip) + L1 fee; money = wei x answer / 10^(18 + decimals).
  const costs = JSON.parse((await get(url, "/networks/1/costs")).text) as Costs;
  const swap = costs.actions.find((action) => action.id === "swap")!;
  const gas = BigInt(swap.gas);
  const tip = (BigInt(swap.medium.wei) - BigInt(swap.l1FeeWei ?? "0")) / gas - CURRENT_WEI;
  const threshold = weiOf(fiat.below!.baseFee);
  const moneyAt = (baseFee: bigint) => gas * (baseFee + tip) * 301_234_567_891n; // x 10^-26 USD
  const fiatScaled = 725n * 10n ** 24n; // 7.25 USD x 10^26
  assert.ok(moneyAt(threshold) <= fiatScaled, "the threshold's medium cost is within the amount");
  assert.ok(moneyAt(threshold + 1n) > fiatScaled, "one wei more costs more than the amount");
  assert.ok(fiat.below!.probability >= 0 && fiat.below!.probability <= 1);
});

test("every error of the route, each message naming the parameter and what it takes", async (t) => {
  const { url } = await start(t);
  const q = (query: string) => get(url, `/networks/1/outlook?${query}`);
  assertInvalidQuery(await q("within=0h"), "within", /1h to 7d/);
  assertInvalidQuery(await q("within=90m"), "within", /whole hours/);
  assertInvalidQuery(await q("within=8d"), "within", /1h to 7d/);
  assertInvalidQuery(await q("within=soon"), "within", /not a duration/);
  assertInvalidQuery(await q("within=6h&within=3h"), "within", /more than once/);
  assertInvalidQuery(await q("below=-1"), "below", /negative/);
  assertInvalidQuery(await q("below=1e3"), "below", /exponent/);
  assertInvalidQuery(await q("below=0.0000000001"), "below", /decimals/);
  assertInvalidQuery(await q("belowRatio=1.5"), "belowRatio", /from 0 to 1/);
  assertInvalidQuery(await q("belowRatio=-0.5"), "belowRatio", /from 0 to 1/);
  assertInvalidQuery(await q("below=10&belowRatio=0.5"), "belowRatio", /at most one/);
  assertInvalidQuery(await q("below=10&action=transfer&fiat=1"), "action/fiat", /at most one/);
  assertInvalidQuery(await q("action=teleport&fiat=1"), "action", /transfer, erc20-transfer, swap, nft-transfer/);
  assertInvalidQuery(await q("fiat=1"), "action", /is missing/);
  assertInvalidQuery(await q("action=transfer"), "fiat", /is missing/);
  assertInvalidQuery(await q("action=transfer&fiat=1.123456789"), "fiat", /8 decimals/);
  assertInvalidQuery(await q("threshold=5"), "threshold", /within, below, belowRatio, action and fiat/);
  const code = async (path: string, headers?: Record<string, string>) => (JSON.parse((await get(url, path, headers)).text) as { code: string }).code;
  assert.equal(await code("/networks/6001/outlook"), "UNSUPPORTED_CHAIN");
  assert.equal(await code("/networks/0x1/outlook"), "INVALID_CHAIN_ID");
  assert.equal(await code(`/networks/${SYNCING}/outlook`), "NO_DATA");
  assert.equal(await code(`/networks/${LEGACY}/outlook`), "NO_BASE_FEE");
  assert.equal(await code("/networks/1/outlook", {}), "MISSING_API_KEY");
  // A malformed query is told even where there is no data yet.
  assertInvalidQuery(await get(url, `/networks/${SYNCING}/outlook?within=0h`), "within");
});

test("ETag and 304, HEAD, and the /v3/{key} form", async (t) => {
  const { url } = await start(t);
  const first = await get(url, "/networks/1/outlook?within=3h&belowRatio=0.9");
  assert.equal(first.status, 200);
  const etag = first.headers.get("etag")!;
  assert.match(etag, /^"[A-Za-z0-9_-]{22}"$/);
  assert.equal(first.headers.get("x-block-number"), "21000049");
  const again = await get(url, "/networks/1/outlook?within=3h&belowRatio=0.9", { ...AUTH, "If-None-Match": etag });
  assert.equal(again.status, 304);
  assert.equal(again.text, "");
  const other = await get(url, "/networks/1/outlook?within=3h&belowRatio=0.8", { ...AUTH, "If-None-Match": etag });
  assert.equal(other.status, 200, "another threshold is another body");
  const head = await get(url, "/networks/1/outlook?within=3h&belowRatio=0.9", AUTH, "HEAD");
  assert.equal(head.status, 200);
  assert.equal(head.text, "");
  assert.equal(head.headers.get("etag"), etag);
  assert.equal(head.headers.get("content-length"), String(Buffer.byteLength(first.text)));
  const inPath = await get(url, `/v3/${KEY}/networks/1/outlook?within=3h&belowRatio=0.9`, {});
  assert.equal(inPath.status, 200);
  assert.equal(inPath.text, first.text);
});

test("an hour closing changes the outlook: its basis, its forecast's input and its backtest", async (t) => {
  const { url, scripted, hours } = await start(t);
  const before = await get(url, "/networks/1/outlook?within=1h");
  const body = outlookBodySchema.parse(JSON.parse(before.text));
  // The next hour closes on a fee far below: the lowest of the last hour drops, and so does the forecast.
  const closing = { ...syntheticHours(START + DAYS * 86_400, 1, 77)[0]!, min: 1_000_000_000n };
  const more = [...hours, closing];
  scripted.service.writeHourlySummaries(MAINNET, more);
  const after = await get(url, "/networks/1/outlook?within=1h", { ...AUTH, "If-None-Match": before.headers.get("etag")! });
  assert.equal(after.status, 200);
  const next = outlookBodySchema.parse(JSON.parse(after.text));
  assert.equal(next.basis.to, body.basis.to + 3600);
  assert.equal(next.basis.hours, body.basis.hours + 1);
  assert.notDeepEqual(next.lowest, body.lowest);
  // The backtest follows once the new hour's is prepared.
  await scripted.service.outlook(MAINNET)!.whenIdle();
  assert.deepEqual((await outlook(url, "?within=1h")).backtest, runToEnd(pooledBacktestSlices(more, createDefaultEstimator, 1)));
});

test("a horizon not prepared yet is answered after its slices, while another client's busyThreshold is answered in between", async (t) => {
  // A year of summaries, a millisecond of work a turn: the 100-hour backtest takes many turns of the event loop.
  const { url, scripted, hours } = await start(t, { outlook: { sliceMs: 1 } }, syntheticHours(START - 335 * 86_400, 365 * 24, 8));
  const prepared = scripted.service.outlook(MAINNET)!;
  await prepared.whenIdle();
  const events: string[] = [];
  const slow = get(url, "/networks/1/outlook?within=100h").then((answer) => {
    events.push("outlook");
    return answer;
  });
  await waitFor("the 100-hour backtest to start", () => prepared.pendingJobs > 0 || undefined);
  const busy = await get(url, "/networks/1/busyThreshold");
  events.push(`busyThreshold (outlook slices pending: ${prepared.pendingJobs > 0})`);
  assert.equal(busy.status, 200);
  const answer = await slow;
  assert.deepEqual(events, ["busyThreshold (outlook slices pending: true)", "outlook"]);
  assert.equal(answer.status, 200, answer.text);
  const body = outlookBodySchema.parse(JSON.parse(answer.text));
  assert.deepEqual(body.backtest, runToEnd(pooledBacktestSlices(hours, createDefaultEstimator, 100)));
});
