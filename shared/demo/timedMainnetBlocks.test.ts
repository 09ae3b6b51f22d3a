import assert from "node:assert/strict";
import { test } from "node:test";
import { loadMainnetBaseFees } from "./mainnetBaseFees.ts";
import { TIMED_MAINNET_CSV_NAME, TimedBlocksCsvError, demoDataPath, loadTimedMainnetBlocks, parseTimedBlocksCsv } from "./timedMainnetBlocks.ts";

test("the shipped timed mainnet blocks load whole, in order, with the same fees as the untimed file", () => {
  const timed = loadTimedMainnetBlocks();
  assert.equal(timed.firstBlock, 17_180_000n);
  assert.equal(timed.baseFeesWei.length, 14_651);
  assert.equal(timed.timestamps.length, 14_651);
  assert.equal(timed.timestamps[0], 1_683_121_751);
  assert.equal(timed.timestamps[14_650], 1_683_299_519);
  // The two files come from the same exports: every fee agrees, block by block.
  assert.deepEqual(timed.baseFeesWei, loadMainnetBaseFees().baseFeesWei);
  // After the Merge: 12-second slots, a missed slot now and then.
  const gaps = new Set(timed.timestamps.slice(1).map((timestamp, i) => timestamp - timed.timestamps[i]!));
  assert.deepEqual(
    [...gaps].sort((a, b) => a - b),
    [12, 24, 36],
  );
});

test("the data file is found beside the module", () => {
  assert.match(demoDataPath(TIMED_MAINNET_CSV_NAME), /shared\/demo\/data\/mainnet-17180000-17194650-timed\.csv$/);
});

test("a valid timed CSV parses to its first block, timestamps and fees", () => {
  assert.deepEqual(parseTimedBlocksCsv("block_number,timestamp,base_fee_wei\n7,100,10\n8,112,0\r\n9,136,30\n\n"), {
    firstBlock: 7n,
    timestamps: [100, 112, 136],
    baseFeesWei: [10n, 0n, 30n],
  });
});

test("bad timed CSVs are refused with the line that is wrong", () => {
  const cases: Array<[string, RegExp]> = [
    ["block_number,base_fee_wei\n1,2", /line 1: expected the header/],
    ["block_number,timestamp,base_fee_wei\n", /line 2: no rows/],
    ["block_number,timestamp,base_fee_wei\n1,10,2\n3,20,4", /line 3: block 3 does not follow block 1/],
    ["block_number,timestamp,base_fee_wei\n1,10,2\n2,10,4", /line 3: block 2's timestamp 10 is not after/],
    ["block_number,timestamp,base_fee_wei\n1,10,2\n2,9,4", /line 3: block 2's timestamp 9 is not after/],
    ["block_number,timestamp,base_fee_wei\n1,10,-2", /line 2: "1,10,-2" is not three/],
    ["block_number,timestamp,base_fee_wei\n1,10", /line 2/],
    ["block_number,timestamp,base_fee_wei\n1,0x10,2", /line 2/],
    ["block_number,timestamp,base_fee_wei\n1,99999999999999999999,2", /line 2: the timestamp 99999999999999999999 is too large/],
  ];
  for (const [text, message] of cases) {
    assert.throws(
      () => parseTimedBlocksCsv(text, "t.csv"),
      (error: unknown) => error instanceof TimedBlocksCsvError && message.test(error.message) && error.message.startsWith("t.csv, line"),
      text,
    );
  }
});
