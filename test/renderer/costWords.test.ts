import assert from "node:assert/strict";
import { test } from "node:test";
import type { ActionCost, Price } from "../../shared/wire/costs.ts";
import { fiatOfWei } from "../../shared/core/text/money.ts";
import {
  blobRowWords,
  chargesL1Fee,
  gasText,
  l1FeeText,
  l1FeeTitle,
  operatorFeeText,
  chargesOperatorFee,
  heldPriceWords,
  noPriceWords,
  priceAgeText,
  priceText,
  shortAddress,
  tierCostText,
  tierSpreadWords,
  tierTipsGwei,
  weiAsGwei,
} from "../../renderer/src/costs/costWords.ts";

const PRICE: Price = { value: "3120.45", token: "ETH", feed: "0x5f4eC3Df9cbd43714FE2740f5E3616155c5b8419", feedChainId: 1, updatedAt: 1_767_225_600 };

function action(l1FeeWei: string | null, operatorFeeWei: string | null = "0"): ActionCost {
  const tier = { wei: "317100000000000", fiat: "0.99" };
  return { id: "transfer", name: "ETH transfer", gas: "21000", txBytes: 110, low: tier, medium: tier, high: tier, l1FeeWei, operatorFeeWei };
}

test("a tier in money with a price, else in Gwei of the gas token (never a made-up money figure)", () => {
  assert.equal(tierCostText({ wei: "317100000000000", fiat: "0.99" }, "USD"), "$0.99");
  assert.equal(tierCostText({ wei: "317100000000000", fiat: null }, "USD"), "317,100 Gwei");
  assert.equal(weiAsGwei("1"), "1e-9");
  assert.equal(weiAsGwei("105000000000"), "105");
});

test("the price: token and value, its round's age, its feed short", () => {
  assert.equal(priceText(PRICE, "USD"), "ETH $3,120.45");
  assert.equal(priceAgeText(PRICE, PRICE.updatedAt * 1000 + 180_000), "round 3 min old");
  assert.equal(priceAgeText(PRICE, PRICE.updatedAt * 1000 + 400), "round just now");
  assert.equal(priceAgeText(PRICE, PRICE.updatedAt * 1000 + 47 * 3_600_000), "round 47 h old");
  assert.equal(priceAgeText(PRICE, PRICE.updatedAt * 1000 + 1303.5 * 86_400_000), "round 1,303 days old");
  assert.equal(shortAddress(PRICE.feed), "0x5f4e…8419");
});

test("no price: the service's reason, and what is shown instead", () => {
  assert.equal(noPriceWords({ currency: "USD", price: PRICE, priceProblem: null }), undefined);
  assert.equal(
    noPriceWords({ currency: "USD", price: null, priceProblem: "the feed's round is 26 h old, its heartbeat allows 1 h" }),
    "No USD price: the feed's round is 26 h old, its heartbeat allows 1 h. Costs are shown in Gwei of the gas token, not in USD.",
  );
  assert.match(noPriceWords({ currency: "EUR", price: null, priceProblem: null })!, /^No EUR price: the service has no price/);
  // A reason that ends a sentence of its own (an endpoint's error message) is not given a second full stop.
  assert.equal(
    noPriceWords({ currency: "USD", price: null, priceProblem: "the price feed could not be read: An unknown RPC error occurred." }),
    "No USD price: the price feed could not be read: An unknown RPC error occurred. Costs are shown in Gwei of the gas token, not in USD.",
  );
});

test("the L1 data fee: shown apart on rollups, in money at the price, unknown when unread", () => {
  assert.equal(chargesL1Fee({ actions: [action("0")] }), false);
  assert.equal(chargesL1Fee({ actions: [action("0"), action("1200")] }), true);
  assert.equal(chargesL1Fee({ actions: [action(null)] }), true);
  // 2e13 wei at $3,120.45: 0.062409 -> $0.06
  assert.equal(l1FeeText(action("20000000000000"), PRICE, "USD"), "$0.06");
  assert.equal(l1FeeText(action("20000000000000"), null, "USD"), "20,000 Gwei");
  assert.equal(l1FeeText(action(null), PRICE, "USD"), "unknown");
  assert.equal(gasText("180000"), "180,000 gas");
});

