// End to end: the real service (startService, as `npm run serve` runs it) on an ephemeral port, following a real
// Hardhat node whose blocks carry real mainnet base fees, compared with values computed here from the same data.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { loadMainnetBaseFees } from "../../shared/demo/mainnetBaseFees.ts";
import { type EvmNode, startEvmNode } from "../../shared/demo/startEvmNode.ts";
import type { RunningService } from "../../shared/service/startService.ts";
import { callApi, waitFor } from "../support/apiClient.ts";
import { expectedGwei, expectedPercentile } from "../support/independentFees.ts";
import { startLocalService } from "../support/startLocalService.ts";

const KEY = "0123456789abcdef0123456789abcdef";
const SECRET_KEY = "fedcba9876543210fedcba9876543210";
const SECRET = "correct horse battery staple";
const POLL_INTERVAL_MS = 400;
const MAINNET = loadMainnetBaseFees().baseFeesWei;

describe("the API over a real Hardhat node carrying real mainnet base fees", () => {
  let node: EvmNode;
  let youngNode: EvmNode;
  let service: RunningService;
  const minedFeesWei: bigint[] = [];

  before(async () => {
    [node, youngNode] = await Promise.all([startEvmNode({ chainId: 31337 }), startEvmNode({ chainId: 1337 })]);
    minedFeesWei.push(...MAINNET.slice(0, 650));
    await node.mineBlocks(minedFeesWei);
    await youngNode.mineBlocks(MAINNET.slice(1000, 1012));
    service = await startLocalService(
      [
        { chainId: 31337, name: "Local", rpcUrls: [node.url], blockTimeMs: 1000, statsWindowBlocks: 500, pollIntervalMs: POLL_INTERVAL_MS },
        { chainId: 1337, name: "Young", rpcUrls: [youngNode.url], blockTimeMs: 1000, statsWindowBlocks: 500, pollIntervalMs: POLL_INTERVAL_MS },
        // An endpoint that reports another chain (31337) must never be used for chain 10.
        { chainId: 10, name: "Misconfigured", rpcUrls: [node.url], blockTimeMs: 1000, statsWindowBlocks: 500, pollIntervalMs: POLL_INTERVAL_MS },
      ],
      [{ key: KEY }, { key: SECRET_KEY, secret: SECRET }],
    );
    await waitFor("chain 31337 to have data", async () =>
      (await callApi(service.url, "/networks/31337/baseFeeHistory", KEY)).status === 200 ? true : undefined,
    );
  });

  after(async () => {
    await service?.stop();
    await Promise.all([node?.stop(), youngNode?.stop()]);
  });

  test("all three endpoints equal the values computed independently: exact strings, oldest first, 500 entries", async () => {
    const window = minedFeesWei.slice(-500);
    const history = await callApi<string[]>(service.url, "/networks/31337/baseFeeHistory", KEY);
    assert.equal(history.status, 200);
    assert.equal(history.body.length, 500);
    assert.deepEqual(history.body, window.map(expectedGwei));
    assert.equal(history.headers.get("x-block-number"), "650");

    const percentile = await callApi(service.url, "/networks/31337/baseFeePercentile", KEY);
    assert.deepEqual(percentile.body, { baseFeePercentile: expectedGwei(expectedPercentile(window, 50)) });
    const busy = await callApi(service.url, "/networks/31337/busyThreshold", KEY);
    assert.deepEqual(busy.body, { busyThreshold: expectedGwei(expectedPercentile(window, 90)) });
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

  test("a new block reaches the API within one polling interval", async () => {
    const before = await callApi<string[]>(service.url, "/networks/31337/baseFeeHistory", KEY);
    const newest = BigInt(before.headers.get("x-block-number")!);
    const spikeWei = 987_654_321_123n;
    const minedAt = Date.now();
    const mined = await node.mineBlock(spikeWei);
    assert.equal(mined, newest + 1n);
    minedFeesWei.push(spikeWei);
    const history = await waitFor(
      `block ${mined} in the history`,
      async () => {
        const answer = await callApi<string[]>(service.url, "/networks/31337/baseFeeHistory", KEY);
        return answer.headers.get("x-block-number") === mined.toString() ? answer : undefined;
      },
      5000,
      10,
    );
    const delayMs = Date.now() - minedAt;
    // One polling interval, plus what one poll and one API request take on a loaded 2-core machine.
    assert.ok(delayMs <= POLL_INTERVAL_MS + 300, `block reached the API after ${delayMs} ms (interval ${POLL_INTERVAL_MS} ms)`);
    assert.equal(history.body.length, 500);
    assert.deepEqual(history.body, minedFeesWei.slice(-500).map(expectedGwei));
    assert.equal(history.body.at(-1), "987.654321123");

    const networks = await callApi<Array<{ chainId: number; busy: boolean; newestBlock: string; state: string }>>(service.url, "/networks", KEY);
    const local = networks.body.find((network) => network.chainId === 31337)!;
    assert.equal(local.newestBlock, mined.toString());
    assert.equal(local.state, "ok");
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
    const networks = await callApi<Array<{ chainId: number; endpoints: Array<{ state: string; reportedChainId?: number }> }>>(service.url, "/networks", KEY);
    const misconfigured = networks.body.find((network) => network.chainId === 10)!;
    assert.equal(misconfigured.endpoints[0]!.state, "wrong-chain");
    assert.equal(misconfigured.endpoints[0]!.reportedChainId, 31337);
  });

  test("an unknown chain is UNSUPPORTED_CHAIN with the hosted service's message", async () => {
    const answer = await callApi(service.url, "/networks/6001/busyThreshold", KEY);
    assert.equal(answer.status, 400);
    assert.deepEqual(answer.body, { statusCode: 400, code: "UNSUPPORTED_CHAIN", message: "'6001' is not a supported chain id." });
  });
});
