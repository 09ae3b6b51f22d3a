// Costs in words for the dashboard and its tiles: an action's tier in money (or, without a price, in Gwei of the gas
// token), the price with its age and feed, and why there is no price.
import { toGweiString } from "../../../shared/core/fees/gwei.ts";
import { shortGwei } from "../../../shared/core/text/shortGwei.ts";
import type { ActionCost, Costs, Price } from "../../../shared/wire/costs.ts";
import { shortAge } from "../text/format.ts";
import { fiatOfWei, moneyText, readDecimal } from "../../../shared/core/text/money.ts";

export type Tier = "low" | "medium" | "high";

const DAY_MS = 86_400_000;

/** What a tier costs, for reading: "$1.40" with a price; else the amount of the gas token in Gwei ("317,100 Gwei"). */
export function tierCostText(cost: { readonly wei: string; readonly fiat: string | null }, currency: string): string {
  if (cost.fiat !== null) return moneyText(cost.fiat, currency);
  return `${weiAsGwei(cost.wei)} Gwei`;
}

/** An amount of wei in Gwei, about four significant digits ("317,100", "0.0105"); exact wei stays in the title. */
export function weiAsGwei(wei: string): string {
  return shortGwei(toGweiString(BigInt(wei)));
}

/** "0x5f4e…8419": a feed's address, short. */
export function shortAddress(address: string): string {
  return address.length > 12 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;
}

/** "ETH $3,120.45": the gas token and its price in the currency. */
export function priceText(price: Price, currency: string): string {
  return `${price.token} ${moneyText(price.value, currency)}`;
}

/** "price round 3 min old": how old the feed's round is at `nowMs` (the service uses it only while its feed allows). */
export function priceAgeText(price: Price, nowMs: number): string {
  const ageMs = nowMs - price.updatedAt * 1000;
  // Past two days, in days: a replay of 2023 (the demo) read today is "1,303 days old", not "31271 h 42 min".
  if (ageMs >= 2 * DAY_MS) return `round ${Math.floor(ageMs / DAY_MS).toLocaleString("en-US")} days old`;
  const age = shortAge(ageMs);
  return age === "now" ? "round just now" : `round ${age} old`;
}

/**
 * Why the costs are not in money, as a sentence: the service's priceProblem, with what is shown instead. Undefined
 * when there is a price.
 */
export function noPriceWords(costs: Pick<Costs, "price" | "priceProblem" | "currency">): string | undefined {
  if (costs.price !== null) return undefined;
  // Some reasons end with a full stop of their own (an endpoint's error message): one is enough.
  const why = (costs.priceProblem ?? "the service has no price for this chain's gas token").replace(/[.\s]+$/, "");
  return `No ${costs.currency} price: ${why}. Costs are shown in Gwei of the gas token, not in ${costs.currency}.`;
}

/**
 * Why the price shown is an older one, as a sentence: the service holds its last good price while the feed's newer
 * round is suspect (a jump no other endpoint confirms), and says why in priceProblem. Undefined when the price is the
 * feed's newest or there is none.
 */
export function heldPriceWords(costs: Pick<Costs, "price" | "priceProblem">): string | undefined {
  if (costs.price === null || costs.priceProblem === null) return undefined;
  const why = costs.priceProblem.replace(/[.\s]+$/, "");
  return `Held: the feed's newest round is not used (${why}). The costs are at the last price the service believed.`;
}

/** Whether the chain charges an L1 data fee (a rollup): some action's l1FeeWei is not "0" (null: charged, unread). */
export function chargesL1Fee(costs: Pick<Costs, "actions">): boolean {
  return costs.actions.some((action) => action.l1FeeWei !== "0");
}

/** The action's L1 data fee for reading, in money when the price is known: "$0.02", "12.5 Gwei", or "unknown". */
export function l1FeeText(action: ActionCost, price: Price | null, currency: string): string {
  if (action.l1FeeWei === null) return "unknown";
  if (price === null) return `${weiAsGwei(action.l1FeeWei)} Gwei`;
  return moneyText(fiatOfWei(BigInt(action.l1FeeWei), price.value), currency);
}

/**
 * The action's operator fee (OP stack, Isthmus) for reading, as the L1 fee is: "$0.001", "0.5 Gwei", or "unknown";
 * undefined where the chain sets none ("0"), which is not shown.
 */
export function operatorFeeText(action: ActionCost, price: Price | null, currency: string): string | undefined {
  if (action.operatorFeeWei === "0") return undefined;
  return l1FeeText({ ...action, l1FeeWei: action.operatorFeeWei }, price, currency);
}

/** Whether some action's tiers include an operator fee (or one that could not be read): the panel then says so. */
export function chargesOperatorFee(costs: Pick<Costs, "actions">): boolean {
  return costs.actions.some((action) => action.operatorFeeWei !== "0");
}

