import assert from "node:assert/strict";
import { test } from "node:test";
import { applyNetworkEvent, EMPTY_FEED, keepChains } from "../../renderer/src/live/dashboardFeed.ts";
import type { NetworkEvent } from "../../shared/wire/networkEvent.ts";
import type { NetworkStatus } from "../../shared/wire/networkStatus.ts";

function status(chainId: number, newestBlock: string | null): NetworkStatus {
  const data = newestBlock !== null;
  return {
    chainId,
    name: `chain ${chainId}`,
    state: data ? "ok" : "syncing",
    newestBlock,
    currentBaseFee: data ? "2" : null,
    baseFeePercentile: data ? "1" : null,
    busyThreshold: data ? "3" : null,
    minBaseFee: data ? "1" : null,
    maxBaseFee: data ? "3" : null,
    busy: data ? false : null,
    blobBaseFee: null,
    blobBaseFeePercentile: null,
    blobBusyThreshold: null,
    blobBusy: null,
    blobSchedule: null,
    historyBlocks: data ? 3 : 0,
    statsWindow: "500 blocks",
    statsWindowBlocks: 500,
    statsFromBlock: data ? "10" : null,
    statsToBlock: newestBlock,
    history: {
      horizon: "7d",
      blocks: 0,
      oldestBlock: null,
      newestBlock: null,
      oldestTime: null,
      newestTime: null,
      backfill: { running: false, progress: 0, blocksToGo: null },
      store: { state: "off", problem: null, since: null, unsavedBlocks: 0, droppedBlocks: 0 },
      summaries: { horizon: "52w", hours: 0, oldestStart: null },
    },
    blockTimeMs: 12_000,
    dataAgeMs: data ? 0 : null,
    endpoints: [],
    price: null,
    priceProblem: null,
  };
}

const full = (chainId: number): NetworkEvent => ({ status: status(chainId, "12"), blocks: { kind: "all", firstBlock: "10", baseFees: ["1", "2", "3"] } });

test("the stream's first events add each chain in turn, with its blocks", () => {
  const feed = applyNetworkEvent(applyNetworkEvent(EMPTY_FEED, full(1), 5), { status: status(8453, null), blocks: null }, 6);
  assert.deepEqual(
    feed.chains.map((chain) => [chain.status.chainId, chain.points.map((point) => point.block), chain.receivedAt]),
    [
      [1, [10, 11, 12], 5],
      [8453, [], 6],
    ],
  );
});

test("an event of one chain leaves every other chain's object as it was, so that the page skips redrawing them", () => {
  const before = applyNetworkEvent(applyNetworkEvent(EMPTY_FEED, full(1), 0), full(10), 0);
  const after = applyNetworkEvent(before, { status: status(10, "13"), blocks: { kind: "from", firstBlock: "13", baseFees: ["4"] } }, 1);
  assert.equal(after.chains[0], before.chains[0]);
  assert.deepEqual(
    after.chains[1]!.points.map((point) => point.exact),
    ["1", "2", "3", "4"],
  );
  // A status alone (blocks: null) keeps the blocks.
  const statusOnly = applyNetworkEvent(after, { status: { ...status(10, "13"), dataAgeMs: 5 }, blocks: null }, 2);
  assert.equal(statusOnly.chains[1]!.points, after.chains[1]!.points);
  assert.equal(statusOnly.chains[1]!.status.dataAgeMs, 5);
});

test("a chain reported without data (the service restarted and syncs again) shows no blocks", () => {
  const feed = applyNetworkEvent(applyNetworkEvent(EMPTY_FEED, full(1), 0), { status: status(1, null), blocks: null }, 1);
  assert.deepEqual(feed.chains[0]!.points, []);
});

test("the service's list of chains removes the chains it no longer follows and sets the order", () => {
  const feed = [full(1), full(10), full(137)].reduce((current, event) => applyNetworkEvent(current, event, 0), EMPTY_FEED);
  const kept = keepChains(feed, [137, 1, 42_161]);
  assert.deepEqual(kept.configured, [137, 1, 42_161]);
  assert.deepEqual(
    kept.chains.map((chain) => chain.status.chainId),
    [137, 1],
  );
  assert.equal(kept.chains[0], feed.chains[2]);
  // The same list again changes nothing, not even the object.
  assert.equal(keepChains(kept, [137, 1, 42_161]), kept);
});
