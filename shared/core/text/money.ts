// Money for humans: a price string of the API turned into money for an amount of wei (the rounding is
// shared/core/costs/fiat.ts's), and a money string shown in its currency ("$1,234.50", "€0.0042").
import { fiatOf } from "../costs/fiat.ts";

/** A non-negative decimal string ("3120.45", "0.0042") as an exact fraction units / 10^scale; undefined if it is not one. */
export function readDecimal(text: string): { readonly units: bigint; readonly scale: number } | undefined {
  const match = /^([0-9]{1,40})(?:\.([0-9]{1,40}))?$/.exec(text);
  if (match === null) return undefined;
  const [, whole = "", fraction = ""] = match;
  return { units: BigInt(whole + fraction), scale: fraction.length };
}

/**
 * The money `wei` of a token is worth at `price` per whole token (10^18 wei), a price as the API writes it
 * ("3120.45"): the contract's rounding, by shared/core/costs/fiat.ts (the one place a cost becomes money).
 */
export function fiatOfWei(wei: bigint, price: string): string {
  const decimal = readDecimal(price);
  if (decimal === undefined) throw new RangeError(`a price is a non-negative decimal string (got "${price}")`);
  return fiatOf(wei, decimal.units, decimal.scale);
}

const GROUPED = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

/**
 * A money string of the API (a decimal string, every digit kept, a lone tenth shown to the cent) in its currency, the way
 * en-US writes it: "$1,234.50", "$0.0042", "€3.10", "CHF 2.00", "$1,878.50" for "1878.5". A currency code Intl does not know is written after the amount ("2.00 XYZ").
 */
export function moneyText(amount: string, currency: string): string {
  const decimal = /^([0-9]+)(?:\.([0-9]+))?$/.exec(amount);
  if (decimal === null) return `${amount} ${currency}`;
  const [, whole = "0", fraction = ""] = decimal;
  // Every digit the API wrote; a single one after the point (a feed's exact price, "1878.5") is shown to the cent. A
  // whole amount stays whole (the chart's axis writes "$70").
  const digits = `${GROUPED.format(BigInt(whole))}${fraction === "" ? "" : `.${fraction.padEnd(2, "0")}`}`;
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
