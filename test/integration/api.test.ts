// End to end: the real service (startService, as `npm run serve` runs it) on an ephemeral port, following real Hardhat
// nodes whose blocks carry real mainnet base fees, compared with values computed here from the same data. The main
// chain's statistics window (600 blocks) is wider than its history (500), as a user's `statsWindowBlocks` makes it,
// and its RPC URL carries a provider's key, a query secret and a password, as real ones do.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { loadMainnetBaseFees } from "../../shared/demo/mainnetBaseFees.ts";
import { type EvmNode, startEvmNode } from "../../shared/demo/startEvmNode.ts";
import type { RunningService } from "../../shared/app/startService.ts";
import type { NetworkStatus } from "../../shared/wire/networkStatus.ts";
import { callApi } from "../support/apiClient.ts";
import { waitFor } from "../support/waitFor.ts";
import { type FaultProxy, startFaultProxy } from "../support/faultProxy.ts";
import { expectedGwei, expectedPercentile } from "../support/independentFees.ts";
import { startLocalService } from "../support/startLocalService.ts";

const KEY = "0123456789abcdef0123456789abcdef";
const SECRET_KEY = "fedcba9876543210fedcba9876543210";
const SECRET = "correct horse battery staple";
const POLL_INTERVAL_MS = 400;
const STATS_WINDOW_BLOCKS = 600;
const MAINNET = loadMainnetBaseFees().baseFeesWei;
/** Secrets a provider's RPC URL carries: none may appear in what the API answers. */
const RPC_USER = "rpc-user-7";
const RPC_PASSWORD = "Pa55word-2024";
const PROVIDER_KEY = "9f8e7d6c5b4a39281706f5e4d3c2b1a0";
const QUERY_SECRET = "QuerySecret42xyz";

const min = (fees: readonly bigint[]) => fees.reduce((a, b) => (b < a ? b : a));
const max = (fees: readonly bigint[]) => fees.reduce((a, b) => (b > a ? b : a));

