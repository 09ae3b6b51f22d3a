// A cost in money as a base fee: what a money alert compares the chain's base fee with.
import type { FeedPrice } from "./priceRound.ts";

/** "1.50" as units and decimals (150, 2); the text is one FIAT_PATTERN accepts. */
function decimalOf(text: string): { units: bigint; decimals: number } {
  const [whole = "0", fraction = ""] = text.split(".");
  return { units: BigInt(whole + fraction), decimals: fraction.length };
}

/**
 * The highest next-block base fee (wei per gas) at which `gas` × (base fee + `tipWei`) + `l1FeeWei` costs at most
 * `fiat` at `price`: a rule "below fiat" holds while the base fee is at or below it, "above fiat" while above (the
 * same split as a Gwei rule). Exact on integers: the amount becomes wei rounded down, the division rounds down. When
 * even a base fee of 0 costs more than `fiat`, it is 0 (an "above" rule then holds at any positive base fee).
 */
export function baseFeeThresholdForFiat(fiat: string, price: FeedPrice, gas: bigint, tipWei: bigint, l1FeeWei: bigint): bigint {
  const { units, decimals } = decimalOf(fiat);
  // fiat / price in ETH, as wei: units / 10^decimals × 10^(18 + priceDecimals) / answer.
  const budgetWei = (units * 10n ** BigInt(18 + price.decimals)) / (10n ** BigInt(decimals) * price.answer);
  const forGas = budgetWei - l1FeeWei;
  if (forGas < 0n) return 0n;
  const perGas = forGas / gas - tipWei;
  return perGas < 0n ? 0n : perGas;
}
