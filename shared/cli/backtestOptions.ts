// `npm run backtest -- --input FILE.csv [--within ...] [--ratios ...] [--warmup 28d] [--out FILE.csv]` (CONTRACT.md,
// "Outlook: wait or pay now"): its options, read and checked.
import { parseArgs } from "node:util";
import { DEFAULT_BACKTEST_RATIOS, DEFAULT_BACKTEST_WARMUP_HOURS, DEFAULT_BACKTEST_WITHIN_HOURS } from "../core/outlook/backtest.ts";
import { parseDurationSeconds } from "../core/history/duration.ts";
import { OUTLOOK_MAX_WITHIN_HOURS, OUTLOOK_MIN_WITHIN_HOURS } from "../wire/outlook.ts";

export const BACKTEST_USAGE = `Usage: npm run backtest -- --input FILE.csv [options]

Replays the outlook's estimator walk-forward over a file of base fee samples and scores its forecasts.
  --input FILE.csv     the samples: a header naming timestamp (unix s) and base_fee_wei or base_fee_gwei
  --within LIST        horizons, whole hours from 1h to 168h (default 1h,3h,6h,12h,24h)
  --ratios LIST        thresholds as ratios of the current base fee, above 0 and at most 1 (default 0.9,0.75,0.5)
  --warmup DURATION    hours of samples before the first forecast, whole hours (default 28d)
  --out FILE.csv       also write one row per forecast
  --help               show this help`;

export interface BacktestCommandOptions {
  readonly input: string;
  readonly withinHours: readonly number[];
  readonly ratios: readonly number[];
  readonly warmupHours: number;
  readonly out?: string;
}

/** A command line the backtest cannot run with; the message says what to type instead. (Not serve's UsageError, whose
 * module loads the service's settings and history store.) */
export class UsageError extends Error {
  override name = "UsageError";
}

const OPTIONS = {
  input: { type: "string" },
  within: { type: "string" },
  ratios: { type: "string" },
  warmup: { type: "string" },
  out: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** The command's options, or "help"; a UsageError saying what to type instead when they are wrong. */
export function parseBacktestOptions(argv: readonly string[]): BacktestCommandOptions | "help" {
  let values;
  try {
    ({ values } = parseArgs({ args: [...argv], strict: true, allowPositionals: false, options: OPTIONS }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help === true) return "help";
  if (values.input === undefined || values.input.trim() === "") throw new UsageError("--input FILE.csv is required: the samples to backtest on");
  return {
    input: values.input,
    withinHours: values.within === undefined ? DEFAULT_BACKTEST_WITHIN_HOURS : listOf(values.within, "--within").map(parseWithin),
    ratios: values.ratios === undefined ? DEFAULT_BACKTEST_RATIOS : listOf(values.ratios, "--ratios").map(parseRatio),
    warmupHours: values.warmup === undefined ? DEFAULT_BACKTEST_WARMUP_HOURS : parseWarmup(values.warmup),
    ...(values.out === undefined ? {} : { out: values.out }),
  };
}

function listOf(text: string, option: string): string[] {
  const items = text.split(",").map((item) => item.trim());
  if (items.some((item) => item === "")) throw new UsageError(`${option} takes a comma-separated list without empty items (got '${text}')`);
  const duplicate = items.find((item, index) => items.indexOf(item) !== index);
  if (duplicate !== undefined) throw new UsageError(`${option} names ${duplicate} twice`);
  return items;
}

function parseWithin(text: string): number {
  const seconds = parseDurationSeconds(text);
  const hours = seconds === undefined ? Number.NaN : seconds / 3_600;
  if (!Number.isInteger(hours) || hours < OUTLOOK_MIN_WITHIN_HOURS || hours > OUTLOOK_MAX_WITHIN_HOURS) {
    throw new UsageError(`--within: '${text}' is not a horizon of whole hours from 1h to 168h, like 1h, 6h or 1d`);
  }
  return hours;
}

function parseRatio(text: string): number {
  const ratio = /^(0|1)?(\.[0-9]+)?$/.test(text) && text !== "" && text !== "." ? Number(text) : Number.NaN;
  if (!(ratio > 0 && ratio <= 1)) throw new UsageError(`--ratios: '${text}' is not a ratio above 0 and at most 1, like 0.9 or 0.5`);
  return ratio;
}

function parseWarmup(text: string): number {
  if (/^0[smhdw]?$/.test(text.trim())) return 0;
  const seconds = parseDurationSeconds(text);
  if (seconds === undefined || seconds % 3_600 !== 0) throw new UsageError(`--warmup: '${text}' is not a duration of whole hours, like 28d or 72h`);
  return seconds / 3_600;
}
