// Several endpoints of one chain, one of them lying with well-formed, self-consistent answers, against the real service
// (startLocalService: the real HTTP server, feeds, backfill, contract reads and history store on a file), seen through
// its HTTP API and its store. The endpoints are the project's stand-in JSON-RPC server (test/support/syntheticChainServer.ts),
// which lies on purpose: every base fee doubled (headers too, so each answer agrees with itself), or another price.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { decodeFunctionData, encodeFunctionResult, formatGwei } from "viem";
import type { RunningService } from "../../shared/app/startService.ts";
import { GAS_PRICE_ORACLE_ABI } from "../../shared/rpc/contracts/l1FeeReads.ts";
import { AGGREGATOR_V3_ABI } from "../../shared/rpc/contracts/priceFeedReads.ts";
import type { ChainPlan } from "../../shared/service/chainPlan.ts";
import type { NetworkStatus } from "../../shared/wire/networkStatus.ts";
import { callApi } from "../support/apiClient.ts";
import { startLocalService } from "../support/startLocalService.ts";
import { startSyntheticChainServer, type SyntheticChainOptions, type SyntheticChainServer } from "../support/syntheticChainServer.ts";
import { waitFor } from "../support/waitFor.ts";

const KEY = "0123456789abcdef0123456789abcdef";
const LONG_MS = 90_000;
const dir = mkdtempSync(join(tmpdir(), "gasfees-lying-endpoints-"));
const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  rmSync(dir, { recursive: true, force: true });
});

const honestFee = (block: bigint) => 1_000_000_000n + ((block * 7_919n) % 50_000_000_000n);
const doubledFee = (block: bigint) => 2n * honestFee(block);

/** A chain whose newest block `head` is dated now, 12 s apart: the horizon counts back from it. */
async function chain(chainId: number, head: bigint, extra: Partial<SyntheticChainOptions> = {}): Promise<SyntheticChainServer> {
  const nowS = Math.floor(Date.now() / 1000);
  const server = await startSyntheticChainServer({ chainId, head, timestampOf: (block) => nowS - Number(head - block) * 12, baseFeeOf: honestFee, ...extra });
  cleanups.push(() => server.close());
  return server;
}

async function service(plans: readonly ChainPlan[], historyFile: string, extras: Parameters<typeof startLocalService>[2] = {}): Promise<RunningService> {
  const running = await startLocalService(plans, [{ key: KEY }], { historyFile, backfill: { requestsPerSecond: Number.POSITIVE_INFINITY }, ...extras });
  // stop() may be called twice (the test's, then the cleanup's): the service stops once.
  const stop = running.stop.bind(running);
  let stopping: Promise<void> | undefined;
  const stopOnce = () => (stopping ??= stop());
  cleanups.push(stopOnce);
  return Object.assign(running, { stop: stopOnce });
}

async function network(running: RunningService, chainId: number): Promise<NetworkStatus> {
  const answer = await callApi<NetworkStatus[]>(running.url, "/networks", KEY);
  assert.equal(answer.status, 200);
  return answer.body.find((entry) => entry.chainId === chainId)!;
}

/** The CSV's rows (block, fee in Gwei). */
async function csvRows(running: RunningService, chainId: number): Promise<{ block: bigint; gwei: string }[]> {
  const answer = await fetch(`${running.url}/networks/${chainId}/baseFeeHistory.csv`, {
    headers: { authorization: `Basic ${Buffer.from(`${KEY}:`).toString("base64")}` },
  });
  assert.equal(answer.status, 200);
  return (await answer.text())
    .trim()
    .split("\n")
    .slice(1)
    .map((line) => {
      const [block = "", , gwei = ""] = line.split(",");
      return { block: BigInt(block), gwei };
    });
}

/** Every block the CSV holds has the honest chain's base fee; says how many were doubled otherwise. */
async function assertNoLie(running: RunningService, chainId: number, what: string): Promise<number> {
  const rows = await csvRows(running, chainId);
  const doubled = rows.filter((row) => row.gwei === formatGwei(doubledFee(row.block))).length;
  const wrong = rows.filter((row) => row.gwei !== formatGwei(honestFee(row.block)));
  assert.equal(wrong.length, 0, `${what}: ${wrong.length} of ${rows.length} blocks not the honest chain's (${doubled} doubled), from block ${wrong[0]?.block}`);
  return rows.length;
}

