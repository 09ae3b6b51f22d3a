import assert from "node:assert/strict";
import { test } from "node:test";
import { parseBacktestOptions } from "./backtestOptions.ts";

test("the defaults are the contract's: 1h,3h,6h,12h,24h; 0.9,0.75,0.5; 28 days of warm-up", () => {
  assert.deepEqual(parseBacktestOptions(["--input", "samples.csv"]), {
    input: "samples.csv",
    withinHours: [1, 3, 6, 12, 24],
    ratios: [0.9, 0.75, 0.5],
    warmupHours: 672,
  });
  assert.deepEqual(parseBacktestOptions(["--input=a.csv", "--within", "2h, 1d,168h", "--ratios", "1,.5", "--warmup", "72h", "--out", "o.csv"]), {
    input: "a.csv",
    withinHours: [2, 24, 168],
    ratios: [1, 0.5],
    warmupHours: 72,
    out: "o.csv",
  });
  assert.equal((parseBacktestOptions(["--warmup", "0", "--input", "a"]) as { warmupHours: number }).warmupHours, 0);
  assert.equal(parseBacktestOptions(["--help"]), "help");
});

test("wrong options are refused with what to type instead", () => {
  const cases: Array<[string[], RegExp]> = [
    [[], /--input FILE.csv is required/],
    [["--input"], /--input/],
    [["--input", "a", "--frobnicate"], /Unknown option '--frobnicate'/],
    [["--input", "a", "extra"], /Unexpected argument 'extra'/],
    [["--input", "a", "--within", "30m"], /--within: '30m' is not a horizon of whole hours from 1h to 168h/],
    [["--input", "a", "--within", "8d"], /--within: '8d'/],
    [["--input", "a", "--within", "1h,,3h"], /--within takes a comma-separated list without empty items/],
    [["--input", "a", "--within", "1h,1h"], /--within names 1h twice/],
    [["--input", "a", "--ratios", "0"], /--ratios: '0' is not a ratio above 0 and at most 1/],
    [["--input", "a", "--ratios", "1.5"], /--ratios: '1.5'/],
    [["--input", "a", "--ratios", "abc"], /--ratios: 'abc'/],
    [["--input", "a", "--warmup", "90m"], /--warmup: '90m' is not a duration of whole hours/],
    [["--input", "a", "--warmup", "-1d"], /--warmup/],
  ];
  for (const [argv, message] of cases) {
    assert.throws(
      () => parseBacktestOptions(argv),
      (error: Error) => error.name === "UsageError" && message.test(error.message),
      argv.join(" "),
    );
  }
});
