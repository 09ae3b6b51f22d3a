// Money for humans: the contract's rounding of a cost (to the cent; below one cent, more digits: two significant
// ones) done exactly on integers, and a money string shown in its currency ("$1,234.50", "€0.0042").

/** A non-negative decimal string ("3120.45", "0.0042") as an exact fraction units / 10^scale; undefined if it is not one. */
export function readDecimal(text: string): { readonly units: bigint; readonly scale: number } | undefined {
  const match = /^([0-9]{1,40})(?:\.([0-9]{1,40}))?$/.exec(text);
  if (match === null) return undefined;
  const [, whole = "", fraction = ""] = match;
  return { units: BigInt(whole + fraction), scale: fraction.length };
}

/** Below one cent, the digits kept: two significant ones ("0.0042"), down to this many decimals at most. */
const SIGNIFICANT_BELOW_CENT = 2;
const MAX_DECIMALS = 30;

/**
 * A non-negative fraction numerator / denominator as the contract writes money: rounded half up to the cent
 * ("1.40", "1234.00"), or, below one cent, to two significant digits ("0.0042", "0.00000071"); "0.00" for nothing.
 */
export function roundMoney(numerator: bigint, denominator: bigint): string {
  if (numerator < 0n || denominator <= 0n) throw new RangeError(`money is a non-negative amount (got ${numerator}/${denominator})`);
  if (numerator === 0n) return "0.00";
  // At least one cent: whole cents.
  if (numerator * 100n >= denominator) return withDecimals(roundedAt(numerator, denominator, 2), 2);
  // The first significant digit's place, then one more digit after it.
  let first = 3;
  while (first < MAX_DECIMALS && numerator * 10n ** BigInt(first) < denominator) first += 1;
  const decimals = first + SIGNIFICANT_BELOW_CENT - 1;
  const scaled = roundedAt(numerator, denominator, decimals);
  if (scaled === 0n) return "0.00";
  // Rounding up may carry into one more digit ("0.000999" is "0.0010"; "0.009999" is a cent).
  if (scaled >= 10n ** BigInt(SIGNIFICANT_BELOW_CENT)) return first === 3 ? "0.01" : withDecimals(scaled / 10n, decimals - 1);
  return withDecimals(scaled, decimals);
}

/** The money `wei` of a token is worth at `price` per whole token (10^18 wei), rounded as roundMoney says. */
export function fiatOfWei(wei: bigint, price: string): string {
  const decimal = readDecimal(price);
  if (decimal === undefined) throw new RangeError(`a price is a non-negative decimal string (got "${price}")`);
  return roundMoney(wei * decimal.units, 10n ** BigInt(18 + decimal.scale));
}

function roundedAt(numerator: bigint, denominator: bigint, decimals: number): bigint {
  const scaled = numerator * 10n ** BigInt(decimals);
  return (scaled * 2n + denominator) / (denominator * 2n);
}

function withDecimals(units: bigint, decimals: number): string {
  const digits = units.toString().padStart(decimals + 1, "0");
  return `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

const GROUPED = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

/**
 * A money string of the API (a decimal string, every digit kept) in its currency, the way en-US writes it: "$1,234.50",
 * "$0.0042", "€3.10", "CHF 2.00". A currency code Intl does not know is written after the amount ("2.00 XYZ").
 */
export function moneyText(amount: string, currency: string): string {
  const decimal = /^([0-9]+)(?:\.([0-9]+))?$/.exec(amount);
  if (decimal === null) return `${amount} ${currency}`;
  const [, whole = "0", fraction = ""] = decimal;
  const digits = `${GROUPED.format(BigInt(whole))}${fraction === "" ? "" : `.${fraction}`}`;
  let parts: Intl.NumberFormatPart[];
  try {
    parts = new Intl.NumberFormat("en-US", { style: "currency", currency }).formatToParts(0);
  } catch {
    return `${digits} ${currency}`;
  }
  // The currency's sign and where it goes (before or after, with or without a space), around our own digits.
  let placed = false;
  return parts
    .map((part) => {
      if (part.type === "currency" || part.type === "literal") return part.value;
      if (part.type === "integer" || part.type === "group" || part.type === "decimal" || part.type === "fraction") {
        if (placed) return "";
        placed = true;
        return digits;
      }
      return "";
    })
    .join("");
}

/** A money value as a number, for a chart's axis and scale (the label keeps the exact string). */
export function moneyNumber(amount: string): number {
  return Number(amount);
}