test(
  "a backfill with one endpoint of two doubling every base fee keeps no doubled block, during its run and after a restart without it",
  { timeout: 240_000 },
  async () => {
    const chainId = 71_001;
    const head = 50_000n;
    const honest = await chain(chainId, head);
    const liar = await chain(chainId, head, { baseFeeOf: doubledFee });
    const historyFile = join(dir, "backfill.sqlite");
    // 12 hours of 12 s blocks: 3,601 blocks, the newest 500 from the feed and about 3,100 (four pages) backfilled.
    const plan = (rpcUrls: string[]): ChainPlan => ({ chainId, name: "Doubled", rpcUrls, blockTimeMs: 12_000, pollIntervalMs: 500, historyHorizon: "12h" });
    const first = await service([plan([honest.url, liar.url])], historyFile);
    const done = await waitFor(
      "the backfill done",
      async () => {
        const status = await network(first, chainId);
        return status.history.backfill.progress === 1 && !status.history.backfill.running ? status : undefined;
      },
      { timeoutMs: LONG_MS, everyMs: 100 },
    );
    assert.ok(done.history.blocks >= 3_500, `the horizon held (${done.history.blocks} blocks)`);
    const held = await assertNoLie(first, chainId, "during the first run");
    await first.stop();

    const second = await service([plan([honest.url])], historyFile);
    await waitFor("the restart's data", async () => ((await network(second, chainId)).newestBlock === String(head) ? true : undefined), { timeoutMs: LONG_MS });
    assert.ok((await assertNoLie(second, chainId, "after a restart with the honest endpoint alone")) >= held);
    await second.stop();
  },
);

/** When the aggregators' round 7 was written: a minute before the tests started. */
const ROUND_UPDATED_AT = BigInt(Math.floor(Date.now() / 1000) - 60);

/** A Chainlink aggregator's answers (AggregatorV3Interface) quoting `price` (8 decimals) in its round 7, its newest. */
function aggregator(price: bigint): SyntheticChainOptions["ethCall"] {
  return (data) => {
    const call = decodeFunctionData({ abi: AGGREGATOR_V3_ABI, data: data as `0x${string}` });
    const round = [7n, price, ROUND_UPDATED_AT, ROUND_UPDATED_AT, 7n] as const;
    if (call.functionName === "description")
      return { result: encodeFunctionResult({ abi: AGGREGATOR_V3_ABI, functionName: "description", result: "ETH / USD" }) };
    if (call.functionName === "decimals") return { result: encodeFunctionResult({ abi: AGGREGATOR_V3_ABI, functionName: "decimals", result: 8 }) };
    if (call.functionName === "latestRoundData")
      return { result: encodeFunctionResult({ abi: AGGREGATOR_V3_ABI, functionName: "latestRoundData", result: round }) };
    if (call.functionName === "getRoundData" && call.args[0] === 7n)
      return { result: encodeFunctionResult({ abi: AGGREGATOR_V3_ABI, functionName: "getRoundData", result: round }) };
    return { error: { code: 3, message: "execution reverted: No data present" } };
  };
}

const FEED_ADDRESS = "0x5f4eC3Df9cbd43714FE2740f5E3616155c5b8419";
const pricedPlan = (chainId: number, rpcUrls: string[]): ChainPlan => ({
  chainId,
  name: "Priced",
  rpcUrls,
  blockTimeMs: 12_000,
  pollIntervalMs: 300,
  historyHorizon: "1h",
  priceFeed: { address: FEED_ADDRESS, token: "ETH", description: "ETH / USD", heartbeatSeconds: 3600 },
});

test("the money readers skip an endpoint the feed set aside as suspect: its price is not read, the honest one's is", { timeout: 120_000 }, async () => {
  const chainId = 71_002;
  const head = 10_000n;
  // The liar is listed first: the feed follows it until its head falls back 1,000 blocks, deeper than the chain reorganises.
  const liar = await chain(chainId, head, { ethCall: aggregator(30_000_000_000_000_000n) });
  const honest = await chain(chainId, head, { ethCall: aggregator(300_000_000_000n) });
  const plan = pricedPlan(chainId, [liar.url, honest.url]);
  const running = await service([plan], join(dir, "money.sqlite"), { backfill: false, costReads: { intervalMs: 200 } });
  await waitFor("the feed on the first endpoint", async () => ((await network(running, chainId)).endpoints[0]?.active === true ? true : undefined), {
    timeoutMs: LONG_MS,
  });
  liar.head = head - 1_000n;
  const setAside = await waitFor(
    "the first endpoint set aside",
    async () => {
      const status = await network(running, chainId);
      return status.endpoints[0]?.state === "suspect" ? status : undefined;
    },
    { timeoutMs: LONG_MS, everyMs: 50 },
  );
  assert.match(setAside.endpoints[0]!.lastError ?? "", /set aside/);
  const liarCalls = liar.calls("eth_call");
  await running.costReaders.readAll();
  await running.costReaders.readAll();
  const status = await network(running, chainId);
  assert.equal(status.price?.value, "3000", `the honest endpoint's price (problem: ${status.priceProblem})`);
  assert.equal(liar.calls("eth_call"), liarCalls, "no contract read reached the endpoint set aside");
  await running.stop();
});

