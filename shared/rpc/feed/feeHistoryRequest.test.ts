import assert from "node:assert/strict";
import { test } from "node:test";
import { NEW_BLOCKS_MARGIN, nextFeeHistoryRequest } from "./feeHistoryRequest.ts";

const following = { windowBlocks: 500, overlapBlocks: 8, blockTimeMs: 1000, pollIntervalMs: 1000, now: 100_000, newestHeadSeen: undefined };

test("before any data: the whole window, in one request if the endpoint allows", () => {
  assert.deepEqual(nextFeeHistoryRequest({ ...following, newestHeldBlock: undefined, lastSyncAt: undefined }), { maxBlocks: 500, firstRequestBlocks: 500 });
});

test("following: back to the overlap, and the blocks due since the last sync (twice them) and a margin, not dozens more", () => {
  const request = nextFeeHistoryRequest({ ...following, newestHeldBlock: 1000n, lastSyncAt: 99_000 });
  assert.deepEqual(request, { fromBlock: 993n, maxBlocks: 500, firstRequestBlocks: 8 + 2 * 1 + NEW_BLOCKS_MARGIN });
});

test("after a long silence: room for twice the blocks expected since the last sync, within the window", () => {
  assert.equal(
    nextFeeHistoryRequest({ ...following, newestHeldBlock: 1000n, lastSyncAt: 100_000 - 40_000 }).firstRequestBlocks,
    8 + 2 * 40 + NEW_BLOCKS_MARGIN,
  );
  assert.equal(nextFeeHistoryRequest({ ...following, newestHeldBlock: 1000n, lastSyncAt: 100_000 - 1_000_000 }).firstRequestBlocks, 500);
});

test("a header shows new blocks: they are asked for, with the overlap and the margin", () => {
  const request = nextFeeHistoryRequest({ ...following, newestHeldBlock: 1000n, newestHeadSeen: 1040n, lastSyncAt: 99_000 });
  assert.equal(request.firstRequestBlocks, 8 + 40 + NEW_BLOCKS_MARGIN);
});

test("a restart on blocks held (no sync yet in this run): the blocks its header shows, whatever the age of the newest held", () => {
  const request = nextFeeHistoryRequest({ ...following, newestHeldBlock: 9000n, newestHeadSeen: 9040n, lastSyncAt: undefined });
  assert.deepEqual(request, { fromBlock: 8993n, maxBlocks: 500, firstRequestBlocks: 8 + 40 + NEW_BLOCKS_MARGIN });
  // Further behind than the window: the newest window, the rest is the backfill's.
  assert.equal(nextFeeHistoryRequest({ ...following, newestHeldBlock: 9000n, newestHeadSeen: 19_000n, lastSyncAt: undefined }).firstRequestBlocks, 500);
});

test("a young chain: the overlap never reaches before the genesis", () => {
  assert.equal(nextFeeHistoryRequest({ ...following, newestHeldBlock: 3n, lastSyncAt: 99_000 }).fromBlock, 0n);
});