test("one blob: a row only where /costs answers `blob`, its one figure written as the tiers are, with its blob base fee", () => {
  const basis = { block: "14669", baseFee: "123.653357841", blobBaseFee: "58.392936369" };
  const blob = { blobGas: "131072", wei: "7653678955757568", fiat: "14.38" };
  assert.deepEqual(blobRowWords({ currency: "USD", basis, blob }), {
    blobGas: "131,072 blob gas",
    cost: "$14.38",
    basis: "blob base fee 58.39 Gwei",
  });
  // Without a price (the service's fiat is null): Gwei of the gas token, as every tier then, never a money figure.
  assert.deepEqual(blobRowWords({ currency: "USD", basis, blob: { ...blob, fiat: null } }), {
    blobGas: "131,072 blob gas",
    cost: "7,654,000 Gwei",
    basis: "blob base fee 58.39 Gwei",
  });
  assert.equal(blobRowWords({ currency: "EUR", basis, blob: { ...blob, fiat: "0.0042" } })?.cost, "€0.0042");
  // A chain without blob fees: no row.
  assert.equal(blobRowWords({ currency: "USD", basis: { block: "1", baseFee: "1" } }), undefined);
  // A blob without its basis (not what the service answers, but the schema allows it): the figure, no made-up basis.
  assert.equal(blobRowWords({ currency: "USD", basis: { block: "1", baseFee: "1" }, blob })?.basis, undefined);
  assert.equal(gasText("131072", "blob gas"), "131,072 blob gas");
});

/** An action of `gas` at a next base fee of `baseFeeWei` and these tips (wei), with an L1 fee, priced at 1,878.50. */
function tiered(
  id: string,
  name: string,
  gas: bigint,
  baseFeeWei: bigint,
  tipsWei: readonly [bigint, bigint, bigint],
  l1FeeWei = 108_912_000_105n,
  operatorFeeWei = 0n,
): ActionCost {
  const [low, medium, high] = tipsWei.map((tip) => {
    const wei = gas * (baseFeeWei + tip) + l1FeeWei + operatorFeeWei;
    return { wei: String(wei), fiat: fiatOfWei(wei, "1878.5") };
  });
  return {
    id,
    name,
    gas: String(gas),
    txBytes: 118,
    low: low!,
    medium: medium!,
    high: high!,
    l1FeeWei: String(l1FeeWei),
    operatorFeeWei: String(operatorFeeWei),
  };
}

const BASE_FEE_WEI = 92_883_124_373n;
const basis = { block: "14651", baseFee: "92.883124373" };

test("each tier's tip, exact, from what /costs answers: (wei − L1 fee − operator fee) / gas − the next base fee", () => {
  const costs = { currency: "USD", basis, actions: [tiered("transfer", "ETH transfer", 21_000n, BASE_FEE_WEI, [74_000_000n, 146_000_000n, 482_000_000n])] };
  assert.deepEqual(tierTipsGwei(costs), { low: "0.074", medium: "0.146", high: "0.482" });
  // An action whose L1 fee is unknown cannot say its tip: the next one does.
  const unknown = { ...costs.actions[0]!, l1FeeWei: null };
  assert.deepEqual(tierTipsGwei({ ...costs, actions: [unknown, ...costs.actions] }), { low: "0.074", medium: "0.146", high: "0.482" });
  assert.equal(tierTipsGwei({ ...costs, actions: [unknown] }), undefined);
  // An OP-stack chain's operator fee is in every tier too, and is taken out as the L1 fee is.
  const operated = tiered("transfer", "ETH transfer", 21_000n, BASE_FEE_WEI, [74_000_000n, 146_000_000n, 482_000_000n], 108_912_000_105n, 21_000_000_000_000n);
  assert.deepEqual(tierTipsGwei({ ...costs, actions: [operated] }), { low: "0.074", medium: "0.146", high: "0.482" });
});

