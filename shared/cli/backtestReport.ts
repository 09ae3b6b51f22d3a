// What `npm run backtest` prints: per horizon and ratio the forecasts, base rate, Brier scores, skill and calibration,
// the reliability by tenths, the quantiles' coverage and the figures over all questions.
import type { BacktestResult } from "../core/outlook/backtest.ts";
import { BACKTEST_QUANTILES } from "../core/outlook/backtestWalkForward.ts";

export interface BacktestRun {
  readonly input: string;
  readonly samples: number;
  readonly warmupHours: number;
  readonly result: BacktestResult;
  /** Reading and parsing the file, then the backtest itself. */
  readonly readSeconds: number;
  readonly runSeconds: number;
}

/** A number rounded for the table ("-" when undefined), never "-0.000". */
const fixed = (value: number | null, digits: number) => (value === null ? "-" : (value + 0).toFixed(digits).replace(/^-(0\.?0*)$/, "$1"));
const day = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString().slice(0, 16).replace("T", " ");
const percent = (share: number) => `${(share * 100).toFixed(1)}%`;

function table(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join("  ")
      .trimEnd(),
  );
}

function durationText(hours: number): string {
  return hours % 24 === 0 && hours > 0 ? `${hours / 24}d` : `${hours}h`;
}

export function formatBacktestReport(run: BacktestRun): string {
  const { result } = run;
  const { hours, moments, firstMoment } = result;
  const lines: string[] = [];
  lines.push(`backtest of ${run.input}: ${run.samples} samples in ${hours.length} hours`);
  if (hours.length > 0)
    lines.push(`from ${day(hours[0]!.start)} to ${day(hours[hours.length - 1]!.start + 3_600)} UTC; warm-up ${durationText(run.warmupHours)}`);
  if (result.forecasts.count === 0) {
    lines.push("no forecast: no hour with a sample after the warm-up (give more samples or a shorter --warmup)");
  } else {
    lines.push(`forecasts at the end of ${result.forecasts.count} hours, from ${day(moments.times[firstMoment]!)} UTC`);
  }
  lines.push("");
  lines.push("The chance that the lowest base fee within H is at or below r x the current one:");
  lines.push(
    ...table([
      ["within", "ratio", "forecasts", "base rate", "Brier", "climatology", "skill", "calibration error"],
      ...result.questions.map((question) => [
        `${question.withinHours}h`,
        String(question.ratio),
        String(question.forecasts),
        fixed(question.baseRate, 3),
        fixed(question.brier, 4),
        fixed(question.brierClimatology, 4),
        fixed(question.skill, 3),
        fixed(question.calibrationError, 3),
      ]),
    ]),
  );
  const withoutHistory = result.questions.reduce((sum, question) => sum + question.climatologyWithoutHistory, 0);
  lines.push(
    `mean skill over ${result.questions.length} questions: ${fixed(result.meanSkill, 3)}; calibration error over all forecasts: ${fixed(result.calibrationError, 3)}, ` +
      `at most ${fixed(Math.max(...result.questions.map((question) => question.calibrationError ?? 0)), 3)} in one question`,
  );
  if (withoutHistory > 0) lines.push(`(${withoutHistory} forecasts had no earlier outcome in the climatology's 28 days: it said 0.5 there)`);
  lines.push("");
  lines.push("Reliability by tenths of the forecast probability: mean probability / observed frequency (forecasts)");
  lines.push(
    ...table([
      ["within", "ratio", ...Array.from({ length: 10 }, (_, bin) => `${(bin / 10).toFixed(1)}-${bin === 9 ? "1.0" : ((bin + 1) / 10).toFixed(1)}`)],
      ...result.questions.map((question) => [
        `${question.withinHours}h`,
        String(question.ratio),
        ...question.reliability.map((bin) => (bin.forecasts === 0 ? "-" : `${fixed(bin.meanProbability, 2)}/${fixed(bin.observed, 2)} (${bin.forecasts})`)),
      ]),
    ]),
  );
  lines.push("");
  lines.push("Quantile coverage: how often the lowest base fee within H was at or below the forecast quantile");
  lines.push(
    ...table([
      ["within", "outcomes", ...BACKTEST_QUANTILES.map((q) => `<= p${Math.round(q * 100)}`)],
      ...result.coverage.map((coverage) => [`${coverage.withinHours}h`, String(coverage.outcomes), ...coverage.below.map(percent)]),
    ]),
  );
  lines.push("");
  lines.push(
    `took ${(run.readSeconds + run.runSeconds).toFixed(2)} s (reading the file ${run.readSeconds.toFixed(2)} s, the backtest ${run.runSeconds.toFixed(2)} s)`,
  );
  return lines.join("\n");
}
