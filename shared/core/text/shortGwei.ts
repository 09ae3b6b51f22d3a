// A fee for a glance (cards, chart labels, the tray): about four significant digits. The exact Gwei string stays
// available beside it (hover, copy), since this rounds.

const FOUR_DIGITS = new Intl.NumberFormat("en-US", { maximumSignificantDigits: 4 });
/** Below this, a fee is written in exponent form: a plain decimal would be mostly zeros. */
const TINY_GWEI = 0.0001;

/**
 * A Gwei string of the API (exact, up to 9 decimals) with about 4 significant digits and thousands separators:
 * "23.23", "0.01235", "1,235", and "1e-9" for 1 wei. Anything that is not a number comes back as it was.
 */
export function shortGwei(exactGwei: string): string {
  const gwei = Number(exactGwei);
  if (!Number.isFinite(gwei)) return exactGwei;
  if (gwei !== 0 && Math.abs(gwei) < TINY_GWEI) return gwei.toPrecision(4).replace(/\.?0+e/, "e");
  return FOUR_DIGITS.format(gwei);
}
