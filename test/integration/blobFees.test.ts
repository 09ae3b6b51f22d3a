// Blob fees end to end: the real service follows a local JSON-RPC server (test/support/syntheticChainServer.ts) whose
// blob base fees follow EIP-4844's update rule and EIP-7918's reserve price from the blob gas it says each block used.
// Hardhat's EDR, the node the other integration tests run, answers eth_feeHistory without baseFeePerBlobGas (checked
// with Hardhat 3's EDR here: only baseFeePerGas and gasUsedRatio), so it cannot prove this. Every answer is recomputed
// here from the blocks the server served: nearest rank, oldest first, exact Gwei.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { GAS_PER_BLOB } from "../../shared/core/fees/blobFeeRule.ts";
import type { RunningService } from "../../shared/app/startService.ts";
import type { Costs } from "../../shared/wire/costs.ts";
import type { NetworkStatus } from "../../shared/wire/networkStatus.ts";
import { callApi } from "../support/apiClient.ts";
import { expectedGwei, expectedPercentile } from "../support/independentFees.ts";
import { startLocalService } from "../support/startLocalService.ts";
import { type SyntheticChainServer, type SyntheticFault, startSyntheticChainServer } from "../support/syntheticChainServer.ts";
import { waitFor } from "../support/waitFor.ts";

const KEY = "b10bb10bb10bb10bb10bb10bb10bb10b";
const BLOB_CHAIN = 1;
const PLAIN_CHAIN = 8453;
const WINDOW_BLOCKS = 300;

// Full, empty and middling blocks in turn: the fee climbs from 1 wei under EIP-7918's floor (a base fee near 1 gwei
// puts the reserve price near 62.5 mwei), then rises and falls with the use once above it.
const blobGasUsedOf = (block: bigint) => [9n, 9n, 9n, 0n, 6n, 9n, 2n, 9n][Number(block % 8n)]! * GAS_PER_BLOB;
const baseFeeOf = (block: bigint) => 1_000_000_000n + ((block * 7_919n) % 10_000_000n);

let blobChain: SyntheticChainServer;
let plainChain: SyntheticChainServer;
let service: RunningService;

const networkOf = async (chainId: number) =>
  (await callApi<NetworkStatus[]>(service.url, "/networks", KEY)).body.find((network) => network.chainId === chainId)!;

before(async () => {
  // Its endpoint states its blob schedule (eth_config, EIP-7910): one no fork has, so that the test tells it from the
  // schedule known for chain 1.
  blobChain = await startSyntheticChainServer({
    chainId: BLOB_CHAIN,
    head: 700n,
    baseFeeOf,
    blobRule: { blobGasUsedOf },
    ethConfig: {
      current: { activationTime: 0, chainId: "0x1", blobSchedule: { target: 9, max: 12, baseFeeUpdateFraction: 5_007_716 } },
      next: null,
      last: null,
    },
  });
  plainChain = await startSyntheticChainServer({ chainId: PLAIN_CHAIN, head: 50n, blobFees: false });
  const plan = { blockTimeMs: 12_000, statsWindowBlocks: WINDOW_BLOCKS, pollIntervalMs: 50, persistHistory: false };
  service = await startLocalService(
    [
      { ...plan, chainId: BLOB_CHAIN, name: "Blobs", rpcUrls: [blobChain.url] },
      { ...plan, chainId: PLAIN_CHAIN, name: "No blobs", rpcUrls: [plainChain.url] },
    ],
    [{ key: KEY }],
  );
  await waitFor(
    "both chains to be followed",
    async () => (await networkOf(BLOB_CHAIN))?.newestBlock === "700" && (await networkOf(PLAIN_CHAIN))?.newestBlock === "50",
  );
});

after(async () => {
  await service?.stop();
  await blobChain?.close();
  await plainChain?.close();
});

/** The three blob endpoints and /networks, checked against the blocks the server served up to `head`. */
async function checkBlobAnswers(head: bigint): Promise<void> {
  const fees = (from: bigint, to: bigint) => Array.from({ length: Number(to - from + 1n) }, (_, i) => blobChain.blobBaseFeeOf(from + BigInt(i)));
  const window = fees(head - BigInt(WINDOW_BLOCKS) + 1n, head);
  const busy = await callApi<{ blobBusyThreshold: string }>(service.url, `/networks/${BLOB_CHAIN}/blobBusyThreshold`, KEY);
  assert.equal(busy.status, 200);
  assert.deepEqual(busy.body, { blobBusyThreshold: expectedGwei(expectedPercentile(window, 90)) });
  assert.equal(busy.headers.get("x-stats-blocks"), String(WINDOW_BLOCKS));
  assert.equal(busy.headers.get("x-stats-from-block"), String(head - BigInt(WINDOW_BLOCKS) + 1n));
  assert.equal(busy.headers.get("x-stats-to-block"), String(head));
  const median = await callApi<{ blobBaseFeePercentile: string }>(service.url, `/v3/${KEY}/networks/${BLOB_CHAIN}/blobBaseFeePercentile`);
  assert.deepEqual(median.body, { blobBaseFeePercentile: expectedGwei(expectedPercentile(window, 50)) });
  const history = await callApi<string[]>(service.url, `/networks/${BLOB_CHAIN}/blobBaseFeeHistory`, KEY);
  assert.deepEqual(history.body, fees(head - 499n, head).map(expectedGwei), "the newest 500 blocks' blob base fees, oldest first");
  const network = await networkOf(BLOB_CHAIN);
  const next = blobChain.blobBaseFeeOf(head + 1n);
  assert.equal(network.blobBaseFee, expectedGwei(next), "the next block's blob base fee, as the endpoint gave it");
  assert.equal(network.blobBusy, next > expectedPercentile(window, 90));
  // /costs: one blob is 131,072 blob gas (EIP-4844's GAS_PER_BLOB) at the next block's blob base fee. No price feed
  // answers on this server, so its money is null.
  const costs = await callApi<Costs>(service.url, `/networks/${BLOB_CHAIN}/costs`, KEY);
  assert.equal(costs.status, 200);
  assert.equal(costs.body.basis.blobBaseFee, expectedGwei(next));
  assert.deepEqual(costs.body.blob, { blobGas: "131072", wei: String(131_072n * next), fiat: null });
}

