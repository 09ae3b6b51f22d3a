// What a chart's or a map's figures are in: Gwei per gas (the base fee), or money for one action (its cost).
import { moneyText } from "../../shared/core/text/money.ts";
import { shortGwei } from "../../shared/core/text/shortGwei.ts";

export interface ValueUnit {
  readonly kind: "gwei" | "money";
  /** "Gwei", or the currency ("USD"). */
  readonly name: string;
  /** An axis tick or a legend bound, short: "23.5", "$1.40". */
  readonly short: (value: number) => string;
  /** An exact figure of the API, with its unit: "23.227829059 Gwei", "$1.40". */
  readonly exact: (value: string) => string;
}

export const GWEI_UNIT: ValueUnit = {
  kind: "gwei",
  name: "Gwei",
  short: (value) => shortGwei(String(value)),
  exact: (value) => `${value} Gwei`,
};

/**
 * Money in `currency`: short figures whole from $10 up ("$70", narrow enough for the axis), to the cent below, or two
 * significant digits below one cent ("$0.0042"); exact figures as the API writes them.
 */
export function moneyUnit(currency: string): ValueUnit {
  return {
    kind: "money",
    name: currency,
    short: (value) => moneyText(value >= 10 && Number.isInteger(value) ? String(value) : moneyDigits(value), currency),
    exact: (value) => moneyText(value, currency),
  };
}

/** A number as money digits, never in exponent form: "1.40", "0.0042", "0.00". */
export function moneyDigits(value: number): string {
  if (!Number.isFinite(value) || value <= 0) return "0.00";
  if (value >= 0.01) return value.toFixed(2);
  const decimals = Math.min(20, 1 - Math.floor(Math.log10(value)));
  return value.toFixed(decimals);
}
