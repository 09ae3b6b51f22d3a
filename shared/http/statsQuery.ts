import { type BucketLayout, bucketCountOf, equalBuckets, fixedWidthBuckets } from "../core/history/bucketStats.ts";
import type { FeeSeries } from "../core/history/blockColumns.ts";
import { MAX_DURATION_SECONDS, parseDurationSeconds } from "../core/history/duration.ts";
import { MAX_STATS_BUCKETS } from "../wire/baseFeeStats.ts";
import { ApiError } from "./apiErrors.ts";

/** The latest time a query may name: 9999-12-31T23:59:59Z, in unix seconds. */
export const MAX_UNIX_SECONDS = 253_402_300_799;

/** Which stretch of the held history a request asks about, before the history's ends are known. */
export type StatsRange =
  /** The chain's statistics window (no range parameter given). */
  | { readonly kind: "statsWindow" }
  /** `window=<duration>`: that long, ending at the newest block held. */
  | { readonly kind: "window"; readonly seconds: number }
  /** `from` and/or `to` (unix seconds, both included); a missing one is that end of the held history. */
  | { readonly kind: "between"; readonly fromSeconds: number | undefined; readonly toSeconds: number | undefined };

/** How the range is cut: `buckets=<n>` equal buckets, or `bucket=<seconds>` each. */
export type StatsDivision = { readonly kind: "count"; readonly buckets: number } | { readonly kind: "width"; readonly seconds: number };

export interface StatsQuery {
  readonly range: StatsRange;
  readonly division: StatsDivision;
  /** `fee=base` (default) or `fee=blob`: which fee the buckets summarise. */
  readonly fee: FeeSeries;
}

/** The CSV export's query: `from` and `to`, each optional. */
export interface CsvQuery {
  readonly fromSeconds: number | undefined;
  readonly toSeconds: number | undefined;
}

const STATS_PARAMETERS = ["window", "from", "to", "buckets", "bucket", "fee"] as const;
const CSV_PARAMETERS = ["from", "to"] as const;

/** `baseFeeStats`' query from a request target (`/path?window=24h&buckets=48`); throws INVALID_QUERY. */
export function parseStatsQuery(target: string): StatsQuery {
  const values = queryValues(target, STATS_PARAMETERS, "baseFeeStats");
  const window = values.get("window");
  const fromSeconds = unixSecondsOf("from", values.get("from"));
  const toSeconds = unixSecondsOf("to", values.get("to"));
  if (window !== undefined && (fromSeconds !== undefined || toSeconds !== undefined)) {
    throw invalid("window", "cannot be given with from or to: give either window=<duration>, or from and to (unix seconds).");
  }
  checkOrder(fromSeconds, toSeconds);
  const buckets = values.get("buckets");
  const bucket = values.get("bucket");
  if (buckets !== undefined && bucket !== undefined) {
    throw invalid("bucket", "cannot be given with buckets: give either buckets=<count> or bucket=<seconds>.");
  }
  const range: StatsRange =
    window !== undefined
      ? { kind: "window", seconds: windowSecondsOf(window) }
      : fromSeconds === undefined && toSeconds === undefined
        ? { kind: "statsWindow" }
        : { kind: "between", fromSeconds, toSeconds };
  const division: StatsDivision =
    bucket !== undefined
      ? { kind: "width", seconds: wholeNumberOf("bucket", bucket, 1, MAX_DURATION_SECONDS, "seconds") }
      : { kind: "count", buckets: buckets === undefined ? 1 : wholeNumberOf("buckets", buckets, 1, MAX_STATS_BUCKETS) };
  const fee = values.get("fee") ?? "base";
  if (fee !== "base" && fee !== "blob") throw invalid("fee", `is ${quoted(fee)}: it must be base (the base fee, the default) or blob (the blob base fee).`);
  return { range, division, fee };
}

/** The CSV export's query (and priceHistory's: the same from and to) from a request target; throws INVALID_QUERY. */
export function parseCsvQuery(target: string, endpoint = "baseFeeHistory.csv"): CsvQuery {
  const values = queryValues(target, CSV_PARAMETERS, endpoint);
  const fromSeconds = unixSecondsOf("from", values.get("from"));
  const toSeconds = unixSecondsOf("to", values.get("to"));
  checkOrder(fromSeconds, toSeconds);
  return { fromSeconds, toSeconds };
}

