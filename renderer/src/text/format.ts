// Numbers and times for humans. Fees use shortGwei (shared/core/text), the one short form of a fee.
import { shortGwei } from "../../../shared/core/text/shortGwei.ts";

const GROUPED = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const CLOCK = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit" });

/** An axis tick: short and without trailing noise. */
export function gweiTick(gwei: number): string {
  return shortGwei(String(gwei));
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

/** A moment of today as the reader's clock shows it: "14:32:05" (or "02:32:05 PM"). */
export function clockTime(epochMs: number): string {
  return CLOCK.format(epochMs);
}
