// An action's cost in money as a base fee: /costs' medium tier inverted (CONTRACT.md, "Costs in money"), for money
// alert rules and /outlook's action+fiat threshold alike.
import type { Action } from "../core/costs/defaultActions.ts";
import { baseFeeThresholdForFiat } from "../core/costs/fiatThreshold.ts";
import type { FeeSnapshot } from "../core/fees/feeSnapshot.ts";
import { tierTipsOf } from "../core/fees/suggestionInput.ts";
import type { ChainMoney } from "./chainMoney.ts";
import { l1FeeOf, operatorFeeOf } from "./rollupFees.ts";

/**
 * The highest next-block base fee at which `action`'s medium tier (gas x (base fee + the medium tip) + its L1 fee + its
 * operator fee, as /costs adds them: nothing where not read) costs at most `fiat` at the chain's price; undefined
 * without a price.
 */
export function baseFeeForFiat(action: Action, fiat: string, snapshot: FeeSnapshot, money: ChainMoney): bigint | undefined {
  const price = money.price?.feedPrice;
  if (price === undefined) return undefined;
  const fixedWei = (l1FeeOf(money, action.txBytes) ?? 0n) + (operatorFeeOf(money, action.gas) ?? 0n);
  return baseFeeThresholdForFiat(fiat, price, action.gas, tierTipsOf(snapshot).medium, fixedWei);
}
