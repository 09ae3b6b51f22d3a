// Costs in money end to end: the real service following a real Hardhat node that carries Chainlink's aggregator
// (MockV3Aggregator compiled from @chainlink/contracts) and the OP stack's GasPriceOracle and L1Block predeploys (the
// bytecode of @eth-optimism/contracts-bedrock, placed with hardhat_setCode, L1 values set by the depositor). Each
// expected cost is computed here on its own: the next base fee from the node's eth_feeHistory, the L1 fee from the
// oracle's own getL1Fee, the price the test wrote, the money in integer cents. Then the feed and the oracle go bad in
// every way the contract names, and nothing is shown as current that is not.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { decodeFunctionResult, encodeFunctionData, formatGwei, parseAbi } from "viem";
import type { RunningService } from "../../shared/app/startService.ts";
import { startLocalService } from "../support/startLocalService.ts";
import { DEFAULT_ACTIONS } from "../../shared/core/costs/defaultActions.ts";
import { opStackStandInTx } from "../../shared/core/costs/l1FeeData.ts";
import { deployPriceFeed, OP_GAS_PRICE_ORACLE, placeOpStackPredeploys, writeRound } from "../../shared/demo/costContracts.ts";
import { type EvmNode, startEvmNode } from "../../shared/demo/startEvmNode.ts";
import type { ChainPlan } from "../../shared/service/chainPlan.ts";
import { type Costs, costsSchema, type PriceHistory, priceHistorySchema } from "../../shared/wire/costs.ts";
import type { NetworkStatus } from "../../shared/wire/networkStatus.ts";
import type { AlertsBody } from "../../shared/wire/alerts.ts";
import type { SuggestedGasFeesBody } from "../../shared/wire/apiBodies.ts";
import { callApi } from "../support/apiClient.ts";
import { waitFor } from "../support/waitFor.ts";

const KEY = "0123456789abcdef0123456789abcdef";
const CHAIN_ID = 31337;
const GWEI = 1_000_000_000n;
const DECIMALS = 8;
/** ETH / USD as Chainlink's feed answered it on 3 May 2023 (1,893.51 USD), in the feed's 8 decimals. */
const FIRST_ANSWER = 189_351_000_000n;
const HEARTBEAT_S = 3600;
/** The tests' stand-in of a feed's description: MockV3Aggregator answers its source path. */
const MOCK_DESCRIPTION = "v0.8/tests/MockV3Aggregator.sol";
const L1_VALUES = {
  baseFeeScalar: 1368,
  blobBaseFeeScalar: 810_949,
  l1BaseFeeWei: 31n * GWEI,
  l1BlobBaseFeeWei: 1n,
  l1Number: 17_180_000n,
  l1Timestamp: 1_683_072_000,
};
const ORACLE_ABI = parseAbi(["function getL1Fee(bytes _data) view returns (uint256)"]);

/** Money in the contract's format, computed here on its own: decimal string arithmetic on the exact product. */
function expectedFiat(wei: bigint, answer: bigint): string {
  // wei × answer is the amount in units of 10^-(18 + DECIMALS) of the currency.
  const scale = 18 + DECIMALS;
  const digits = (wei * answer).toString().padStart(scale + 1, "0");
  const whole = digits.slice(0, -scale);
  const fraction = digits.slice(-scale);
  if (BigInt(whole) > 0n || fraction.slice(0, 2) !== "00") {
    const cents = BigInt(whole + fraction.slice(0, 2)) + (Number(fraction[2]) >= 5 ? 1n : 0n);
    const text = cents.toString().padStart(3, "0");
    return `${text.slice(0, -2)}.${text.slice(-2)}`;
  }
  if (/^0*$/.test(fraction)) return "0.00";
  const firstSignificant = fraction.search(/[1-9]/);
  let kept = BigInt(fraction.slice(firstSignificant, firstSignificant + 2)) + (Number(fraction[firstSignificant + 2] ?? "0") >= 5 ? 1n : 0n);
  let places = firstSignificant + 2;
  if (kept === 100n) {
    kept = 10n;
    places -= 1;
  }
  return `0.${kept.toString().padStart(places, "0")}`;
}