describe("the API over real Hardhat nodes carrying real mainnet base fees", () => {
  let node: EvmNode;
  let youngNode: EvmNode;
  let legacyNode: EvmNode;
  let proxy: FaultProxy;
  let service: RunningService;
  const minedFeesWei: bigint[] = [];

  before(async () => {
    // Blocks a second apart up to now, as a live chain's are (mined at once, Hardhat would date them ahead of the
    // clock, and the service believes no header dated more than two minutes ahead).
    const genesis = { timestamp: Math.floor(Date.now() / 1000) - 3_600, baseFeeWei: 1_000_000_000n };
    [node, youngNode, legacyNode] = await Promise.all([
      startEvmNode({ chainId: 31337, genesis }),
      startEvmNode({ chainId: 1337, genesis }),
      startEvmNode({ chainId: 1338, hardfork: "berlin" }),
    ]);
    // A run of mainnet blocks whose 600-block window and 500-block history differ in minimum, maximum and percentiles.
    minedFeesWei.push(...MAINNET.slice(300, 950));
    await node.mineBlocks(minedFeesWei, secondsApartUntilNow(minedFeesWei.length));
    await youngNode.mineBlocks(MAINNET.slice(1000, 1012), secondsApartUntilNow(12));
    await legacyNode.mineBlocks([1n, 1n, 1n]);
    // A faithful proxy in front of the main chain's node: it counts the polls, and its URL can carry secrets.
    proxy = await startFaultProxy(node.url);
    const secretUrl = new URL(proxy.url);
    secretUrl.username = RPC_USER;
    secretUrl.password = RPC_PASSWORD;
    secretUrl.pathname = `/v3/${PROVIDER_KEY}`;
    secretUrl.search = `?apikey=${QUERY_SECRET}`;
    const plan = { blockTimeMs: 1000, statsWindowBlocks: 500, pollIntervalMs: POLL_INTERVAL_MS };
    service = await startLocalService(
      [
        { ...plan, chainId: 31337, name: "Local", rpcUrls: [secretUrl.href], statsWindowBlocks: STATS_WINDOW_BLOCKS },
        { ...plan, chainId: 1337, name: "Young", rpcUrls: [youngNode.url] },
        // An endpoint that reports another chain (31337) must never be used for chain 10.
        { ...plan, chainId: 10, name: "Misconfigured", rpcUrls: [node.url] },
        { ...plan, chainId: 1338, name: "Legacy", rpcUrls: [legacyNode.url] },
      ],
      [{ key: KEY }, { key: SECRET_KEY, secret: SECRET }],
    );
    // The feed brings the newest 500 blocks; the backfill the rest of the 600-block window (and back to the genesis).
    await waitFor("chain 31337's history to be backfilled", async () => {
      const networks = await callApi<NetworkStatus[]>(service.url, "/networks", KEY);
      const local = networks.status === 200 ? networks.body.find((network) => network.chainId === 31337) : undefined;
      return local?.history.oldestBlock === "0" && !local.history.backfill.running ? true : undefined;
    });
  });

  after(async () => {
    await service?.stop();
    await proxy?.close();
    await Promise.all([node?.stop(), youngNode?.stop(), legacyNode?.stop()]);
  });

  test("all three endpoints equal the values computed independently: the history 500 blocks oldest first, the statistics over 600", async () => {
    const window = minedFeesWei.slice(-STATS_WINDOW_BLOCKS);
    const history = await callApi<string[]>(service.url, "/networks/31337/baseFeeHistory", KEY);
    assert.equal(history.status, 200);
    assert.equal(history.body.length, 500);
    assert.deepEqual(history.body, minedFeesWei.slice(-500).map(expectedGwei));
    assert.equal(history.headers.get("x-block-number"), "650");

    // The data tells a 600-block window from a 500-block one, so that statistics over the wrong one would fail here.
    assert.notEqual(expectedPercentile(window, 90), expectedPercentile(minedFeesWei.slice(-500), 90));
    assert.notEqual(expectedPercentile(window, 50), expectedPercentile(minedFeesWei.slice(-500), 50));
    const percentile = await callApi(service.url, "/networks/31337/baseFeePercentile", KEY);
    assert.deepEqual(percentile.body, { baseFeePercentile: expectedGwei(expectedPercentile(window, 50)) });
    const busy = await callApi(service.url, "/networks/31337/busyThreshold", KEY);
    assert.deepEqual(busy.body, { busyThreshold: expectedGwei(expectedPercentile(window, 90)) });
    // Each answer over the window says which blocks it used; the history's does not (it is not computed over it).
    for (const answer of [percentile, busy]) {
      assert.equal(answer.headers.get("x-stats-blocks"), String(STATS_WINDOW_BLOCKS));
      assert.equal(answer.headers.get("x-stats-from-block"), "51");
      assert.equal(answer.headers.get("x-stats-to-block"), "650");
    }
    assert.equal(history.headers.get("x-stats-blocks"), null);
  });

  test("GET /networks: every field of the chain's state equals what is computed here from the node's blocks", async () => {
    const window = minedFeesWei.slice(-STATS_WINDOW_BLOCKS);
    assert.notEqual(min(window), min(minedFeesWei.slice(-500)), "the window's minimum differs from the history's");
    assert.notEqual(max(window), max(minedFeesWei.slice(-500)), "the window's maximum differs from the history's");
    // The next block's base fee, as the node itself reports it (the extra last element of eth_feeHistory).
    const next = await node.request<{ baseFeePerGas: string[] }>("eth_feeHistory", ["0x1", "latest", []]);
    const currentWei = BigInt(next.baseFeePerGas.at(-1)!);
    const networks = await callApi<NetworkStatus[]>(service.url, "/networks", KEY);
    assert.equal(networks.status, 200);
    const local = networks.body.find((network) => network.chainId === 31337)!;
    const header = async (block: string) => {
      const { timestamp } = await node.request<{ timestamp: string }>("eth_getBlockByNumber", [block, false]);
      return { timestamp: Number(BigInt(timestamp)) };
    };
    const [genesis, newest] = await Promise.all([header("0x0"), header("latest")]);
    assert.ok(typeof local.dataAgeMs === "number" && local.dataAgeMs >= 0, `dataAgeMs ${local.dataAgeMs}`);
    assert.deepEqual(local, {
      chainId: 31337,
      name: "Local",
      state: "ok",
      newestBlock: "650",
      currentBaseFee: expectedGwei(currentWei),
      baseFeePercentile: expectedGwei(expectedPercentile(window, 50)),
      busyThreshold: expectedGwei(expectedPercentile(window, 90)),
      minBaseFee: expectedGwei(min(window)),
      maxBaseFee: expectedGwei(max(window)),
      busy: currentWei > expectedPercentile(window, 90),
      // Hardhat's EDR gives no blob fields in eth_feeHistory: a chain without blob fees.
      blobBaseFee: null,
      blobBaseFeePercentile: null,
      blobBusyThreshold: null,
      blobBusy: null,
      blobSchedule: null,
      historyBlocks: 500,
      statsWindow: `${STATS_WINDOW_BLOCKS} blocks`,
      statsWindowBlocks: STATS_WINDOW_BLOCKS,
      statsFromBlock: String(650 - STATS_WINDOW_BLOCKS + 1),
      statsToBlock: "650",
      history: {
        horizon: "7d",
        // The genesis and every block mined: the backfill reached the genesis within the horizon.
        blocks: 651,
        oldestBlock: "0",
        newestBlock: "650",
        oldestTime: genesis.timestamp,
        newestTime: newest.timestamp,
        backfill: { running: false, progress: 1, blocksToGo: 0 },
        store: { state: "off", problem: null, since: null, unsavedBlocks: 0, droppedBlocks: 0 },
        // Blocks of a few minutes after a genesis an hour back: an hour is whole and closed only where they straddle
        // an hour's end (test/integration/hourlySummaries.test.ts checks the summaries themselves).
        summaries: { horizon: "52w", hours: Math.min(1, local.history.summaries.hours), oldestStart: local.history.summaries.oldestStart },
      },
      blockTimeMs: 1000,
      dataAgeMs: local.dataAgeMs,
      endpoints: [{ url: `${proxy.url}/…`, transport: "http", state: "ok", active: true, reportedChainId: 31337 }],
      // No feed prices a chain this service knows no feed for (costs in money: docs/configuration.md#prices).
      price: null,
      priceProblem: "no default price feed for Local: set the chain's priceFeed to a Chainlink aggregator of its gas token",
    });
  });

  test("the RPC URL's key, query, user and password appear nowhere in /networks or the event stream, over HTTP", async () => {
    const secrets = [RPC_USER, RPC_PASSWORD, PROVIDER_KEY, QUERY_SECRET, encodeURIComponent(RPC_PASSWORD)];
    const networks = await fetch(`${service.url}/v3/${KEY}/networks`);
    const networksText = await networks.text();
    assert.equal(networks.status, 200);
    assert.ok(networksText.includes(`"url":"${proxy.url}/…"`), networksText);
    const events = await fetch(`${service.url}/v3/${KEY}/networks/31337/events`);
    assert.equal(events.status, 200);
    let streamText = "";
    for await (const chunk of events.body as AsyncIterable<Uint8Array>) {
      streamText += Buffer.from(chunk).toString("utf8");
      if (streamText.includes("event: network")) break;
    }
    assert.ok(streamText.includes(`"url":"${proxy.url}/…"`), streamText);
    for (const secret of secrets) {
      assert.ok(!networksText.includes(secret), `/networks shows ${secret}`);
      assert.ok(!streamText.includes(secret), `the event stream shows ${secret}`);
    }
  });

  test("the key-in-path form and Basic with a required secret give the same answers", async () => {
    const basic = await callApi(service.url, "/networks/31337/busyThreshold", KEY);
    const inPath = await callApi(service.url, `/v3/${KEY}/networks/31337/busyThreshold`);
    const withSecret = await callApi(service.url, "/networks/31337/busyThreshold", SECRET_KEY, SECRET);
    assert.equal(inPath.status, 200);
    assert.equal(withSecret.status, 200);
    assert.deepEqual(inPath.body, basic.body);
    assert.deepEqual(withSecret.body, basic.body);
    assert.equal((await callApi(service.url, `/v3/${SECRET_KEY}/networks/31337/busyThreshold`)).status, 401);
    assert.equal((await callApi(service.url, "/networks/31337/busyThreshold")).status, 401);
  });

  test("a new block reaches the API with the first poll that starts after it is mined", async () => {
    const before = await callApi<string[]>(service.url, "/networks/31337/baseFeeHistory", KEY);
    const newest = BigInt(before.headers.get("x-block-number")!);
    const spikeWei = 987_654_321_123n;
    // Polls are counted where they arrive (the proxy, on arrival) at the moment the service publishes the block: only
    // the polls after mining count, and the one that brings the block is among them unless one in flight already did.
    let pollsWhenPublished: number | undefined;
    const unsubscribe = service.service.subscribe((publication) => {
      if (publication.chainId === 31337 && publication.snapshot?.newestBlock === newest + 1n) pollsWhenPublished ??= proxy.count("eth_feeHistory");
    });
    try {
      const mined = await node.mineBlock(spikeWei);
      const pollsWhenMined = proxy.count("eth_feeHistory");
      assert.equal(mined, newest + 1n);
      minedFeesWei.push(spikeWei);
      const polls = (await waitFor(`block ${mined} to be published`, () => pollsWhenPublished, 20_000)) - pollsWhenMined;
      assert.ok(polls <= 1, `the block was published after ${polls} polls that started after it was mined`);
    } finally {
      unsubscribe();
    }
    const mined = newest + 1n;

    const history = await callApi<string[]>(service.url, "/networks/31337/baseFeeHistory", KEY);
    assert.equal(history.headers.get("x-block-number"), mined.toString());
    assert.equal(history.body.length, 500);
    assert.deepEqual(history.body, minedFeesWei.slice(-500).map(expectedGwei));
    assert.equal(history.body.at(-1), "987.654321123");
    const networks = await callApi<NetworkStatus[]>(service.url, "/networks", KEY);
    const local = networks.body.find((network) => network.chainId === 31337)!;
    assert.equal(local.newestBlock, mined.toString());
    assert.equal(local.state, "ok");
    assert.equal(local.maxBaseFee, "987.654321123");
  });

  test("a chain younger than 500 blocks returns every block it has", async () => {
    const history = await callApi<string[]>(service.url, "/networks/1337/baseFeeHistory", KEY);
    assert.equal(history.status, 200);
    // The genesis block and the 12 mined ones.
    assert.equal(history.body.length, 13);
    assert.deepEqual(history.body.slice(1), MAINNET.slice(1000, 1012).map(expectedGwei));
  });

  test("a chain whose only endpoint reports another chain id answers 503, never the other chain's data", async () => {
    const answer = await callApi<{ statusCode: number; code: string }>(service.url, "/networks/10/baseFeeHistory", KEY);
    assert.equal(answer.status, 503);
    assert.equal(answer.body.code, "NO_DATA");
    assert.ok(Number(answer.headers.get("retry-after")) >= 1);
    const networks = await callApi<NetworkStatus[]>(service.url, "/networks", KEY);
    const misconfigured = networks.body.find((network) => network.chainId === 10)!;
    assert.equal(misconfigured.endpoints[0]!.state, "wrong-chain");
    assert.equal(misconfigured.endpoints[0]!.reportedChainId, 31337);
  });

  test("a chain without EIP-1559 (a berlin node) is 422 NO_BASE_FEE on every fee endpoint, and no-base-fee in /networks", async () => {
    const state = await waitFor("chain 1338 to be found without a base fee", async () => {
      const networks = await callApi<NetworkStatus[]>(service.url, "/networks", KEY);
      const legacy = networks.body.find((network) => network.chainId === 1338)!;
      return legacy.state === "syncing" ? undefined : legacy;
    });
    assert.equal(state.state, "no-base-fee");
    assert.equal(state.busyThreshold, null);
    for (const name of ["busyThreshold", "baseFeePercentile", "baseFeeHistory", "suggestedGasFees"]) {
      const answer = await callApi<{ statusCode: number; code: string; message: string }>(service.url, `/networks/1338/${name}`, KEY);
      assert.equal(answer.status, 422, name);
      assert.equal(answer.body.code, "NO_BASE_FEE", name);
      assert.match(answer.body.message, /has no EIP-1559 base fee/);
    }
  });

  test("an unknown chain is UNSUPPORTED_CHAIN with the hosted service's message", async () => {
    const answer = await callApi(service.url, "/networks/6001/busyThreshold", KEY);
    assert.equal(answer.status, 400);
    assert.deepEqual(answer.body, { statusCode: 400, code: "UNSUPPORTED_CHAIN", message: "'6001' is not a supported chain id." });
  });

  test("GET /metrics counts each endpoint's JSON-RPC calls and failures, by its redacted URL, as the proxy in front of it counts them", async () => {
    const counted = async () => {
      const answer = await fetch(`${service.url}/v3/${KEY}/metrics`);
      assert.equal(answer.status, 200);
      const text = await answer.text();
      const sample = (name: string) => {
        const line = text.split("\n").find((candidate) => candidate.startsWith(`${name}{`) && candidate.includes('chain_id="31337"'));
        assert.ok(line, `${name} for chain 31337 in:\n${text}`);
        assert.ok(line.includes(`endpoint="${proxy.url}/…"`), line);
        return Number(line.split(" ").at(-1));
      };
      return { calls: sample("gasfees_rpc_calls_total"), failures: sample("gasfees_rpc_failures_total") };
    };
    // The service's count is as of the feed's latest report: never more than the proxy saw, and it follows.
    const first = await counted();
    assert.ok(first.calls > 0 && first.calls <= proxy.total(), `${first.calls} calls counted, the proxy saw ${proxy.total()}`);
    assert.equal(first.failures, 0);
    const before = proxy.total();
    proxy.setFaults({ mode: "http500" });
    try {
      const failing = await waitFor("failures counted", async () => {
        const now = await counted();
        return now.failures > 0 ? now : undefined;
      });
      assert.ok(failing.calls > first.calls, "the failing calls are calls too");
      assert.ok(failing.calls <= proxy.total(), `${failing.calls} calls counted, the proxy saw ${proxy.total()}: none it did not see`);
      assert.ok(failing.failures <= proxy.total() - before, "only calls made while the endpoint failed count as failures");
    } finally {
      proxy.reset();
    }
    await waitFor("chain 31337 answering again", async () =>
      (await callApi<NetworkStatus[]>(service.url, "/networks", KEY)).body.find((n) => n.chainId === 31337)?.state === "ok" ? true : undefined,
    );
  });
});

/** `count` timestamps a second apart, the last one now (unix seconds). */
function secondsApartUntilNow(count: number): number[] {
  const now = Math.floor(Date.now() / 1000);
  return Array.from({ length: count }, (_, i) => now - count + 1 + i);
}
