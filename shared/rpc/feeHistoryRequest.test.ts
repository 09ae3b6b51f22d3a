import assert from "node:assert/strict";
import { test } from "node:test";
import { MIN_POLL_REACH_BLOCKS, nextFeeHistoryRequest } from "./feeHistoryRequest.ts";

const following = { windowBlocks: 500, overlapBlocks: 8, blockTimeMs: 1000, pollIntervalMs: 1000, now: 100_000 };

test("before any data: the whole window, in one request if the endpoint allows", () => {
  assert.deepEqual(nextFeeHistoryRequest({ ...following, newestHeldBlock: undefined, lastSyncAt: undefined }), { maxBlocks: 500, firstRequestBlocks: 500 });
});

test("following: back to the overlap, reaching at least a burst of dozens of new blocks in one request", () => {
  const request = nextFeeHistoryRequest({ ...following, newestHeldBlock: 1000n, lastSyncAt: 99_000 });
  assert.deepEqual(request, { fromBlock: 993n, maxBlocks: 500, firstRequestBlocks: 8 + MIN_POLL_REACH_BLOCKS });
});

test("after a long silence: room for twice the blocks expected since the last sync, within the window", () => {
  assert.equal(nextFeeHistoryRequest({ ...following, newestHeldBlock: 1000n, lastSyncAt: 100_000 - 40_000 }).firstRequestBlocks, 8 + 2 * 40 + 2);
  assert.equal(nextFeeHistoryRequest({ ...following, newestHeldBlock: 1000n, lastSyncAt: 100_000 - 1_000_000 }).firstRequestBlocks, 500);
});

test("a young chain: the overlap never reaches before the genesis", () => {
  assert.equal(nextFeeHistoryRequest({ ...following, newestHeldBlock: 3n, lastSyncAt: 99_000 }).fromBlock, 0n);
});
