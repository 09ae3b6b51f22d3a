// What each action costs now: the one place /costs' tiers are computed (CONTRACT.md, "Costs in money").
import { GAS_PER_BLOB } from "../fees/blobFeeRule.ts";
import type { Action } from "./defaultActions.ts";
import { fiatOf } from "./fiat.ts";
import type { FeedPrice } from "./priceRound.ts";

export const COST_TIERS = ["low", "medium", "high"] as const;
export type CostTier = (typeof COST_TIERS)[number];

export interface TierCost {
  readonly wei: bigint;
  /** null without a price. */
  readonly fiat: string | null;
}

export interface ActionCostValues {
  readonly action: Action;
  readonly tiers: Readonly<Record<CostTier, TierCost>>;
  /** The L1 data fee included in each tier; 0n where the chain charges none; undefined when it could not be read. */
  readonly l1FeeWei: bigint | undefined;
  /** The operator fee (OP stack, Isthmus) included in each tier; 0n where the chain sets none; undefined when not read. */
  readonly operatorFeeWei: bigint | undefined;
}

/**
 * gas × (next base fee + the tier's tip) + the L1 fee + the operator fee, in exact wei, and in money at `price` when
 * there is one. `l1FeeWei` is the action's L1 fee and `operatorFeeWei` its operator fee: 0n on chains that charge none,
 * undefined when unknown (then the tiers hold the rest only).
 */
export function actionCost(
  action: Action,
  nextBaseFeeWei: bigint,
  tipsWei: Readonly<Record<CostTier, bigint>>,
  l1FeeWei: bigint | undefined,
  price: FeedPrice | undefined,
  operatorFeeWei: bigint | undefined,
): ActionCostValues {
  const tier = (name: CostTier): TierCost => {
    const wei = action.gas * (nextBaseFeeWei + tipsWei[name]) + (l1FeeWei ?? 0n) + (operatorFeeWei ?? 0n);
    return { wei, fiat: price === undefined ? null : fiatOf(wei, price.answer, price.decimals) };
  };
  return { action, tiers: { low: tier("low"), medium: tier("medium"), high: tier("high") }, l1FeeWei, operatorFeeWei };
}

/** What one blob (GAS_PER_BLOB, 131,072 blob gas) costs at the next block's blob base fee, in exact wei and in money at `price`. */
export function blobCost(nextBlobBaseFeeWei: bigint, price: FeedPrice | undefined): TierCost & { readonly blobGas: bigint } {
  const wei = GAS_PER_BLOB * nextBlobBaseFeeWei;
  return { blobGas: GAS_PER_BLOB, wei, fiat: price === undefined ? null : fiatOf(wei, price.answer, price.decimals) };
}
