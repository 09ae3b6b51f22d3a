import assert from "node:assert/strict";
import { test } from "node:test";
import { parseSampleCsv } from "./sampleCsv.ts";

test("reads timestamp and base_fee_wei or base_fee_gwei, any spacing or order, other columns ignored, sorted by time", () => {
  assert.deepEqual(parseSampleCsv("block_number,timestamp,base_fee_wei\n2,1700000012,51130082736\n1,1700000000,7\n"), [
    { timestamp: 1_700_000_000, baseFee: 7n },
    { timestamp: 1_700_000_012, baseFee: 51_130_082_736n },
  ]);
  assert.deepEqual(parseSampleCsv("\uFEFF Base_Fee_Gwei , note,  timestamp \r\n 12.5 , x , 1700000000 \r\n\r\n0.000000001,,1700000001"), [
    { timestamp: 1_700_000_000, baseFee: 12_500_000_000n },
    { timestamp: 1_700_000_001, baseFee: 1n },
  ]);
});

test("bad files are refused in one line that names the line at fault", () => {
  const cases: Array<[string, RegExp]> = [
    ["", /empty/],
    ["time,fee\n1,2", /line 1: the header must name timestamp and base_fee_wei or base_fee_gwei/],
    ["timestamp,base_fee_wei\n", /no samples/],
    ["timestamp,base_fee_wei\n1700000000,12\n17e8,12", /line 3: timestamp must be whole unix seconds \(got '17e8'\)/],
    ["timestamp,base_fee_wei\n1700000000,-3", /line 2: base_fee_wei must be a whole number of wei \(got '-3'\)/],
    ["timestamp,base_fee_wei\n1700000000", /line 2: base_fee_wei must be a whole number of wei \(got ''\)/],
    ["timestamp,base_fee_gwei\n1700000000,1.0000000001", /line 2: base_fee_gwei has 10 decimals/],
  ];
  for (const [text, message] of cases) {
    assert.throws(
      () => parseSampleCsv(text),
      (error: Error) => error.name === "SampleCsvError" && message.test(error.message) && !error.message.includes("\n"),
      text,
    );
  }
});
