// Numbers for humans: about four significant digits, the exact value kept for hover and copy.

const FOUR_DIGITS = new Intl.NumberFormat("en-US", { maximumSignificantDigits: 4 });
const GROUPED = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

/** A Gwei string of the API (exact, up to 9 decimals) shown with about 4 significant digits: "23.23", "0.01235". */
export function shortGwei(exact: string): string {
  const value = Number(exact);
  if (!Number.isFinite(value)) return exact;
  if (value !== 0 && Math.abs(value) < 0.0001) return value.toPrecision(4).replace(/\.?0+e/, "e");
  return FOUR_DIGITS.format(value);
}

/** An axis tick: short and without trailing noise. */
export function gweiTick(value: number): string {
  return shortGwei(String(value));
}

/** A block number, exact, with thousands separators. */
export function blockNumber(value: string | number): string {
  const number = typeof value === "string" ? Number(value) : value;
  return Number.isSafeInteger(number) ? GROUPED.format(number) : String(value);
}

/** "now", "4 s", "3 min", "2 h 5 min". */
export function shortAge(ageMs: number): string {
  const seconds = Math.max(0, Math.floor(ageMs / 1000));
  if (seconds < 1) return "now";
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
}

/** `0123456789abcdef…` as `0123…cdef`. */
export function maskKey(key: string): string {
  return key.length <= 8 ? "•".repeat(key.length) : `${key.slice(0, 4)}${"•".repeat(8)}${key.slice(-4)}`;
}