test(
  "of three endpoints, the one the feed followed that doubles every base fee is set aside by the cross-check, and every block it supplied is replaced",
  { timeout: 240_000 },
  async () => {
    const chainId = 71_003;
    const head = 30_000n;
    const liar = await chain(chainId, head, { baseFeeOf: doubledFee });
    const first = await chain(chainId, head);
    const second = await chain(chainId, head);
    const historyFile = join(dir, "outlier.sqlite");
    // The liar is listed first: the feed follows it, and the backfill reads from it, until the endpoints are compared.
    const plan: ChainPlan = {
      chainId,
      name: "Outlier",
      rpcUrls: [liar.url, first.url, second.url],
      blockTimeMs: 12_000,
      pollIntervalMs: 300,
      historyHorizon: "4h",
    };
    const running = await service([plan], historyFile);
    const setAside = await waitFor(
      "the liar set aside",
      async () => {
        const status = await network(running, chainId);
        return status.endpoints[0]?.setAsideFor === "disagrees" ? status : undefined;
      },
      { timeoutMs: LONG_MS, everyMs: 50 },
    );
    assert.equal(setAside.endpoints[0]!.state, "suspect");
    assert.match(setAside.endpoints[0]!.lastError ?? "", /differs from the chain's other endpoints: block \d+: base fee \d+ wei, hash 0x[0-9a-f]{64} at http/);
    assert.notEqual(setAside.disputed, true, "a majority settles it: no dispute");
    await waitFor(
      "every block honest, the horizon held",
      async () => {
        const status = await network(running, chainId);
        if (status.history.backfill.running || status.history.backfill.progress < 1) return undefined;
        const rows = await csvRows(running, chainId);
        return rows.every((row) => row.gwei === formatGwei(honestFee(row.block))) ? rows : undefined;
      },
      { timeoutMs: LONG_MS, everyMs: 200 },
    );
    assert.ok((await assertNoLie(running, chainId, "after the liar was found")) >= 1_200);
    await running.stop();
    const again = await service([{ ...plan, rpcUrls: [first.url] }], historyFile, { backfill: false });
    await waitFor("the restart's data", async () => ((await network(again, chainId)).newestBlock === String(head) ? true : undefined), { timeoutMs: LONG_MS });
    await assertNoLie(again, chainId, "after a restart without the liar");
    await again.stop();
  },
);

test(
  "two endpoints, two stories: the chain is disputed in /networks, the X-Data-Disputed header and /metrics; neither is set aside",
  { timeout: 120_000 },
  async () => {
    const chainId = 71_004;
    const head = 20_000n;
    const liar = await chain(chainId, head, { baseFeeOf: doubledFee });
    const honest = await chain(chainId, head);
    const plan: ChainPlan = { chainId, name: "Disputed", rpcUrls: [honest.url, liar.url], blockTimeMs: 12_000, pollIntervalMs: 300, historyHorizon: "1h" };
    const running = await service([plan], join(dir, "disputed.sqlite"), { backfill: false });
    const status = await waitFor(
      "the chain disputed",
      async () => ((await network(running, chainId)).disputed === true ? network(running, chainId) : undefined),
      {
        timeoutMs: LONG_MS,
        everyMs: 50,
      },
    );
    assert.equal(status.disputes?.length, 1);
    assert.match(
      status.disputes[0]!,
      /^block \d+: base fee \d+ wei, hash 0x[0-9a-f]{64} at http:\/\/127\.0\.0\.1:\d+, base fee \d+ wei, hash 0x[0-9a-f]{64} at http/,
    );
    for (const endpoint of status.endpoints) {
      assert.equal(endpoint.setAsideFor, undefined, "neither is set aside: nothing says which is right");
      assert.notEqual(endpoint.state, "suspect");
    }
    const answer = await callApi(running.url, `/networks/${chainId}/busyThreshold`, KEY);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get("x-data-disputed"), "true");
    const metrics = await fetch(`${running.url}/metrics`, { headers: { authorization: `Basic ${Buffer.from(`${KEY}:`).toString("base64")}` } });
    assert.match(await metrics.text(), new RegExp(`gasfees_chain_disputed\\{[^}]*"${chainId}"[^}]*\\} 1`));
    await running.stop();
  },
);