/** The L1 column's tooltip: the L1 fee in exact wei, and the operator fee beside it where the chain sets one. */
export function l1FeeTitle(action: ActionCost): string {
  const l1 = `L1 data fee ${action.l1FeeWei ?? "unknown"} wei`;
  if (action.operatorFeeWei === "0") return l1;
  return `${l1}; operator fee ${action.operatorFeeWei ?? "unknown"} wei (also in each tier)`;
}

/** "21,000 gas": an action's gas, grouped ("131,072 blob gas" with the unit "blob gas"). */
export function gasText(gas: string, unit = "gas"): string {
  return `${BigInt(gas).toLocaleString("en-US")} ${unit}`;
}

/** The "one blob" row of the costs panel, in words: what it is, its one figure, and the blob base fee it comes from. */
export interface BlobRowWords {
  /** "131,072 blob gas". */
  readonly blobGas: string;
  /** "$0.47" with a price; else in Gwei of the gas token, as the actions' tiers ("6,615,000 Gwei"). */
  readonly cost: string;
  /** "blob base fee 50.47 Gwei": the next block's, which the figure is computed from; undefined if not answered. */
  readonly basis: string | undefined;
}

/**
 * The panel's "one blob" row, on chains whose costs answer `blob` (chains with blob fees); undefined elsewhere, where
 * the panel shows no row. The cost is written as each action's tier is, so a missing price reads the same (Gwei).
 */
export function blobRowWords(costs: Pick<Costs, "blob" | "basis" | "currency">): BlobRowWords | undefined {
  const { blob, basis } = costs;
  if (blob === undefined) return undefined;
  return {
    blobGas: gasText(blob.blobGas, "blob gas"),
    cost: tierCostText(blob, costs.currency),
    basis: basis.blobBaseFee === undefined ? undefined : `blob base fee ${shortGwei(basis.blobBaseFee)} Gwei`,
  };
}

export const TIERS: readonly Tier[] = ["low", "medium", "high"];

/**
 * Each tier's tip in Gwei, as /costs implies it: (an action's wei − its L1 fee) / its gas − the next base fee, exact
 * (the service computes each tier as gas × (next base fee + the tier's tip) + the L1 fee). Undefined when no action
 * has a known L1 fee and some gas, or the basis is not a Gwei amount.
 */
export function tierTipsGwei(costs: Pick<Costs, "actions" | "basis">): Record<Tier, string> | undefined {
  const action = costs.actions.find((each) => each.l1FeeWei !== null && each.operatorFeeWei !== null && BigInt(each.gas) > 0n);
  const baseFee = readDecimal(costs.basis.baseFee);
  if (action === undefined || baseFee === undefined || baseFee.scale > 9) return undefined;
  const baseFeeWei = baseFee.units * 10n ** BigInt(9 - baseFee.scale);
  const tipOf = (tier: Tier) => {
    const tipWei = (BigInt(action[tier].wei) - BigInt(action.l1FeeWei!) - BigInt(action.operatorFeeWei!)) / BigInt(action.gas) - baseFeeWei;
    return toGweiString(tipWei > 0n ? tipWei : 0n);
  };
  return { low: tipOf("low"), medium: tipOf("medium"), high: tipOf("high") };
}

/**
 * Why some action's three tiers read alike in the panel, in a sentence; undefined when every action's tiers read apart.
 * The tiers differ by their tips only: either the recent blocks' tips were all the same (nothing to choose between), or
 * the tips differ by less than the figures' rounding (on mainnet, a tenth of a Gwei beside a base fee of tens).
 */
export function tierSpreadWords(costs: Pick<Costs, "actions" | "basis" | "currency">): string | undefined {
  const alike = costs.actions.filter((action) => {
    const [low, medium, high] = TIERS.map((tier) => tierCostText(action[tier], costs.currency));
    return low === medium || medium === high;
  });
  if (alike.length === 0) return undefined;
  const tips = tierTipsGwei(costs);
  if (tips === undefined) return undefined;
  if (tips.low === tips.high) {
    return Number(tips.low) === 0
      ? "The three tiers are the same: the recent blocks paid no tips (empty blocks, or none above zero), so every tier's tip is 0."
      : `The three tiers are the same: every recent block's cheapest transaction paid the same tip, ${shortGwei(tips.low)} Gwei, so paying more buys no faster inclusion.`;
  }
  const names = alike.length === costs.actions.length ? "every action" : listWords(alike.map((action) => `the ${action.name}`));
  return (
    `The tiers differ by their tips only (${shortGwei(tips.low)}, ${shortGwei(tips.medium)} and ${shortGwei(tips.high)} Gwei, ` +
    `beside a next base fee of ${shortGwei(costs.basis.baseFee)} Gwei): for ${names} that is less than the rounding of the figures shown.`
  );
}

/** "a", "a and b", "a, b and c". */
function listWords(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]!}`;
}
