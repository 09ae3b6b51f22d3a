// What the outlook's figures are shown in: the cost of the action chosen in "Show" (its medium tier, in the currency,
// as /costs and `action=&fiat=` count it), or the base fee in Gwei when no action is chosen or there is no price.
import { toGweiString } from "../../../shared/core/fees/gwei.ts";
import { parseGweiAmount } from "../../../shared/core/fees/parseGweiAmount.ts";
import { fiatOfWei, moneyText, readDecimal } from "../../../shared/core/text/money.ts";
import { shortGwei } from "../../../shared/core/text/shortGwei.ts";
import type { Costs } from "../../../shared/wire/costs.ts";
import type { OutlookThreshold } from "../live/outlookRequest.ts";

/** The decimals an amount of money may have in the outlook's `fiat=`. */
const MAX_FIAT_DECIMALS = 8;

export type OutlookMoney =
  | {
      readonly kind: "gwei";
      /** Why the base fee is shown rather than the chosen action's cost (no price); undefined when no action is chosen. */
      readonly why: string | undefined;
    }
  | {
      readonly kind: "money";
      readonly currency: string;
      readonly actionId: string;
      readonly actionName: string;
      /** The action's gas. */
      readonly gas: bigint;
      /** Its medium tier now, in wei (gas x (next base fee + tip) + L1 and operator fees), and the base fee it is at. */
      readonly mediumWei: bigint;
      readonly basisBaseFeeWei: bigint;
      /** One gas token in the currency, as the API writes it. */
      readonly price: string;
    };

/** What the outlook is shown in, from the chain's costs and the action chosen in "Show" (undefined: the base fee). */
export function outlookMoneyOf(costs: Costs | undefined, shownAction: string | undefined): OutlookMoney {
  if (shownAction === undefined) return { kind: "gwei", why: undefined };
  const action = costs?.actions.find((candidate) => candidate.id === shownAction);
  if (costs === undefined || action === undefined) return { kind: "gwei", why: undefined };
  if (costs.price === null) {
    const why = (costs.priceProblem ?? "the service has no price for this chain's gas token").replace(/[.\s]+$/, "");
    return { kind: "gwei", why: `No ${costs.currency} price: ${why}. The outlook is shown as the base fee in Gwei.` };
  }
  const basis = parseGweiAmount(costs.basis.baseFee);
  if (!("wei" in basis)) return { kind: "gwei", why: undefined };
  return {
    kind: "money",
    currency: costs.currency,
    actionId: action.id,
    actionName: action.name,
    gas: BigInt(action.gas),
    mediumWei: BigInt(action.medium.wei),
    basisBaseFeeWei: basis.wei,
    price: costs.price.value,
  };
}

/**
 * What one action costs at a base fee of `gwei` (an exact Gwei string of the API), in wei: its medium tier now with
 * the base fee's part moved to `gwei` (the tip and the L1 fee as they are now). Never below zero.
 */
export function actionWeiAt(money: Extract<OutlookMoney, { kind: "money" }>, gwei: string): bigint {
  const fee = parseGweiAmount(gwei);
  if (!("wei" in fee)) throw new RangeError(`not a Gwei amount: "${gwei}"`);
  const wei = money.mediumWei + money.gas * (fee.wei - money.basisBaseFeeWei);
  return wei > 0n ? wei : 0n;
}

/** A base fee of the outlook as shown: its value (for a chart's scale), its short text and its exact text (hover). */
export interface ShownValue {
  readonly value: number;
  readonly short: string;
  readonly exact: string;
}

/** `gwei` in the panel's money: "$1.23" (rounded as /costs rounds) or "12.35 Gwei". */
export function shownValueOf(money: OutlookMoney, gwei: string): ShownValue {
  if (money.kind === "gwei") return { value: Number(gwei), short: `${shortGwei(gwei)} Gwei`, exact: `${gwei} Gwei` };
  const fiat = fiatOfWei(actionWeiAt(money, gwei), money.price);
  const text = moneyText(fiat, money.currency);
  return { value: Number(fiat), short: text, exact: `${text} (one ${money.actionName} at a base fee of ${gwei} Gwei)` };
}

/** The unit's name for an input or an axis: "USD" or "Gwei". */
export function unitName(money: OutlookMoney): string {
  return money.kind === "money" ? money.currency : "Gwei";
}

/**
 * A price the user typed, in the panel's money ("1.20", "$1.20", "1,200") or in Gwei ("8.5"), as the outlook's
 * threshold: `action=&fiat=` in money, `below=` in Gwei. Empty text: no threshold.
 */
export function thresholdOfInput(text: string, money: OutlookMoney): { readonly threshold: OutlookThreshold | undefined } | { readonly problem: string } {
  const trimmed = text.trim();
  if (trimmed === "") return { threshold: undefined };
  if (money.kind === "gwei") {
    const fee = parseGweiAmount(trimmed.replace(/\s*gwei$/i, "").replace(/,/g, ""));
    if ("problem" in fee) return { problem: `The price ${fee.problem}` };
    if (fee.wei === 0n) return { problem: "Write a fee above 0 Gwei." };
    return { threshold: { kind: "gwei", gwei: toGweiString(fee.wei) } };
  }
  // The currency's sign or code around the amount, and thousands separators, are left out: "$1,200.50" is 1200.50.
  const bare = trimmed
    .replace(/^[^0-9.]+/, "")
    .replace(/[^0-9.]+$/, "")
    .replace(/,/g, "");
  const [whole = "", fraction = ""] = bare.split(".");
  // As the service reads an amount: no leading zeros, at most 8 decimals, no lone point.
  const digits = `${whole.replace(/^0+(?=[0-9])/, "") || "0"}${fraction === "" ? "" : `.${fraction}`}`;
  const decimal = bare.split(".").length > 2 || !/[0-9]/.test(bare) ? undefined : readDecimal(digits);
  if (decimal === undefined) return { problem: `Write an amount in ${money.currency}, like "1.20".` };
  if (decimal.scale > MAX_FIAT_DECIMALS) return { problem: `Write an amount with at most ${MAX_FIAT_DECIMALS} decimals.` };
  if (decimal.units === 0n) return { problem: `Write an amount above 0 ${money.currency}.` };
  return { threshold: { kind: "money", action: money.actionId, fiat: digits } };
}
