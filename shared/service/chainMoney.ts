// A chain's money part: the price of its gas token and its rollup L1 fees as last read, carried by its publication.
import type { FeedPrice } from "../core/costs/priceRound.ts";
import type { BlobSchedule } from "../core/fees/blobFeeRule.ts";
import type { L1FeeKind } from "../rpc/contracts/l1FeeReads.ts";
import type { Price } from "../wire/costs.ts";

export interface ChainMoney {
  readonly currency: string;
  /** The price as /costs and /networks show it, with the feed's answer for exact arithmetic; undefined without one. */
  readonly price: { readonly shown: Price; readonly feedPrice: FeedPrice } | undefined;
  /** Why there is no price; null with one. */
  readonly priceProblem: string | null;
  readonly l1FeeKind: L1FeeKind;
  /** The L1 fee of a transaction of each size (bytes) on an OP-stack or Arbitrum chain; undefined until read or when failing. */
  readonly l1Fees: ReadonlyMap<number, bigint> | undefined;
  /** Why l1Fees is missing; null otherwise. */
  readonly l1FeeProblem: string | null;
  /**
   * The operator fee (OP stack, Isthmus) of a transaction of each action's gas, on an OP-stack chain: 0 each where the
   * chain sets none; undefined until read or when failing (and on chains of other kinds, which charge none).
   */
  readonly operatorFees?: ReadonlyMap<bigint, bigint> | undefined;
  /** Why operatorFees is missing on an OP-stack chain; null or absent otherwise. */
  readonly operatorFeeProblem?: string | null;
  /**
   * The blob schedule the chain's endpoint states (eth_config's current blobSchedule), read with the prices: a blob's
   * target and maximum for the blob view's use. Undefined until read, or when the endpoint does not answer eth_config.
   */
  readonly blobSchedule?: BlobSchedule | undefined;
}

/** Before the first read: no price yet, said so. */
export function moneyNotReadYet(currency: string, l1FeeKind: L1FeeKind, priceProblem = "the price has not been read yet"): ChainMoney {
  return Object.freeze({
    currency,
    price: undefined,
    priceProblem,
    l1FeeKind,
    l1Fees: undefined,
    l1FeeProblem: l1FeeKind === "none" ? null : "the L1 fee has not been read yet",
  });
}