test("the blob base fee of every block, as EIP-4844 and EIP-7918 make it, through the three endpoints and /networks", async () => {
  // The chain's blob fees move: the test would not tell p50 from p90, or the floor's regime from the other, otherwise.
  const window = Array.from({ length: WINDOW_BLOCKS }, (_, i) => blobChain.blobBaseFeeOf(401n + BigInt(i)));
  assert.ok(expectedPercentile(window, 50) < expectedPercentile(window, 90), "p50 below p90");
  assert.ok(blobChain.blobBaseFeeOf(1n) === 1n && blobChain.blobBaseFeeOf(700n) > 1_000n, "the fee climbed from 1 wei");
  await checkBlobAnswers(700n);
  // New blocks, one poll at a time: each answer follows.
  for (const head of [701n, 705n, 740n]) {
    blobChain.head = head;
    await waitFor(`block ${head}`, async () => (await networkOf(BLOB_CHAIN)).newestBlock === String(head));
    await checkBlobAnswers(head);
  }
});

test("the blob schedule in /networks is the one the endpoint's eth_config states; a chain without blob fees has none", async () => {
  await waitFor("eth_config read", async () => (await networkOf(BLOB_CHAIN)).blobSchedule?.source === "eth_config");
  assert.deepEqual((await networkOf(BLOB_CHAIN)).blobSchedule, { target: 9, max: 12, source: "eth_config" });
  assert.equal((await networkOf(PLAIN_CHAIN)).blobSchedule, null);
});

test("a chain whose endpoint gives no blob fields answers NO_BLOB_FEE on the blob endpoints, and null in /networks", async () => {
  for (const path of ["blobBusyThreshold", "blobBaseFeePercentile", "blobBaseFeeHistory"]) {
    const answer = await callApi<{ statusCode: number; code: string }>(service.url, `/networks/${PLAIN_CHAIN}/${path}`, KEY);
    assert.equal(answer.status, 422, path);
    assert.equal(answer.body.code, "NO_BLOB_FEE");
  }
  const network = await networkOf(PLAIN_CHAIN);
  assert.equal(network.blobBaseFee, null);
  assert.equal(network.blobBusy, null);
  const costs = await callApi<Costs>(service.url, `/networks/${PLAIN_CHAIN}/costs`, KEY);
  assert.equal(costs.status, 200);
  assert.equal(costs.body.blob, undefined, "no blob cost on a chain without blob fees");
  assert.equal(costs.body.basis.blobBaseFee, undefined);
});

test("hostile blob fields (2^256, a short array, a number, a ratio above 1) cost their answers' blob fields only: the base fees are kept, the chain stays ok", async () => {
  let head = 740n;
  for (const fault of ["blob-fee-overflow", "blob-fee-short", "blob-fee-number", "blob-ratio-above-one"] as const satisfies readonly SyntheticFault[]) {
    blobChain.setFault(fault);
    head += 3n;
    blobChain.head = head;
    // The blocks of the answers with the fault are held, with their base fees: the chain goes on.
    await waitFor(`the blocks of ${fault}`, async () => (await networkOf(BLOB_CHAIN)).newestBlock === String(head));
    const network = await networkOf(BLOB_CHAIN);
    assert.equal(network.state, "ok", fault);
    assert.ok(
      network.endpoints.every((endpoint) => endpoint.state !== "failing"),
      `${fault}: ${JSON.stringify(network.endpoints)}`,
    );
    const history = await callApi<string[]>(service.url, `/networks/${BLOB_CHAIN}/baseFeeHistory`, KEY);
    assert.deepEqual(
      history.body.slice(-10),
      Array.from({ length: 10 }, (_, i) => expectedGwei(baseFeeOf(head - 9n + BigInt(i)))),
      fault,
    );
    // Their blob fields are not known: the newest block has none, so there is no blob view until one comes.
    assert.equal((await callApi(service.url, `/networks/${BLOB_CHAIN}/blobBaseFeeHistory`, KEY)).status, 422, fault);
    blobChain.setFault("none");
    head += 2n;
    blobChain.head = head;
    await waitFor(`the blocks after ${fault}`, async () => (await networkOf(BLOB_CHAIN)).newestBlock === String(head));
    // The blob base fees from the first answer without the fault on, each the server's.
    const blobs = await callApi<string[]>(service.url, `/networks/${BLOB_CHAIN}/blobBaseFeeHistory`, KEY);
    assert.equal(blobs.status, 200, fault);
    assert.ok(blobs.body.length >= 2 && blobs.body.length <= 500, `${fault}: ${blobs.body.length}`);
    const from = head - BigInt(blobs.body.length) + 1n;
    assert.deepEqual(
      blobs.body,
      Array.from({ length: blobs.body.length }, (_, i) => expectedGwei(blobChain.blobBaseFeeOf(from + BigInt(i)))),
      fault,
    );
    assert.equal((await networkOf(BLOB_CHAIN)).blobBaseFee, expectedGwei(blobChain.blobBaseFeeOf(head + 1n)), fault);
  }
});