test(
  "of three endpoints, the one quoting a price 10,000 times the others' is set aside by the round's cross-check; the price is the others'",
  { timeout: 120_000 },
  async () => {
    const chainId = 71_005;
    const head = 10_000n;
    // The liar is listed first: the contract reads ask it first.
    const liar = await chain(chainId, head, { ethCall: aggregator(3_000_000_000_000_000n) });
    const first = await chain(chainId, head, { ethCall: aggregator(300_000_000_000n) });
    const second = await chain(chainId, head, { ethCall: aggregator(300_000_000_000n) });
    const running = await service([pricedPlan(chainId, [liar.url, first.url, second.url])], join(dir, "price-outlier.sqlite"), {
      backfill: false,
      costReads: { intervalMs: 60_000 },
    });
    await waitFor("data", async () => ((await network(running, chainId)).newestBlock === String(head) ? true : undefined), { timeoutMs: LONG_MS });
    await running.costReaders.readAll();
    const status = await network(running, chainId);
    assert.equal(status.price?.value, "3000", `the others' price (problem: ${status.priceProblem})`);
    assert.equal(status.endpoints[0]!.setAsideFor, "disagrees");
    assert.match(status.endpoints[0]!.lastError ?? "", /round 7 of the price feed 0x[0-9a-fA-F]{40}: 3000000000000000 updated at \d+ at http/);
    await running.stop();
  },
);

test("two endpoints quoting two prices for the same round: no price, the dispute said, the chain disputed", { timeout: 120_000 }, async () => {
  const chainId = 71_006;
  const head = 10_000n;
  const liar = await chain(chainId, head, { ethCall: aggregator(3_000_000_000_000_000n) });
  const honest = await chain(chainId, head, { ethCall: aggregator(300_000_000_000n) });
  const running = await service([pricedPlan(chainId, [honest.url, liar.url])], join(dir, "price-dispute.sqlite"), {
    backfill: false,
    costReads: { intervalMs: 60_000 },
  });
  await waitFor("data", async () => ((await network(running, chainId)).newestBlock === String(head) ? true : undefined), { timeoutMs: LONG_MS });
  await running.costReaders.readAll();
  const status = await waitFor("the chain disputed", async () => {
    const current = await network(running, chainId);
    return current.disputed === true ? current : undefined;
  });
  assert.equal(status.price, null);
  assert.match(status.priceProblem ?? "", /endpoints disagree on the price and no majority settles it: round 7 of the price feed/);
  assert.ok(status.disputes?.some((dispute) => /round 7 of the price feed/.test(dispute)));
  await running.stop();
});

/** The OP stack's GasPriceOracle answering every getL1Fee with `fee`. */
function oracle(fee: bigint): SyntheticChainOptions["ethCall"] {
  return () => ({ result: encodeFunctionResult({ abi: GAS_PRICE_ORACLE_ABI, functionName: "getL1Fee", result: fee }) });
}

test("of three rollup endpoints, the one whose L1 fee is 1,000 times the others' is set aside; the fee used is the others'", { timeout: 120_000 }, async () => {
  const chainId = 71_007;
  const head = 10_000n;
  const liar = await chain(chainId, head, { ethCall: oracle(1_000_000_000_000n) });
  const first = await chain(chainId, head, { ethCall: oracle(1_000_000_000n) });
  const second = await chain(chainId, head, { ethCall: oracle(1_000_000_000n) });
  const plan: ChainPlan = {
    chainId,
    name: "Rollup",
    rpcUrls: [liar.url, first.url, second.url],
    blockTimeMs: 2_000,
    pollIntervalMs: 300,
    historyHorizon: "1h",
    priceFeed: false,
    l1FeeKind: "op-stack",
  };
  const running = await service([plan], join(dir, "l1-outlier.sqlite"), { backfill: false, costReads: { intervalMs: 60_000 } });
  await waitFor("data", async () => ((await network(running, chainId)).newestBlock === String(head) ? true : undefined), { timeoutMs: LONG_MS });
  await running.costReaders.readAll();
  const money = running.service.get(chainId)!.money;
  assert.equal(money.l1FeeProblem, null);
  assert.ok(money.l1Fees !== undefined && [...money.l1Fees.values()].every((fee) => fee === 1_000_000_000n), "the others' fee");
  const status = await network(running, chainId);
  assert.equal(status.endpoints[0]!.setAsideFor, "disagrees");
  assert.match(status.endpoints[0]!.lastError ?? "", /the L1 fee of a \d+-byte transaction: about 1000000000000 wei at http/);
  await running.stop();
});