describe("GET /networks/{chainId}/costs over a Hardhat chain with a Chainlink feed and the OP-stack oracle", () => {
  let node: EvmNode;
  let service: RunningService;
  let feed: `0x${string}`;
  const get = async <T>(path: string) => (await callApi<T>(service.url, path, KEY)).body;

  before(async () => {
    node = await startEvmNode({ chainId: CHAIN_ID });
    await node.mineBlocks([20n, 22n, 25n, 24n, 26n].map((gwei) => gwei * GWEI));
    feed = await deployPriceFeed(node, DECIMALS, FIRST_ANSWER);
    await placeOpStackPredeploys(node, L1_VALUES);
    const plan: ChainPlan = {
      chainId: CHAIN_ID,
      name: "OP-stack test chain",
      rpcUrls: [node.url],
      blockTimeMs: 1000,
      pollIntervalMs: 100,
      l1FeeKind: "op-stack",
      priceFeed: { address: feed, token: "ETH", description: MOCK_DESCRIPTION, heartbeatSeconds: HEARTBEAT_S },
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

  /** The newest block and the next block's base fee, as the node reports them. */
  async function nodeBasis(): Promise<{ block: bigint; nextBaseFeeWei: bigint }> {
    const history = await node.request<{ oldestBlock: string; baseFeePerGas: string[] }>("eth_feeHistory", ["0x1", "latest", []]);
    return { block: BigInt(history.oldestBlock), nextBaseFeeWei: BigInt(history.baseFeePerGas[1]!) };
  }

  async function oracleL1Fee(txBytes: number): Promise<bigint> {
    const data = encodeFunctionData({ abi: ORACLE_ABI, functionName: "getL1Fee", args: [opStackStandInTx(txBytes)] });
    const result = await node.request<`0x${string}`>("eth_call", [{ to: OP_GAS_PRICE_ORACLE, data }, "latest"]);
    return decodeFunctionResult({ abi: ORACLE_ABI, functionName: "getL1Fee", data: result });
  }

  /** /costs once it answers at the node's newest block with `ready` true of it. */
  async function costsWhen(what: string, ready: (costs: Costs) => boolean): Promise<Costs> {
    const { block } = await nodeBasis();
    return waitFor(what, async () => {
      const answer = await callApi<Costs>(service.url, `/networks/${CHAIN_ID}/costs`, KEY);
      return answer.status === 200 && answer.body.basis.block === block.toString() && ready(answer.body) ? answer.body : undefined;
    });
  }

  async function tipsAt(block: string): Promise<Record<"low" | "medium" | "high", bigint>> {
    const answer = await callApi<SuggestedGasFeesBody>(service.url, `/networks/${CHAIN_ID}/suggestedGasFees`, KEY);
    assert.equal(answer.headers.get("x-block-number"), block, "suggestedGasFees answers at the block /costs was computed at");
    const wei = (gwei: string) => {
      const [whole, fraction = ""] = gwei.split(".");
      return BigInt(whole!) * GWEI + BigInt(fraction.padEnd(9, "0"));
    };
    return {
      low: wei(answer.body.low.suggestedMaxPriorityFeePerGas),
      medium: wei(answer.body.medium.suggestedMaxPriorityFeePerGas),
      high: wei(answer.body.high.suggestedMaxPriorityFeePerGas),
    };
  }

  /** Every action's tiers as the contract says, from the node's base fee, the oracle's L1 fee (or none) and `answer`. */
  async function assertCostsExact(costs: Costs, answer: bigint | undefined, l1: "oracle" | "unknown"): Promise<void> {
    const { block, nextBaseFeeWei } = await nodeBasis();
    assert.equal(costs.basis.block, block.toString());
    const tips = await tipsAt(costs.basis.block);
    const actions = [...DEFAULT_ACTIONS, { id: "bridge", name: "Bridge deposit", gas: 120_000n, txBytes: 420 }];
    assert.deepEqual(
      costs.actions.map((action) => action.id),
      actions.map((action) => action.id),
    );
    for (const action of actions) {
      const shown = costs.actions.find((candidate) => candidate.id === action.id)!;
      const l1FeeWei = l1 === "oracle" ? await oracleL1Fee(action.txBytes) : undefined;
      assert.equal(shown.gas, action.gas.toString());
      assert.equal(shown.l1FeeWei, l1FeeWei === undefined ? null : l1FeeWei.toString(), `${action.id}: the L1 fee is the oracle's own getL1Fee`);
      if (l1FeeWei !== undefined) assert.ok(l1FeeWei > 0n, "an OP-stack chain charges an L1 fee");
      for (const tier of ["low", "medium", "high"] as const) {
        const wei = action.gas * (nextBaseFeeWei + tips[tier]) + (l1FeeWei ?? 0n);
        assert.equal(shown[tier].wei, wei.toString(), `${action.id} ${tier}: gas x (next base fee + tip) + L1 fee`);
        assert.equal(shown[tier].fiat, answer === undefined ? null : expectedFiat(wei, answer), `${action.id} ${tier}: in money`);
      }
    }
  }

  test("every action's cost is exact: integer wei from the node's base fee and the oracle's L1 fee, money from the feed's answer", async () => {
    const costs = await costsWhen("a price and the L1 fees", (body) => body.price !== null && body.actions.every((action) => action.l1FeeWei !== null));
    costsSchema.parse(costs); // the wire contract's schema, the one the OpenAPI description is made from
    assert.equal(costs.currency, "USD");
    assert.equal(costs.priceProblem, null);
    assert.equal(costs.l1FeeProblem, null);
    assert.deepEqual({ ...costs.price, updatedAt: 0 }, { value: "1893.51", token: "ETH", feed, feedChainId: CHAIN_ID, updatedAt: 0 });
    await assertCostsExact(costs, FIRST_ANSWER, "oracle");
    const networks = await get<NetworkStatus[]>("/networks");
    assert.deepEqual(networks[0]!.price, costs.price, "/networks carries the same price");
    const metrics = await (await fetch(`${service.url}/metrics`, { headers: { authorization: `Basic ${Buffer.from(`${KEY}:`).toString("base64")}` } })).text();
    assert.match(
      metrics,
      new RegExp(`gasfees_price\\{chain_id="${CHAIN_ID}",chain="OP-stack test chain",currency="USD",token="ETH"\\} 1893\\.51\\n`),
      "/metrics carries the price",
    );
  });

  test("a price moving 15% in one block (within what the feed allows) is shown at once, exactly, and the past keeps both points", async () => {
    const latest = await node.request<{ timestamp: string }>("eth_getBlockByNumber", ["latest", false]);
    const moved = (FIRST_ANSWER * 115n) / 100n;
    await writeRound(node, feed, { roundId: 2n, answer: moved, updatedAt: Number(BigInt(latest.timestamp)) + 1 });
    const costs = await costsWhen("the moved price", (body) => body.price?.value === "2177.5365");
    await assertCostsExact(costs, moved, "oracle");
    const points = priceHistorySchema.parse(await get<PriceHistory>(`/networks/${CHAIN_ID}/priceHistory`));
    assert.deepEqual(
      points.slice(-2).map((point) => point.value),
      ["1893.51", "2177.5365"],
    );
  });

  test("a price 10x in one round from the only endpoint is not published nor stored: the last good one is kept, and said", async () => {
    const latest = await node.request<{ timestamp: string }>("eth_getBlockByNumber", ["latest", false]);
    const jumpAt = Number(BigInt(latest.timestamp)) + 1;
    await writeRound(node, feed, { roundId: 3n, answer: ((FIRST_ANSWER * 115n) / 100n) * 10n, updatedAt: jumpAt });
    const costs = await costsWhen("the jump held", (body) => /is not used/.test(body.priceProblem ?? ""));
    assert.equal(costs.price?.value, "2177.5365", "the last good price is kept");
    assert.match(
      costs.priceProblem!,
      /^the price feed's newest round \(21775\.365 USD\) is not used: it moved 10\.0 times from the last price used, more than the feed moves in that time \(20% at most\), and chain 31337 has no other endpoint to confirm it; the last good price \(2177\.5365\) is kept$/,
    );
    await assertCostsExact(costs, (FIRST_ANSWER * 115n) / 100n, "oracle");
    const networks = await get<NetworkStatus[]>("/networks");
    assert.equal(networks[0]!.price?.value, "2177.5365");
    const points = priceHistorySchema.parse(await get<PriceHistory>(`/networks/${CHAIN_ID}/priceHistory`));
    assert.ok(!points.some((point) => point.time === jumpAt), "the jump is not kept as a past price");
    // A round back near the last good price is used again.
    await writeRound(node, feed, { roundId: 4n, answer: FIRST_ANSWER, updatedAt: jumpAt + 1 });
    await costsWhen("the price back", (body) => body.price?.value === "1893.51" && body.priceProblem === null);
  });

  const badRounds: { name: string; round: (nowS: number) => { answer: bigint; updatedAt: number }; problem: RegExp }[] = [
    {
      name: "a stale round (older than the heartbeat allows)",
      round: (nowS) => ({ answer: FIRST_ANSWER, updatedAt: nowS - 2 * HEARTBEAT_S }),
      problem: /stale/,
    },
    { name: "a zero answer", round: (nowS) => ({ answer: 0n, updatedAt: nowS }), problem: /zero/ },
    { name: "a negative answer", round: (nowS) => ({ answer: -FIRST_ANSWER, updatedAt: nowS }), problem: /negative/ },
  ];
  let roundId = 10n;
  for (const bad of badRounds) {
    test(`${bad.name}: no price, priceProblem says why, costs in wei only`, async () => {
      const latest = await node.request<{ timestamp: string }>("eth_getBlockByNumber", ["latest", false]);
      roundId += 1n;
      await writeRound(node, feed, { roundId, ...bad.round(Number(BigInt(latest.timestamp)) + 1) });
      const costs = await costsWhen(bad.name, (body) => body.price === null && bad.problem.test(body.priceProblem ?? ""));
      await assertCostsExact(costs, undefined, "oracle");
      const networks = await get<NetworkStatus[]>("/networks");
      assert.equal(networks[0]!.price, null, "never shown as current in /networks either");
      assert.match(networks[0]!.priceProblem ?? "", bad.problem);
      // A good round again brings the price back.
      roundId += 1n;
      await writeRound(node, feed, { roundId, answer: FIRST_ANSWER, updatedAt: Number(BigInt(latest.timestamp)) + 2 });
      await costsWhen("the price back", (body) => body.price?.value === "1893.51");
    });
  }

  test("an oracle that reverts: l1FeeWei null, l1FeeProblem says why, the tiers hold the L2 part only", async () => {
    const code = await node.request<string>("eth_getCode", [OP_GAS_PRICE_ORACLE, "latest"]);
    await node.request("hardhat_setCode", [OP_GAS_PRICE_ORACLE, "0x60006000fd"]); // PUSH1 0 PUSH1 0 REVERT
    try {
      const costs = await costsWhen("the L1 fee gone", (body) => body.l1FeeProblem !== null);
      assert.match(costs.l1FeeProblem!, /GasPriceOracle/);
      await assertCostsExact(costs, FIRST_ANSWER, "unknown");
    } finally {
      await node.request("hardhat_setCode", [OP_GAS_PRICE_ORACLE, code]);
    }
    await costsWhen("the L1 fee back", (body) => body.l1FeeProblem === null);
  });

  const badFeeds: { name: string; code: string }[] = [
    { name: "a feed that reverts", code: "0x60006000fd" },
    // Answers 32 bytes of 0xff to any call: latestRoundData needs 160.
    { name: "a feed that answers garbage", code: `0x7f${"ff".repeat(32)}60005260206000f3` },
  ];
  for (const bad of badFeeds) {
    test(`${bad.name}: no price, priceProblem says it could not be read, nothing crashes`, async () => {
      const code = await node.request<string>("eth_getCode", [feed, "latest"]);
      await node.request("hardhat_setCode", [feed, bad.code]);
      try {
        const costs = await costsWhen(bad.name, (body) => body.price === null && /could not be read/.test(body.priceProblem ?? ""));
        await assertCostsExact(costs, undefined, "oracle");
        assert.equal((await callApi(service.url, "/healthz")).status, 200);
      } finally {
        await node.request("hardhat_setCode", [feed, code]);
      }
      await costsWhen("the price back", (body) => body.price !== null);
    });
  }

  test("a rule in money fires when the action's medium cost falls to its amount, and is paused without a price", async () => {
    const before = await costsWhen("a price", (body) => body.price?.value === "1893.51");
    const swap = before.actions.find((action) => action.id === "swap")!;
    // 90% of the swap's medium cost now: not yet true; the price falling 15% (as far as the feed may move in a read)
    // makes it true.
    const mediumWei = BigInt(swap.medium.wei);
    const amountCents = (mediumWei * FIRST_ANSWER * 90n) / 10n ** 26n;
    const fiat = `${amountCents / 100n}.${(amountCents % 100n).toString().padStart(2, "0")}`;
    service.configureAlerts({
      rules: [{ id: "cheap-swap", chainId: CHAIN_ID, when: "below", fiat, action: "swap", cooldownMinutes: 0 }],
      notifications: { enabled: false, mutedChainIds: [], enterAfterBlocks: 3, enterMarginPercent: 10, calmAfterBlocks: 10, cooldownMinutes: 15 },
    });
    type Status = AlertsBody["rules"][number];
    const ruleNow = async () => (await get<AlertsBody>("/alerts")).rules.find((rule) => rule.id === "cheap-swap");
    const armed = await waitFor("the money rule armed", async () => {
      const rule = await ruleNow();
      return rule?.threshold !== null && rule?.paused === null ? rule : undefined;
    });
    assert.equal(armed.fiat, fiat);
    assert.equal(armed.action, "swap");
    assert.equal(armed.lastFired, null);
    // The threshold, computed here: the highest next base fee at which gas x (base fee + medium tip) + the L1 fee costs
    // at most fiat.
    const tips = await tipsAt(before.basis.block);
    // cents / 100 in the currency, / (answer / 10^8) in ETH, x 10^18 in wei.
    const budgetWei = (amountCents * 10n ** 24n) / FIRST_ANSWER;
    const thresholdWei = (budgetWei - (await oracleL1Fee(swap.txBytes))) / BigInt(swap.gas) - tips.medium;
    assert.equal(armed.threshold, formatGwei(thresholdWei));

    const latest = await node.request<{ timestamp: string }>("eth_getBlockByNumber", ["latest", false]);
    await writeRound(node, feed, { roundId: 90n, answer: (FIRST_ANSWER * 85n) / 100n, updatedAt: Number(BigInt(latest.timestamp)) + 1 });
    await costsWhen("the fallen price", (body) => body.price?.value === "1609.4835");
    // A rule counts new blocks: the round's own block may have been seen before the new price was read, so one more
    // block is mined, which the rule sees at the new price.
    await node.mineBlocks([(await nodeBasis()).nextBaseFeeWei]);
    const fired = await waitFor("the money rule fired", async () => {
      const rule: Status | undefined = await ruleNow();
      return rule?.lastFired ?? undefined;
    });
    assert.ok(fired.block);

    await writeRound(node, feed, { roundId: 91n, answer: FIRST_ANSWER, updatedAt: Number(BigInt(latest.timestamp)) - 3 * HEARTBEAT_S });
    await waitFor("the money rule paused", async () => (await ruleNow())?.paused === "no price");
    await writeRound(node, feed, { roundId: 92n, answer: FIRST_ANSWER, updatedAt: Number(BigInt(latest.timestamp)) + 2 });
    await waitFor("the money rule watching again", async () => (await ruleNow())?.paused === null);
    service.configureAlerts({
      rules: [],
      notifications: { enabled: false, mutedChainIds: [], enterAfterBlocks: 3, enterMarginPercent: 10, calmAfterBlocks: 10, cooldownMinutes: 15 },
    });
  });

  test("a feed that names another pair is never read for this one", async () => {
    const other = await startLocalService(
      [
        {
          chainId: CHAIN_ID,
          name: "wrong feed",
          rpcUrls: [node.url],
          blockTimeMs: 1000,
          pollIntervalMs: 100,
          priceFeed: { address: feed, description: "BTC / USD" },
        },
      ],
      [{ key: KEY }],
      { backfill: false, costReads: { intervalMs: 150 } },
    );
    try {
      const costs = await waitFor("the description refused", async () => {
        const answer = await callApi<Costs>(other.url, `/networks/${CHAIN_ID}/costs`, KEY);
        return answer.status === 200 && /describes itself as "v0\.8\/tests\/MockV3Aggregator\.sol", not "BTC \/ USD"/.test(answer.body.priceProblem ?? "")
          ? answer.body
          : undefined;
      });
      assert.equal(costs.price, null);
      assert.ok(costs.actions.every((action) => action.low.fiat === null && action.l1FeeWei === "0"));
    } finally {
      await other.stop();
    }
  });
});