/**
 * The buckets of `division` over `[fromSeconds, toSeconds]`; throws INVALID_QUERY, naming the parameter and what it
 * may be for this range, when they would be more than MAX_STATS_BUCKETS or shorter than a second.
 */
export function bucketLayoutOf(fromSeconds: number, toSeconds: number, division: StatsDivision): BucketLayout {
  const spanSeconds = toSeconds - fromSeconds;
  if (division.kind === "width") {
    const count = bucketCountOf(fromSeconds, toSeconds, division.seconds);
    if (count > MAX_STATS_BUCKETS) {
      const shortest = Math.ceil(spanSeconds / MAX_STATS_BUCKETS);
      const cut = `of ${division.seconds} seconds cuts the ${spanSeconds} seconds from ${fromSeconds} to ${toSeconds} into ${count} buckets, more than ${MAX_STATS_BUCKETS}`;
      // The advice stays within what `bucket` itself accepts: a range longer than MAX_STATS_BUCKETS of the widest
      // bucket has no width that fits, and is cut by a count instead.
      throw invalid(
        "bucket",
        shortest <= MAX_DURATION_SECONDS
          ? `${cut}: ask for ${shortest} to ${MAX_DURATION_SECONDS} seconds.`
          : `${cut}, and 'bucket' is at most ${MAX_DURATION_SECONDS} seconds: give buckets=<1 to ${MAX_STATS_BUCKETS}> instead, or a range of at most ${MAX_DURATION_SECONDS * MAX_STATS_BUCKETS} seconds.`,
      );
    }
    return fixedWidthBuckets(fromSeconds, toSeconds, division.seconds);
  }
  const most = Math.max(1, spanSeconds);
  if (division.buckets > most) {
    throw invalid(
      "buckets",
      `asks for ${division.buckets} buckets over the ${spanSeconds} seconds from ${fromSeconds} to ${toSeconds}, and a bucket spans one second at least: ask for 1 to ${most}.`,
    );
  }
  return equalBuckets(fromSeconds, toSeconds, division.buckets);
}

/** Each parameter's one value, refusing unknown and repeated parameters. */
export function queryValues(target: string, known: readonly string[], endpoint: string): Map<string, string> {
  const queryAt = target.indexOf("?");
  const values = new Map<string, string>();
  if (queryAt === -1) return values;
  for (const [name, value] of new URLSearchParams(target.slice(queryAt + 1))) {
    if (!known.includes(name)) throw invalid(name, `is not one that ${endpoint} takes: it takes ${listed(known)}.`);
    if (values.has(name)) throw invalid(name, "is given more than once: give it once.");
    values.set(name, value);
  }
  return values;
}

function windowSecondsOf(text: string): number {
  const seconds = parseDurationSeconds(text);
  if (seconds === undefined || text !== text.trim()) {
    throw invalid("window", `is ${quoted(text)}, not a duration: write a whole number and a unit (s, m, h, d or w), from 1s to 366d, such as 1h, 24h or 7d.`);
  }
  return seconds;
}

function unixSecondsOf(parameter: string, text: string | undefined): number | undefined {
  return text === undefined ? undefined : wholeNumberOf(parameter, text, 0, MAX_UNIX_SECONDS, "unix seconds");
}

/** A decimal whole number from `min` to `max`, written plainly (no sign, exponent, fraction or leading zero). */
function wholeNumberOf(parameter: string, text: string, min: number, max: number, unit?: string): number {
  const value = /^(0|[1-9][0-9]{0,14})$/.test(text) ? Number(text) : undefined;
  if (value === undefined || value < min || value > max) {
    throw invalid(parameter, `is ${quoted(text)}: it must be a whole number${unit === undefined ? "" : ` of ${unit}`} from ${min} to ${max}.`);
  }
  return value;
}

function checkOrder(fromSeconds: number | undefined, toSeconds: number | undefined): void {
  if (fromSeconds !== undefined && toSeconds !== undefined && fromSeconds > toSeconds) {
    throw invalid("from", `(${fromSeconds}) is after to (${toSeconds}): give from at or before to.`);
  }
}

function invalid(parameter: string, problem: string): ApiError {
  return new ApiError("INVALID_QUERY", { query: { parameter, problem } });
}

/** A caller's value in a message, cut short so that a huge one cannot make a huge answer. */
function quoted(text: string, maxChars = 32): string {
  return `'${text.length <= maxChars ? text : `${text.slice(0, maxChars)}...`}'`;
}

function listed(names: readonly string[]): string {
  return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(", ")} and ${names.at(-1)!}`;
}
