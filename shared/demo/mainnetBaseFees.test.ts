import assert from "node:assert/strict";
import { test } from "node:test";
import { BaseFeeCsvError, loadMainnetBaseFees, parseBaseFeeCsv } from "./mainnetBaseFees.ts";

test("the shipped mainnet base fees load whole, exact and in block order", () => {
  const { firstBlock, baseFeesWei } = loadMainnetBaseFees();
  assert.equal(firstBlock, 17_180_000n);
  assert.equal(baseFeesWei.length, 14_651);
  assert.equal(baseFeesWei[0], 66_531_398_093n);
  assert.equal(baseFeesWei[1], 68_026_575_389n);
  assert.equal(baseFeesWei[499], 96_732_902_375n);
  assert.equal(baseFeesWei[14_650], 137_923_023_303n);
});

test("a valid CSV parses to its first block and fees", () => {
  assert.deepEqual(parseBaseFeeCsv("block_number,base_fee_wei\n7,10\n8,0\r\n9,30\n\n"), { firstBlock: 7n, baseFeesWei: [10n, 0n, 30n] });
});

test("bad CSVs are refused with the line that is wrong", () => {
  const cases: Array<[string, RegExp]> = [
    ["number,fee\n1,2", /line 1: expected the header/],
    ["block_number,base_fee_wei\n", /line 2: no rows/],
    ["block_number,base_fee_wei\n1,2\n3,4", /line 3: block 3 does not follow block 1/],
    ["block_number,base_fee_wei\n1,2\n2,-4", /line 3: "2,-4" is not two non-negative decimal integers/],
    ["block_number,base_fee_wei\n1,2.5", /line 2/],
    ["block_number,base_fee_wei\n1,2,3", /line 2/],
    ["block_number,base_fee_wei\n1,0x10", /line 2/],
  ];
  for (const [text, message] of cases) {
    assert.throws(
      () => parseBaseFeeCsv(text, "t.csv"),
      (error: unknown) => error instanceof BaseFeeCsvError && message.test(error.message),
    );
  }
});
