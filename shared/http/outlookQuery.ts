// /outlook's query (CONTRACT.md, "Outlook: wait or pay now"): the horizon and at most one threshold.
import { parseGweiAmount } from "../core/fees/parseGweiAmount.ts";
import { HOUR_SECONDS } from "../core/outlook/hourlySummary.ts";
import { parseDurationSeconds } from "../core/history/duration.ts";
import { FIAT_PATTERN } from "../wire/alertRuleSchema.ts";
import { OUTLOOK_MAX_WITHIN_HOURS, OUTLOOK_MIN_WITHIN_HOURS } from "../wire/outlook.ts";
import { ApiError } from "./apiErrors.ts";
import { queryValues } from "./statsQuery.ts";

/** The horizon when `within` is not given. */
export const DEFAULT_WITHIN_HOURS = 6;

/** The threshold asked: none, a fee in Gwei, a ratio of the current base fee, or an action's cost in money. */
export type OutlookThreshold =
  | { readonly kind: "none" }
  | { readonly kind: "wei"; readonly wei: bigint }
  | { readonly kind: "ratio"; readonly ratio: number }
  | { readonly kind: "fiat"; readonly actionId: string; readonly fiat: string };

export interface OutlookQuery {
  readonly withinHours: number;
  readonly threshold: OutlookThreshold;
}

const OUTLOOK_PARAMETERS = ["within", "below", "belowRatio", "action", "fiat"] as const;
const THRESHOLDS = "below=<gwei>, belowRatio=<0..1> or action=<id>&fiat=<amount>";

/** `/outlook`'s query from a request target; throws INVALID_QUERY naming the parameter at fault and what it takes. */
export function parseOutlookQuery(target: string): OutlookQuery {
  const values = queryValues(target, OUTLOOK_PARAMETERS, "outlook");
  const within = values.get("within");
  const withinHours = within === undefined ? DEFAULT_WITHIN_HOURS : withinHoursOf(within);
  const below = values.get("below");
  const belowRatio = values.get("belowRatio");
  const action = values.get("action");
  const fiat = values.get("fiat");
  const given = [below, belowRatio, action ?? fiat].filter((value) => value !== undefined).length;
  if (given > 1) {
    const named = [
      below === undefined ? "" : "below",
      belowRatio === undefined ? "" : "belowRatio",
      action === undefined && fiat === undefined ? "" : "action/fiat",
    ];
    throw invalid(named.filter((name) => name !== "").at(-1)!, `cannot be given with another threshold: give at most one of ${THRESHOLDS}.`);
  }
  if (below !== undefined) {
    const amount = parseGweiAmount(below);
    if ("problem" in amount) throw invalid("below", `${amount.problem}.`);
    return { withinHours, threshold: { kind: "wei", wei: amount.wei } };
  }
  if (belowRatio !== undefined) return { withinHours, threshold: { kind: "ratio", ratio: ratioOf(belowRatio) } };
  if (action !== undefined || fiat !== undefined) {
    if (action === undefined) throw invalid("action", "is missing: fiat=<amount> needs action=<id> (an action of GET /networks/{chainId}/costs).");
    if (fiat === undefined) throw invalid("fiat", "is missing: action=<id> needs fiat=<amount>, an amount of money in the currency of /costs, like 1.50.");
    if (!FIAT_PATTERN.test(fiat)) throw invalid("fiat", `is ${quoted(fiat)}: it must be an amount of money from 0 with at most 8 decimals, like 1.50.`);
    return { withinHours, threshold: { kind: "fiat", actionId: action, fiat } };
  }
  return { withinHours, threshold: { kind: "none" } };
}

/** The message of an INVALID_QUERY about `parameter`. */
export function invalidOutlookQuery(parameter: string, problem: string): ApiError {
  return invalid(parameter, problem);
}

function withinHoursOf(text: string): number {
  const range = `from ${OUTLOOK_MIN_WITHIN_HOURS}h to ${OUTLOOK_MAX_WITHIN_HOURS / 24}d (${OUTLOOK_MAX_WITHIN_HOURS}h) in whole hours, such as 1h, 6h, 24h or 7d`;
  const seconds = text === text.trim() ? parseDurationSeconds(text) : undefined;
  if (seconds === undefined) throw invalid("within", `is ${quoted(text)}, not a duration: write ${range}.`);
  const hours = seconds / HOUR_SECONDS;
  if (!Number.isInteger(hours) || hours < OUTLOOK_MIN_WITHIN_HOURS || hours > OUTLOOK_MAX_WITHIN_HOURS) {
    throw invalid("within", `is ${quoted(text)}: it must be ${range}.`);
  }
  return hours;
}

function ratioOf(text: string): number {
  const value = /^(0|1)(\.[0-9]{1,12})?$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= 0 && value <= 1)) {
    throw invalid("belowRatio", `is ${quoted(text)}: it must be a ratio of the current base fee from 0 to 1, written like 0.75 (at most 12 decimals).`);
  }
  return value;
}

function invalid(parameter: string, problem: string): ApiError {
  return new ApiError("INVALID_QUERY", { query: { parameter, problem } });
}

function quoted(text: string, maxChars = 32): string {
  return `'${text.length <= maxChars ? text : `${text.slice(0, maxChars)}...`}'`;
}
