// What a chart's or a map's figures are in: Gwei per gas (the base fee), or money for one action (its cost).
import { moneyText } from "../../../shared/core/text/money.ts";
import { shortGwei } from "../../../shared/core/text/shortGwei.ts";

export interface ValueUnit {
  readonly kind: "gwei" | "money";
  /** "Gwei", or the currency ("USD"). */
  readonly name: string;
  /** An axis tick or a legend bound, short: "23.5", "$1.40". */
  readonly short: (value: number) => string;
  /** An exact figure of the API, with its unit: "23.227829059 Gwei", "$1.40". */
  readonly exact: (value: string) => string;
  /**
   * How to write figures shown side by side (an axis' ticks, a legend's bounds) so that they read alike: Gwei with
   * four significant digits each ("76.60" beside "65.56"), money all whole ("$5", "$10") or all to the cent.
   */
  readonly alike: (values: readonly number[]) => (value: number) => string;
}

const FOUR_SIGNIFICANT = new Intl.NumberFormat("en-US", { minimumSignificantDigits: 4, maximumSignificantDigits: 4 });

export const GWEI_UNIT: ValueUnit = {
  kind: "gwei",
  name: "Gwei",
  short: (value) => shortGwei(String(value)),
  exact: (value) => `${value} Gwei`,
  // Zero, tiny fees (exponent form) and whole thousands read as shortGwei writes them; the rest with four digits.
  alike: () => (value) => (value === 0 || Math.abs(value) < 0.0001 || Math.abs(value) >= 1000 ? shortGwei(String(value)) : FOUR_SIGNIFICANT.format(value)),
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
    alike: (values) => {
      const whole = values.every((value) => Number.isInteger(value));
      return (value) => moneyText(whole ? String(value) : moneyDigits(value), currency);
    },
  };
}

/** A number as money digits, never in exponent form: "1.40", "0.0042", "0.00". */
export function moneyDigits(value: number): string {
  if (!Number.isFinite(value) || value <= 0) return "0.00";
  if (value >= 0.01) return value.toFixed(2);
  const decimals = Math.min(20, 1 - Math.floor(Math.log10(value)));
  return value.toFixed(decimals);
}
