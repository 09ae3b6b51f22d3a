// `npm run backtest`: reads the samples, runs the default estimator's walk-forward backtest, prints its scores and,
// with --out, writes its forecasts. Bad input ends in one line saying what is wrong and a non-zero exit.
import { readFileSync, writeFileSync } from "node:fs";
import { runBacktest } from "../core/outlook/backtest.ts";
import { createDefaultEstimator } from "../core/outlook/defaultEstimator.ts";
import { parseSampleCsv, SampleCsvError } from "../core/outlook/sampleCsv.ts";
import { backtestForecastsCsv } from "./backtestForecastsCsv.ts";
import { BACKTEST_USAGE, parseBacktestOptions, UsageError } from "./backtestOptions.ts";
import { formatBacktestReport } from "./backtestReport.ts";

export interface CommandOutput {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

/** Runs the command on `argv` (the arguments after `--`); returns the exit code: 0, 1 for a bad file, 2 for bad options. */
export function runBacktestCommand(argv: readonly string[], output: CommandOutput): number {
  let options;
  try {
    options = parseBacktestOptions(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    output.stderr(`backtest: ${error.message}\n(npm run backtest -- --help for the options)`);
    return 2;
  }
  if (options === "help") {
    output.stdout(BACKTEST_USAGE);
    return 0;
  }
  const startedAt = performance.now();
  let samples;
  try {
    samples = parseSampleCsv(readFileSync(options.input, "utf8"));
  } catch (error) {
    output.stderr(`backtest: ${options.input}: ${fileProblem(error)}`);
    return 1;
  }
  const readAt = performance.now();
  const result = runBacktest(samples, createDefaultEstimator, options);
  const doneAt = performance.now();
  if (options.out !== undefined) {
    try {
      writeFileSync(options.out, backtestForecastsCsv(result));
    } catch (error) {
      output.stderr(`backtest: cannot write --out ${options.out}: ${fileProblem(error)}`);
      return 1;
    }
  }
  output.stdout(
    formatBacktestReport({
      input: options.input,
      samples: samples.length,
      warmupHours: options.warmupHours,
      result,
      readSeconds: (readAt - startedAt) / 1000,
      runSeconds: (doneAt - readAt) / 1000,
    }) +
      (options.out === undefined ? "" : `\nwrote ${result.forecasts.count * options.withinHours.length * options.ratios.length} forecasts to ${options.out}`),
  );
  return 0;
}

/** A file error in one line: the system's reason without its stack, or the CSV's line at fault. */
function fileProblem(error: unknown): string {
  if (error instanceof SampleCsvError) return error.message;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return "no such file";
  if (code === "EISDIR") return "is a folder, not a file";
  if (code === "EACCES") return "permission denied";
  return (error as Error).message.split("\n")[0]!;
}
