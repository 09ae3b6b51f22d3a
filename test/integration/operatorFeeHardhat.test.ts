// The OP stack's operator fee (Isthmus: GasPriceOracle.getOperatorFee(gas)) in /costs, on a real Hardhat node. The
// GasPriceOracle of @eth-optimism/contracts-bedrock installed here (0.17.3) predates Isthmus: placed at its predeploy
// address, it is a chain before Isthmus (getOperatorFee reverts: the chain sets none, "0"). For a chain since Isthmus,
// a stand-in (test/support/contracts/GasPriceOracleIsthmusStandIn.sol, compiled here with solc) is placed over it: it
// answers getOperatorFee with Isthmus's formula from values the test sets, and hands every other call (getL1Fee) to
// the real oracle's code. Each expected fee is the oracle's own answer, and the formula computed here.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { decodeFunctionResult, encodeFunctionData, formatGwei, parseAbi } from "viem";
import { compileSolidity } from "../../scripts/compileSolidity.ts";
import type { RunningService } from "../../shared/app/startService.ts";
import { DEFAULT_ACTIONS } from "../../shared/core/costs/defaultActions.ts";
import { opStackStandInTx } from "../../shared/core/costs/l1FeeData.ts";
import { deployedBytecodeOf, deployPriceFeed, FEED_OWNER, OP_GAS_PRICE_ORACLE, placeOpStackPredeploys } from "../../shared/demo/costContracts.ts";
import { type EvmNode, startEvmNode } from "../../shared/demo/startEvmNode.ts";
import type { ChainPlan } from "../../shared/service/chainPlan.ts";
import { type Costs, costsSchema } from "../../shared/wire/costs.ts";
import type { AlertsBody } from "../../shared/wire/alerts.ts";
import type { SuggestedGasFeesBody } from "../../shared/wire/apiBodies.ts";
import { callApi } from "../support/apiClient.ts";
import { startLocalService } from "../support/startLocalService.ts";
import { waitFor } from "../support/waitFor.ts";

const KEY = "0123456789abcdef0123456789abcdef";
const CHAIN_ID = 10;
const GWEI = 1_000_000_000n;
/** Where the stand-in hands its other calls: the real oracle's code (its REAL_ORACLE). */
const REAL_ORACLE = "0x00000000000000000000000000000000000B0BA1";
/** What Isthmus's operatorFeeScalar and operatorFeeConstant may hold (a uint32 and a uint64): 7.5 wei a gas, 0.000001 ETH. */
const SCALAR = 7_500_000n;
const CONSTANT = 1_000_000_000_000n;
const ORACLE_ABI = parseAbi([
  "function getL1Fee(bytes _data) view returns (uint256)",
  "function getOperatorFee(uint256 _gasUsed) view returns (uint256)",
  "function setOperatorFee(bool _isIsthmus, uint256 _scalar, uint256 _constant)",
]);
/** ETH / USD in a Chainlink feed's 8 decimals: 2,000 USD. */
const ANSWER = 200_000_000_000n;
const ACTIONS = [...DEFAULT_ACTIONS, { id: "bridge", name: "Bridge deposit", gas: 120_000n, txBytes: 420 }];

let node: EvmNode;
let service: RunningService;

before(async () => {
  node = await startEvmNode({ chainId: CHAIN_ID });
  await node.mineBlocks([20n, 22n, 25n].map((gwei) => gwei * GWEI));
  const feed = await deployPriceFeed(node, 8, ANSWER);
  await placeOpStackPredeploys(node, {
    baseFeeScalar: 1368,
    blobBaseFeeScalar: 810_949,
    l1BaseFeeWei: 31n * GWEI,
    l1BlobBaseFeeWei: 1n,
    l1Number: 17_180_000n,
    l1Timestamp: 1_683_072_000,
  });
  const plan: ChainPlan = {
    chainId: CHAIN_ID,
    name: "OP-stack test chain",
    rpcUrls: [node.url],
    blockTimeMs: 1000,
    pollIntervalMs: 100,
    l1FeeKind: "op-stack",
    priceFeed: { address: feed, token: "ETH", description: "v0.8/tests/MockV3Aggregator.sol", heartbeatSeconds: 3600 },
  };
  service = await startLocalService([plan], [{ key: KEY }], {
    backfill: false,
    actions: [{ id: "bridge", name: "Bridge deposit", gas: 120_000, txBytes: 420 }],
    costReads: { intervalMs: 150 },
  });
});

