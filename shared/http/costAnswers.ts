// /costs' bodies, made once per publication (a new block, price or L1 fee makes a new one) and then only read.
import { actionCost, blobCost, type CostTier } from "../core/costs/actionCosts.ts";
import type { Action } from "../core/costs/defaultActions.ts";
import { toGweiString } from "../core/fees/gwei.ts";
import { tierTipsOf } from "../core/fees/suggestionInput.ts";
import type { Costs } from "../wire/costs.ts";
import type { FeeSnapshot } from "../core/fees/feeSnapshot.ts";
import type { ChainPublication } from "../service/chainPublication.ts";
import { l1FeeOf, operatorFeeOf, rollupFeeProblem } from "../service/rollupFees.ts";
import { type PreparedBody, preparedJson } from "./preparedBody.ts";

/** A publication with data (chainOfPath's PublicationWithData, named here so that the server's resources need no route file). */
type PublicationWithData = ChainPublication & { readonly snapshot: FeeSnapshot };

/** The price points of a chain's range (the cost readers keep them): GET /networks/{chainId}/priceHistory. */
export interface PriceHistorySource {
  pricePoints(chainId: number, fromS: number, toS: number): readonly { readonly time: number; readonly value: string }[];
}

/** A server without cost readers (tests of other things): no price points. */
export const NO_PRICE_HISTORY: PriceHistorySource = Object.freeze({ pricePoints: () => [] });

/** Each publication's /costs body, made at its first ask. */
export class CostAnswers {
  readonly #actions: readonly Action[];
  readonly #bodies = new WeakMap<PublicationWithData, PreparedBody>();

  constructor(actions: readonly Action[]) {
    this.#actions = actions;
  }

  /** The actions /costs shows, in its order: the defaults and the settings' own. */
  get actions(): readonly Action[] {
    return this.#actions;
  }

  of(publication: PublicationWithData): PreparedBody {
    let prepared = this.#bodies.get(publication);
    if (prepared === undefined) {
      prepared = preparedJson(costsBody(publication, this.#actions));
      this.#bodies.set(publication, prepared);
    }
    return prepared;
  }
}

/** The body of /costs for a publication with data (CONTRACT.md, "Costs in money"). */
export function costsBody({ snapshot, money }: PublicationWithData, actions: readonly Action[]): Costs {
  const tips = tierTipsOf(snapshot);
  const price = money.price?.feedPrice;
  // On chains with blob fees: the next block's blob base fee, and what one blob costs at it.
  const nextBlobBaseFeeWei = snapshot.blob?.currentWei;
  const blob = nextBlobBaseFeeWei === undefined ? undefined : blobCost(nextBlobBaseFeeWei, price);
  return {
    currency: money.currency,
    price: money.price?.shown ?? null,
    priceProblem: money.priceProblem,
    l1FeeProblem: rollupFeeProblem(money),
    basis: {
      block: snapshot.newestBlock.toString(),
      baseFee: toGweiString(snapshot.currentBaseFeeWei),
      ...(nextBlobBaseFeeWei === undefined ? {} : { blobBaseFee: toGweiString(nextBlobBaseFeeWei) }),
    },
    actions: actions.map((action) => {
      const cost = actionCost(action, snapshot.currentBaseFeeWei, tips, l1FeeOf(money, action.txBytes), price, operatorFeeOf(money, action.gas));
      const tier = (name: CostTier) => ({ wei: cost.tiers[name].wei.toString(), fiat: cost.tiers[name].fiat });
      return {
        id: action.id,
        name: action.name,
        gas: action.gas.toString(),
        txBytes: action.txBytes,
        low: tier("low"),
        medium: tier("medium"),
        high: tier("high"),
        l1FeeWei: cost.l1FeeWei === undefined ? null : cost.l1FeeWei.toString(),
        operatorFeeWei: cost.operatorFeeWei === undefined ? null : cost.operatorFeeWei.toString(),
      };
    }),
    ...(blob === undefined ? {} : { blob: { blobGas: blob.blobGas.toString(), wei: blob.wei.toString(), fiat: blob.fiat } }),
  };
}
