// Rollups have no blob market of their own (CONTRACT.md, "Blob fees"), whatever their endpoints' eth_feeHistory
// carries: the real service follows endpoints that send an OP-stack endpoint's blob fields, played by the project's
// stand-in JSON-RPC server (test/support/syntheticChainServer.ts: no node here sends them), before Jovian (1 wei, no
// blob gas) and since Jovian (1 wei, a data-availability footprint whose ratio is above 1 at times).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { RunningService } from "../../shared/app/startService.ts";
import { createLogger } from "../../shared/log/logger.ts";
import type { ChainPlan } from "../../shared/service/chainPlan.ts";
import type { Costs } from "../../shared/wire/costs.ts";
import type { NetworkStatus } from "../../shared/wire/networkStatus.ts";
import { callApi } from "../support/apiClient.ts";
import { expectedGwei } from "../support/independentFees.ts";
import { startLocalService } from "../support/startLocalService.ts";
import { type SyntheticChainServer, startSyntheticChainServer } from "../support/syntheticChainServer.ts";
import { waitFor } from "../support/waitFor.ts";

const KEY = "0b10b10b10b10b10b10b10b10b10b10b";
/** OP Mainnet since Jovian, Base before it (both rollups by default), and an OP-stack chain the user says is one. */
const OP_MAINNET = 10;
const BASE = 8453;
const ZORA = 7777777;
const HEAD = 600n;

let op: SyntheticChainServer;
let base: SyntheticChainServer;
let zora: SyntheticChainServer;
let service: RunningService;
const logLines: string[] = [];

const networkOf = async (chainId: number) =>
  (await callApi<NetworkStatus[]>(service.url, "/networks", KEY)).body.find((network) => network.chainId === chainId)!;

before(async () => {
  op = await startSyntheticChainServer({ chainId: OP_MAINNET, head: HEAD, opStackBlobFields: "jovian" });
  base = await startSyntheticChainServer({ chainId: BASE, head: HEAD, opStackBlobFields: "ecotone" });
  zora = await startSyntheticChainServer({ chainId: ZORA, head: HEAD, opStackBlobFields: "ecotone" });
  const plan = { blockTimeMs: 2_000, statsWindowBlocks: 500, pollIntervalMs: 50, persistHistory: false, priceFeed: false } as const;
  const chains: ChainPlan[] = [
    // No blobMarket: chains 10 and 8453 are rollups by default (shared/core/chains/defaultChains.ts).
    { ...plan, chainId: OP_MAINNET, name: "OP Mainnet", rpcUrls: [op.url] },
    { ...plan, chainId: BASE, name: "Base", rpcUrls: [base.url] },
    { ...plan, chainId: ZORA, name: "Zora", rpcUrls: [zora.url], blobMarket: false },
  ];
  service = await startLocalService(
    chains,
    [{ key: KEY }],
    { backfill: false },
    createLogger("info", (line) => logLines.push(line)),
  );
  await waitFor("the three chains followed", async () => {
    const networks = await Promise.all([OP_MAINNET, BASE, ZORA].map(networkOf));
    return networks.every((network) => network?.newestBlock === String(HEAD));
  });
});

after(async () => {
  await service?.stop();
  await Promise.all([op?.close(), base?.close(), zora?.close()]);
});

test("a rollup is followed whatever blob fields its endpoint sends: state ok, every base fee kept, its endpoint not failing", async () => {
  // New blocks, a few polls each: every answer of OP Mainnet's endpoint holds a blob gas used ratio of 1.7.
  for (const head of [HEAD + 3n, HEAD + 8n, HEAD + 20n]) {
    for (const chain of [op, base, zora]) chain.head = head;
    await waitFor(`block ${head}`, async () => (await Promise.all([OP_MAINNET, BASE, ZORA].map(networkOf))).every((n) => n.newestBlock === String(head)));
  }
  const head = HEAD + 20n;
  for (const [chainId, chain] of [
    [OP_MAINNET, op],
    [BASE, base],
    [ZORA, zora],
  ] as const) {
    const network = await networkOf(chainId);
    assert.equal(network.state, "ok", `chain ${chainId}`);
    assert.ok(
      network.endpoints.every((endpoint) => endpoint.state !== "failing"),
      `chain ${chainId}: ${JSON.stringify(network.endpoints)}`,
    );
    const history = await callApi<string[]>(service.url, `/networks/${chainId}/baseFeeHistory`, KEY);
    const expected = Array.from({ length: 500 }, (_, i) => expectedGwei(chain.baseFeeOf(head - 499n + BigInt(i))));
    assert.deepEqual(history.body, expected, `chain ${chainId}: the newest 500 base fees, every one`);
  }
});

test("a rollup has no blob market: NO_BLOB_FEE on the blob endpoints, no blob view in /networks, no blob row in /costs, no blob metrics", async () => {
  for (const chainId of [OP_MAINNET, BASE, ZORA]) {
    for (const path of ["blobBusyThreshold", "blobBaseFeePercentile", "blobBaseFeeHistory", "baseFeeStats?fee=blob"]) {
      const answer = await callApi<{ code: string }>(service.url, `/networks/${chainId}/${path}`, KEY);
      assert.equal(answer.status, 422, `chain ${chainId} ${path}`);
      assert.equal(answer.body.code, "NO_BLOB_FEE", `chain ${chainId} ${path}`);
    }
    const network = await networkOf(chainId);
    assert.deepEqual(
      [network.blobBaseFee, network.blobBaseFeePercentile, network.blobBusyThreshold, network.blobBusy, network.blobSchedule],
      [null, null, null, null, null],
      `chain ${chainId}: no blob view`,
    );
    const costs = await callApi<Costs>(service.url, `/networks/${chainId}/costs`, KEY);
    assert.equal(costs.status, 200);
    assert.equal(costs.body.blob, undefined, `chain ${chainId}: no blob row`);
    assert.equal(costs.body.basis.blobBaseFee, undefined);
    const csv = await fetch(`${service.url}/networks/${chainId}/baseFeeHistory.csv`, {
      headers: { authorization: `Basic ${Buffer.from(`${KEY}:`).toString("base64")}` },
    });
    const rows = (await csv.text()).trim().split("\n").slice(1);
    assert.ok(rows.length >= 500);
    assert.ok(
      rows.every((row) => row.split(",")[3] === ""),
      `chain ${chainId}: no blob base fee in the CSV`,
    );
  }
  const metrics = await (await fetch(`${service.url}/metrics`, { headers: { authorization: `Basic ${Buffer.from(`${KEY}:`).toString("base64")}` } })).text();
  const blobSamples = metrics.split("\n").filter((line) => /^gasfees_(next_)?blob/.test(line));
  assert.deepEqual(blobSamples, [], "no blob metric for a rollup");
  assert.match(metrics, new RegExp(`gasfees_base_fee_gwei\\{[^}]*chain_id="${OP_MAINNET}"`), "its base fee metrics are there");
});

test("the endpoint's blob fields not believed are said in the log once, not at every answer", () => {
  const said = logLines.filter((line) => line.includes("blob fields that are not believed"));
  assert.ok(op.calls("eth_feeHistory") >= 4, `several answers were read (${op.calls("eth_feeHistory")})`);
  assert.equal(said.length, 1, said.join(""));
  assert.match(
    said[0]!,
    new RegExp(
      `chain ${OP_MAINNET}: RPC endpoint \\S+ sends blob fields that are not believed \\(blobGasUsedRatio\\[\\d+\\] is 1\\.7, not a number from 0 to 1`,
    ),
  );
});
