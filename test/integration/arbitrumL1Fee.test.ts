// Arbitrum's L1 fee: ArbGasInfo is a precompile no node here runs, so a stand-in contract with its interface
// (test/support/contracts/ArbGasInfoStandIn.sol, compiled here with solc) is placed at its address on a Hardhat chain.
// The service reads the L1 price of a byte from it; the expected fee is computed here from the prices the test set.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { encodeFunctionData, parseAbi } from "viem";
import { compileSolidity } from "../../scripts/compileSolidity.ts";
import type { RunningService } from "../../shared/app/startService.ts";
import type { ChainPlan } from "../../shared/service/chainPlan.ts";
import { startLocalService } from "../support/startLocalService.ts";
import { ARB_GAS_INFO } from "../../shared/rpc/contracts/l1FeeReads.ts";
import { type EvmNode, startEvmNode } from "../../shared/demo/startEvmNode.ts";
import { FEED_OWNER } from "../../shared/demo/costContracts.ts";
import type { Costs } from "../../shared/wire/costs.ts";
import { callApi } from "../support/apiClient.ts";
import { waitFor } from "../support/waitFor.ts";

const KEY = "0123456789abcdef0123456789abcdef";
const CHAIN_ID = 42161;
/** What ArbGasInfo answered on Arbitrum One on a quiet day: about 0.5 Gwei of L1 price per byte of call data (wei). */
const PER_L1_BYTE_WEI = 493_219_388n;
const PRICES = [2_000_000_000_000n, PER_L1_BYTE_WEI, 2_000_000_000_000n, 10_000_000n, 0n, 10_000_000n] as const;

let node: EvmNode;
let service: RunningService;

before(async () => {
  node = await startEvmNode({ chainId: CHAIN_ID });
  const standIn = compileSolidity("test/support/contracts/ArbGasInfoStandIn.sol", "ArbGasInfoStandIn");
  const runtime = await node.request<string>("eth_call", [{ data: standIn.bytecode }, "latest"]);
  await node.request("hardhat_setCode", [ARB_GAS_INFO, runtime]);
  const setPrices = encodeFunctionData({ abi: parseAbi(["function setPricesInWei(uint256[6] _prices)"]), functionName: "setPricesInWei", args: [PRICES] });
  await node.request("eth_sendTransaction", [{ from: FEED_OWNER, to: ARB_GAS_INFO, data: setPrices }]);
  // Chain 42161 is Arbitrum One: its L1 fee is read from ArbGasInfo by default; no price feed is followed here.
  const plan: ChainPlan = {
    chainId: CHAIN_ID,
    name: "Arbitrum stand-in",
    rpcUrls: [node.url],
    blockTimeMs: 250,
    pollIntervalMs: 100,
    l1FeeKind: "arbitrum",
    priceFeed: false,
  };
  service = await startLocalService([plan], [{ key: KEY }], { backfill: false, costReads: { intervalMs: 150 } });
});

after(async () => {
  await service?.stop();
  await node?.stop();
});

test("Arbitrum's L1 fee is ArbGasInfo's L1 price of a byte times the action's size, added to every tier", async () => {
  const costs = await waitFor("the L1 fees", async () => {
    const answer = await callApi<Costs>(service.url, `/networks/${CHAIN_ID}/costs`, KEY);
    return answer.status === 200 && answer.body.actions.every((action) => action.l1FeeWei !== null) ? answer.body : undefined;
  });
  assert.equal(costs.l1FeeProblem, null);
  assert.equal(costs.price, null);
  assert.match(costs.priceProblem ?? "", /turned off/);
  for (const action of costs.actions) {
    assert.equal(action.l1FeeWei, (PER_L1_BYTE_WEI * BigInt(action.txBytes)).toString(), action.id);
    const l2Medium = BigInt(action.medium.wei) - BigInt(action.l1FeeWei);
    assert.ok(l2Medium >= BigInt(action.gas), `${action.id}: the tiers hold the L2 part besides the L1 fee`);
    assert.equal(action.medium.fiat, null);
  }
});
