/** A fee a person wrote in Gwei, read exactly into wei, or why it cannot be. */
export type GweiAmount = { readonly wei: bigint } | { readonly problem: string };

const WEI_PER_GWEI_DIGITS = 9;
/** Longer texts are typing accidents, not fees (10^40 Gwei is far beyond any chain's base fee). */
const MAX_TEXT_LENGTH = 50;
/** A double holds every decimal of up to 15 significant digits exactly as written; past that, digits may change. */
const MAX_EXACT_NUMBER_DIGITS = 15;

const EXAMPLE = 'like "8" or "0.25"';

/**
 * Reads a fee in Gwei (the settings' `gwei` of an alert rule) into wei, exactly: digits with at most one point and at
 * most 9 decimals (1 wei is "0.000000001"), 0 or more. A JSON number is read as the digits it stands for. Refused,
 * with a message saying what to write instead: negatives, exponents ("1e3"), signs, spaces inside, more than 9
 * decimals, and numbers too long for a JSON number to hold exactly.
 */
export function parseGweiAmount(value: string | number): GweiAmount {
  if (typeof value === "number") return parseGweiNumber(value);
  const text = value.trim();
  if (text === "") return { problem: `is empty: write a fee in Gwei, ${EXAMPLE}` };
  if (text.length > MAX_TEXT_LENGTH) return { problem: `is ${text.length} characters long, too long for a fee: write a fee in Gwei, ${EXAMPLE}` };
  const decimal = /^([0-9]+)(?:\.([0-9]+))?$/.exec(text);
  if (decimal === null) return { problem: problemOfNonDecimal(text) };
  const [, whole = "", fraction = ""] = decimal;
  if (fraction.length > WEI_PER_GWEI_DIGITS) {
    return {
      problem: `has ${fraction.length} decimals ("${text}"), but a Gwei has only ${WEI_PER_GWEI_DIGITS} (1 wei is "0.000000001"): round it to at most ${WEI_PER_GWEI_DIGITS} decimals`,
    };
  }
  return { wei: BigInt(whole + fraction.padEnd(WEI_PER_GWEI_DIGITS, "0")) };
}

function parseGweiNumber(value: number): GweiAmount {
  if (!Number.isFinite(value)) return { problem: `is not a number of Gwei (got ${value}): write a fee in Gwei, ${EXAMPLE}` };
  if (value < 0) return { problem: `cannot be negative (got ${value}): write a fee of 0 Gwei or more, ${EXAMPLE}` };
  const text = String(value);
  // Past 15 significant digits (or in the exponent form JavaScript writes very small and very large numbers in), the
  // number read from JSON may differ from the one written: a string keeps every digit.
  const significantDigits = text.replace(/^[0.]+/, "").replace(".", "").length;
  if (/e/i.test(text) || significantDigits > MAX_EXACT_NUMBER_DIGITS) {
    return { problem: `is a number (${text}) that JSON cannot hold exactly: write it as a string of digits in quotes, ${EXAMPLE}` };
  }
  return parseGweiAmount(text);
}

function problemOfNonDecimal(text: string): string {
  const number = /^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:e[+-]?[0-9]+)?$/i.test(text) ? Number(text) : Number.NaN;
  if (text.startsWith("-") && !Number.isNaN(number)) return `cannot be negative ("${text}"): write a fee of 0 Gwei or more, ${EXAMPLE}`;
  if (/e/i.test(text) && !Number.isNaN(number)) return `is written with an exponent ("${text}"): write the fee out in digits, ${EXAMPLE}`;
  return `is not a number of Gwei ("${text}"): write digits with at most one decimal point, ${EXAMPLE}`;
}
