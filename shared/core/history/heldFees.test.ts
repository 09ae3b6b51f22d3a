import assert from "node:assert/strict";
import { test } from "node:test";
import { BlockColumns, TIME_EXACT } from "./blockColumns.ts";
import { heldFeesBetween } from "./heldFees.ts";

function columnsHolding(blocks: readonly number[]): BlockColumns {
  const columns = new BlockColumns();
  for (const block of blocks) {
    columns.setBaseFee(block, BigInt(block % 1_000) + 1n);
    columns.setTime(block, 1_700_000_000, TIME_EXACT);
  }
  return columns;
}

test("the held fees between two blocks are those held, oldest first, with gaps left out", () => {
  const columns = columnsHolding([10, 11, 12, 5_000, 5_001]);
  assert.deepEqual([...heldFeesBetween(columns, 11, 5_000)], [12n, 13n, 1n]);
  assert.deepEqual([...heldFeesBetween(columns, 13, 4_999)], []);
  assert.deepEqual([...heldFeesBetween(columns, 20, 10)], []);
});

test("a range spanning block numbers up to 2^53 - 1 costs what it holds, not what it spans", () => {
  const top = Number.MAX_SAFE_INTEGER;
  const columns = columnsHolding([0, 1, top - 1, top]);
  assert.deepEqual([...heldFeesBetween(columns, 0, top)], [1n, 2n, BigInt((top - 1) % 1_000) + 1n, BigInt(top % 1_000) + 1n]);
});
