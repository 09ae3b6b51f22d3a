import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { BACKTEST_FORECASTS_HEADER } from "./backtestForecastsCsv.ts";
import { runBacktestCommand } from "./backtestCommand.ts";

const folder = mkdtempSync(join(tmpdir(), "gasfees-backtest-"));
after(() => rmSync(folder, { recursive: true, force: true }));

/** Runs the command as `npm run backtest` does, its output caught. */
function run(argv: string[]) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = runBacktestCommand(argv, { stdout: (text) => stdout.push(text), stderr: (text) => stderr.push(text) });
  return { code, stdout: stdout.join("\n"), stderr: stderr.join("\n") };
}

/** Four days of one sample an hour in Gwei (the fee halves on day 3), an hour missing, and a column to ignore. */
function writeSamples(): string {
  const start = 1_700_000_000 - (1_700_000_000 % 3_600);
  const lines = ["block, timestamp , base_fee_gwei"];
  for (let hour = 0; hour < 96; hour += 1) {
    if (hour === 70) continue;
    lines.push(`${hour},${start + hour * 3_600 + 600},${hour >= 72 ? 10 : 20 + (hour % 3)}`);
  }
  const file = join(folder, "samples.csv");
  writeFileSync(file, lines.join("\n"));
  return file;
}

test("--out writes one row per forecast with the contract's columns; the outcome is empty where the horizon holds no sample", () => {
  const input = writeSamples();
  const out = join(folder, "forecasts.csv");
  const { code, stdout, stderr } = run(["--input", input, "--within", "1h,3h", "--ratios", "0.9,0.5", "--warmup", "48h", "--out", out]);
  assert.equal(stderr, "");
  assert.equal(code, 0);
  const [header, ...rows] = readFileSync(out, "utf8").trimEnd().split("\n");
  assert.equal(header, "t,within_h,ratio,current_gwei,threshold_gwei,probability,lowest_p10_gwei,lowest_p50_gwei,lowest_p90_gwei,outcome_lowest_gwei");
  assert.equal(header, BACKTEST_FORECASTS_HEADER);
  // Hours 48..95 but 70 hold a sample: 47 moments x 2 horizons x 2 ratios.
  assert.equal(rows.length, 47 * 4);
  const cells = rows.map((row) => row.split(","));
  assert.ok(cells.every((row) => row.length === 10));
  const start = 1_700_000_000 - (1_700_000_000 % 3_600);
  // The first forecast: at the end of hour 48 (fee 20 Gwei), 1 h ahead; hour 49's sample is 21 Gwei.
  assert.deepEqual(cells[0]!.slice(0, 5), [String(start + 49 * 3_600), "1", "0.9", "20", "18"]);
  assert.equal(cells[0]![9], "21");
  assert.deepEqual(cells[1]!.slice(1, 5), ["1", "0.5", "20", "10"]);
  // At the end of hour 69, the next hour (70) holds no sample: no outcome within 1 h; within 3 h, hour 71's 22 Gwei.
  const at69 = cells.filter((row) => row[0] === String(start + 70 * 3_600));
  assert.deepEqual(
    at69.map((row) => [row[1], row[9]]),
    [
      ["1", ""],
      ["1", ""],
      ["3", "10"],
      ["3", "10"],
    ],
  );
  // The newest hour's horizon runs past the data: unknown.
  assert.equal(cells.at(-1)![9], "");
  for (const row of cells) {
    const probability = Number(row[5]);
    assert.ok(probability >= 0 && probability <= 1);
    assert.ok(Number(row[6]) <= Number(row[7]) && Number(row[7]) <= Number(row[8]));
  }
  assert.match(stdout, /within\s+ratio\s+forecasts\s+base rate\s+Brier\s+climatology\s+skill\s+calibration error/);
  assert.match(stdout, /\n1h\s+0\.9\s+45\s/);
  assert.match(stdout, /mean skill over 4 questions: /);
  assert.match(stdout, /Reliability by tenths/);
  assert.match(stdout, /Quantile coverage/);
  assert.match(stdout, /took \d+\.\d\d s/);
  assert.match(stdout, /wrote 188 forecasts to /);
});

test("bad input ends in one clear line and a non-zero exit", () => {
  const header = join(folder, "header.csv");
  writeFileSync(header, "time,fee\n1,2\n");
  const bad = join(folder, "bad.csv");
  writeFileSync(bad, "timestamp,base_fee_wei\n1700000000,12\n1700000001,twelve\n");
  const cases: Array<[string[], number, RegExp]> = [
    [["--input", join(folder, "missing.csv")], 1, /^backtest: .*missing\.csv: no such file$/],
    [["--input", folder], 1, /is a folder, not a file$/],
    [["--input", header], 1, /header\.csv: line 1: the header must name timestamp/],
    [["--input", bad], 1, /bad\.csv: line 3: base_fee_wei must be a whole number of wei \(got 'twelve'\)$/],
    [["--input", writeSamples(), "--warmup", "1h", "--out", join(folder, "no", "such", "dir.csv")], 1, /^backtest: cannot write --out .*: no such file$/],
    [["--within", "1h"], 2, /^backtest: --input FILE.csv is required/],
  ];
  for (const [argv, code, message] of cases) {
    const result = run(argv);
    assert.equal(result.code, code, argv.join(" "));
    assert.match(result.stderr.split("\n")[0]!, message);
    assert.doesNotMatch(result.stderr, /\n\s+at /, "no stack trace");
  }
});

test("the script exits non-zero with one line and no stack trace", () => {
  const child = spawnSync(process.execPath, ["--import", "tsx", "scripts/backtest.ts", "--input", join(folder, "missing.csv")], { encoding: "utf8" });
  assert.equal(child.status, 1);
  assert.equal(child.stdout, "");
  assert.match(child.stderr, /^backtest: .*missing\.csv: no such file\n$/);
  assert.equal(spawnSync(process.execPath, ["--import", "tsx", "scripts/backtest.ts", "--help"], { encoding: "utf8" }).status, 0);
});