test("tiers that read alike are explained: tips below the figures' rounding, all the same, or none at all", () => {
  // The demo's tips: the transfer's three figures are within a cent, a swap's apart.
  const transfer = tiered("transfer", "ETH transfer", 21_000n, BASE_FEE_WEI, [74_000_000n, 146_000_000n, 482_000_000n]);
  const swap = tiered("swap", "Swap", 106_467n, BASE_FEE_WEI, [74_000_000n, 146_000_000n, 2_482_000_000n]);
  assert.equal(tierCostText(transfer.low, "USD"), tierCostText(transfer.medium, "USD"));
  assert.equal(
    tierSpreadWords({ currency: "USD", basis, actions: [transfer, swap] }),
    "The tiers differ by their tips only (0.074, 0.146 and 0.482 Gwei, beside a next base fee of 92.88 Gwei): for the ETH transfer that is less than the rounding of the figures shown.",
  );
  assert.match(tierSpreadWords({ currency: "USD", basis, actions: [transfer, transfer] }) ?? "", /: for every action that is less than/);
  // Every tier apart: nothing to explain.
  const apart = tiered("swap", "Swap", 106_467n, BASE_FEE_WEI, [100_000_000n, 2_000_000_000n, 9_000_000_000n]);
  assert.equal(tierSpreadWords({ currency: "USD", basis, actions: [apart] }), undefined);
  // Every block's cheapest tip the same (the demo before it carried tips: 1 Gwei), and empty blocks.
  const same = tiered("transfer", "ETH transfer", 21_000n, BASE_FEE_WEI, [1_000_000_000n, 1_000_000_000n, 1_000_000_000n]);
  assert.equal(
    tierSpreadWords({ currency: "USD", basis, actions: [same] }),
    "The three tiers are the same: every recent block's cheapest transaction paid the same tip, 1 Gwei, so paying more buys no faster inclusion.",
  );
  const none = tiered("transfer", "ETH transfer", 21_000n, BASE_FEE_WEI, [0n, 0n, 0n]);
  assert.match(tierSpreadWords({ currency: "USD", basis, actions: [none] }) ?? "", /paid no tips/);
});

test("the operator fee is shown where the chain sets one: beside the L1 fee and in its tooltip; nothing where it is 0", () => {
  assert.equal(operatorFeeText(action("20000000000000"), PRICE, "USD"), undefined, '"0": not shown');
  assert.equal(operatorFeeText(action("20000000000000", "1000000000000"), PRICE, "USD"), "$0.0031");
  assert.equal(operatorFeeText(action("20000000000000", "1000000000000"), null, "USD"), "1,000 Gwei");
  assert.equal(operatorFeeText(action("20000000000000", null), PRICE, "USD"), "unknown");
  assert.equal(l1FeeTitle(action("20000000000000")), "L1 data fee 20000000000000 wei");
  assert.equal(l1FeeTitle(action(null, "1000000000000")), "L1 data fee unknown wei; operator fee 1000000000000 wei (also in each tier)");
  assert.equal(chargesOperatorFee({ actions: [action("1"), action("1")] }), false);
  assert.equal(chargesOperatorFee({ actions: [action("1"), action("1", "5")] }), true);
});

test("a held price says so: the feed's newer round is not used, and why; nothing when the price is the newest or absent", () => {
  const problem = "the feed's round of 18,785.00 moved 900% from 1,878.50 and no other endpoint confirms it.";
  assert.equal(
    heldPriceWords({ price: PRICE, priceProblem: problem }),
    "Held: the feed's newest round is not used (the feed's round of 18,785.00 moved 900% from 1,878.50 and no other endpoint confirms it). The costs are at the last price the service believed.",
  );
  assert.equal(heldPriceWords({ price: PRICE, priceProblem: null }), undefined);
  assert.equal(heldPriceWords({ price: null, priceProblem: problem }), undefined);
});