after(async () => {
  await service?.stop();
  await node?.stop();
});

async function oracleCall(functionName: "getL1Fee" | "getOperatorFee", args: readonly [`0x${string}`] | readonly [bigint]): Promise<bigint> {
  const data = encodeFunctionData({ abi: ORACLE_ABI, functionName, args });
  const result = await node.request<`0x${string}`>("eth_call", [{ to: OP_GAS_PRICE_ORACLE, data }, "latest"]);
  return decodeFunctionResult({ abi: ORACLE_ABI, functionName, data: result });
}

async function setOperatorFee(isIsthmus: boolean, scalar: bigint, constant: bigint): Promise<void> {
  const data = encodeFunctionData({ abi: ORACLE_ABI, functionName: "setOperatorFee", args: [isIsthmus, scalar, constant] });
  await node.request("eth_sendTransaction", [{ from: FEED_OWNER, to: OP_GAS_PRICE_ORACLE, data }]);
}

/** /costs at the node's newest block, once `ready` is true of it. */
async function costsWhen(what: string, ready: (costs: Costs) => boolean): Promise<Costs> {
  const newest = BigInt(await node.request<string>("eth_blockNumber", []));
  return waitFor(what, async () => {
    const answer = await callApi<Costs>(service.url, `/networks/${CHAIN_ID}/costs`, KEY);
    return answer.status === 200 && answer.body.basis.block === newest.toString() && ready(answer.body) ? answer.body : undefined;
  });
}

const weiOfGwei = (gwei: string) => {
  const [whole, fraction = ""] = gwei.split(".");
  return BigInt(whole!) * GWEI + BigInt(fraction.padEnd(9, "0"));
};

/** Each tier is gas x (next base fee + the tier's tip) + the L1 fee + the operator fee, as the API shows them. */
async function assertTiers(costs: Costs, operatorFeeOf: (gas: bigint) => bigint): Promise<void> {
  const suggested = await callApi<SuggestedGasFeesBody>(service.url, `/networks/${CHAIN_ID}/suggestedGasFees`, KEY);
  assert.equal(suggested.headers.get("x-block-number"), costs.basis.block);
  const nextBaseFeeWei = weiOfGwei(costs.basis.baseFee);
  for (const action of ACTIONS) {
    const shown = costs.actions.find((candidate) => candidate.id === action.id)!;
    assert.equal(shown.l1FeeWei, (await oracleCall("getL1Fee", [opStackStandInTx(action.txBytes)])).toString(), `${action.id}: the oracle's L1 fee`);
    for (const tier of ["low", "medium", "high"] as const) {
      const tip = weiOfGwei(suggested.body[tier].suggestedMaxPriorityFeePerGas);
      const wei: bigint = action.gas * (nextBaseFeeWei + tip) + BigInt(shown.l1FeeWei) + operatorFeeOf(action.gas);
      assert.equal(shown[tier].wei, wei.toString(), `${action.id} ${tier}`);
    }
  }
}

test('a chain before Isthmus (contracts-bedrock\'s GasPriceOracle, no getOperatorFee) sets no operator fee: "0", and the tiers as before', async () => {
  const costs = await costsWhen("the L1 fees", (body) => body.actions.every((action) => action.l1FeeWei !== null));
  costsSchema.parse(costs);
  assert.equal(costs.l1FeeProblem, null);
  assert.deepEqual(
    costs.actions.map((action) => action.operatorFeeWei),
    ACTIONS.map(() => "0"),
  );
  await assertTiers(costs, () => 0n);
});

