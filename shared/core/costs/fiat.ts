// Money from wei and a price-feed answer, on bigints only: the one place a cost becomes a fiat amount.

/**
 * `wei` × price / 10^18, where price = `answer` / 10^`decimals`, as the currency's text (CONTRACT.md, "Costs in
 * money"): rounded half up to the cent ("1.40"); below one cent, to two significant digits ("0.0034"); "0.00" for 0.
 */
export function fiatOf(wei: bigint, answer: bigint, decimals: number): string {
  if (wei < 0n || answer <= 0n) throw new RangeError("fiatOf takes a wei amount >= 0 and a positive price");
  const numerator = wei * answer;
  const denominator = 10n ** BigInt(18 + decimals);
  if (numerator * 100n >= denominator) {
    return withDecimals(roundHalfUp(numerator * 100n, denominator), 2);
  }
  if (numerator === 0n) return "0.00";
  // Below one cent: the smallest k >= 3 at which the amount × 10^k reaches 10 gives two significant digits.
  let digits = 3;
  while (numerator * 10n ** BigInt(digits) < 10n * denominator) digits += 1;
  const scaled = roundHalfUp(numerator * 10n ** BigInt(digits), denominator);
  // Rounding up may reach 100 (0.00995 → "0.010"): one digit fewer then says the same amount.
  return scaled === 100n ? withDecimals(10n, digits - 1) : withDecimals(scaled, digits);
}

function roundHalfUp(numerator: bigint, denominator: bigint): bigint {
  return (numerator * 2n + denominator) / (denominator * 2n);
}

/** `units` / 10^`decimals` written with exactly `decimals` digits after the point. */
function withDecimals(units: bigint, decimals: number): string {
  const text = units.toString().padStart(decimals + 1, "0");
  return `${text.slice(0, -decimals)}.${text.slice(-decimals)}`;
}