test("a chain since Isthmus: each tier adds the oracle's getOperatorFee(gas), and the action says it apart as operatorFeeWei", async () => {
  await node.request("hardhat_setCode", [REAL_ORACLE, deployedBytecodeOf("GasPriceOracle")]);
  const standIn = compileSolidity("test/support/contracts/GasPriceOracleIsthmusStandIn.sol", "GasPriceOracleIsthmusStandIn");
  await node.request("hardhat_setCode", [OP_GAS_PRICE_ORACLE, await node.request<string>("eth_call", [{ data: standIn.bytecode }, "latest"])]);
  await setOperatorFee(true, SCALAR, CONSTANT);
  const expected = (gas: bigint) => (gas * SCALAR) / 1_000_000n + CONSTANT;
  const costs = await costsWhen("the operator fees", (body) => body.actions.every((action) => action.operatorFeeWei !== "0"));
  costsSchema.parse(costs);
  assert.equal(costs.l1FeeProblem, null);
  for (const action of ACTIONS) {
    const shown = costs.actions.find((candidate) => candidate.id === action.id)!;
    assert.equal(shown.operatorFeeWei, (await oracleCall("getOperatorFee", [action.gas])).toString(), `${action.id}: the oracle's own answer`);
    assert.equal(shown.operatorFeeWei, expected(action.gas).toString(), `${action.id}: gas x scalar / 1e6 + constant`);
  }
  await assertTiers(costs, expected);
});

test('an operator fee beyond any transaction\'s (10^22 wei) is not used: null, said in l1FeeProblem, the tiers without it; a chain that turns it off is back at "0"', async () => {
  await setOperatorFee(true, 0n, 10n ** 22n);
  const refused = await costsWhen("the operator fee refused", (body) => body.actions.every((action) => action.operatorFeeWei === null));
  assert.match(refused.l1FeeProblem ?? "", /^the operator fee could not be read from the chain's GasPriceOracle: .*more than any transaction's operator fee/);
  assert.ok(
    refused.actions.every((action) => action.l1FeeWei !== null),
    "the L1 fee is still read",
  );
  await assertTiers(refused, () => 0n);
  await setOperatorFee(false, SCALAR, CONSTANT);
  const off = await costsWhen("no operator fee", (body) => body.actions.every((action) => action.operatorFeeWei === "0"));
  assert.equal(off.l1FeeProblem, null);
  await assertTiers(off, () => 0n);
});

test("a rule in money counts the operator fee as /costs does: its threshold is the base fee at which the medium tier, operator fee included, costs the amount", async () => {
  await setOperatorFee(true, SCALAR, CONSTANT);
  const costs = await costsWhen(
    "the operator fees and a price",
    (body) => body.price !== null && body.actions.every((action) => action.operatorFeeWei !== "0"),
  );
  const swap = costs.actions.find((action) => action.id === "swap")!;
  const fiat = "5.00";
  service.configureAlerts({
    rules: [{ id: "cheap-swap", chainId: CHAIN_ID, when: "below", fiat, action: "swap", cooldownMinutes: 0 }],
    notifications: { enabled: false, mutedChainIds: [], enterAfterBlocks: 3, enterMarginPercent: 10, calmAfterBlocks: 10, cooldownMinutes: 15 },
  });
  const armed = await waitFor("the money rule armed", async () => {
    const rule = (await callApi<AlertsBody>(service.url, "/alerts", KEY)).body.rules.find((candidate) => candidate.id === "cheap-swap");
    return rule?.threshold !== null && rule?.paused === null ? rule : undefined;
  });
  const suggested = await callApi<SuggestedGasFeesBody>(service.url, `/networks/${CHAIN_ID}/suggestedGasFees`, KEY);
  // 5.00 USD at 2,000 USD an ETH is 0.0025 ETH: what is left of it after the L1 and operator fees, per gas, less the tip.
  const budgetWei = 2_500_000_000_000_000n;
  const fixedWei = BigInt(swap.l1FeeWei!) + BigInt(swap.operatorFeeWei!);
  const thresholdWei = (budgetWei - fixedWei) / BigInt(swap.gas) - weiOfGwei(suggested.body.medium.suggestedMaxPriorityFeePerGas);
  assert.equal(armed.threshold, formatGwei(thresholdWei));
});
