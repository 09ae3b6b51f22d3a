import assert from "node:assert/strict";
import { test } from "node:test";
import type { BaseFeeStatsBucket } from "../../shared/wire/baseFeeStats.ts";
import { statsRequestKey, type StatsRequest } from "../../renderer/src/live/statsRequest.ts";
import { FORGET_AFTER_MS, HISTORY_REFRESH_MS, RETRY_AFTER_FAILURE_MS, StatsStore } from "../../renderer/src/history/statsStore.ts";

interface Asked {
  readonly chainId: number;
  readonly request: StatsRequest;
  readonly signal: AbortSignal;
  resolve(buckets: readonly BaseFeeStatsBucket[]): void;
  reject(error: Error): void;
}

/** A store whose requests wait for the test to answer them, on a clock the test moves. */
function storeWithHand() {
  const asked: Asked[] = [];
  const clock = { nowMs: 1_000_000 };
  const store = new StatsStore(
    (chainId, request, signal) =>
      new Promise((resolve, reject) => {
        asked.push({ chainId, request, signal, resolve, reject });
      }),
    () => clock.nowMs,
  );
  let changes = 0;
  store.subscribe(() => changes++);
  return { store, asked, clock, changes: () => changes };
}

const DAY: StatsRequest = { kind: "window", window: "24h", buckets: 288 };
const KEY = statsRequestKey(1, DAY);
const ANSWER: readonly BaseFeeStatsBucket[] = [{ start: 0, end: 300, blocks: 0 }];
const settle = () => new Promise((resolve) => setImmediate(resolve));

test("one request for one question: asked once, shared while on its way, asked again only once older than allowed", async () => {
  const { store, asked, clock } = storeWithHand();
  store.refresh(1, DAY, 60_000);
  store.refresh(1, DAY, 60_000);
  assert.equal(asked.length, 1, "a request on its way is not asked again");
  assert.equal(store.read(KEY).loading, true);
  assert.equal(asked[0]!.chainId, 1);
  assert.deepEqual(asked[0]!.request, DAY);
  asked[0]!.resolve(ANSWER);
  await settle();
  const entry = store.read(KEY);
  assert.deepEqual(entry, { buckets: ANSWER, fetchedAt: 1_000_000, heldFromSeconds: undefined, error: undefined, loading: false });
  assert.equal(store.read(KEY), entry, "the same object until it changes");

  clock.nowMs += 59_999;
  store.refresh(1, DAY, 60_000);
  assert.equal(asked.length, 1, "still young enough");
  store.refresh(1, DAY, 10_000);
  assert.equal(asked.length, 2, "a reader that allows less asks again");
  // Another chain, another question.
  store.refresh(2, DAY, 60_000);
  assert.equal(asked.length, 3);
  assert.equal(asked[2]!.chainId, 2);
});

test("a failure keeps the last answer, says why, and is not retried sooner than RETRY_AFTER_FAILURE_MS", async () => {
  const { store, asked, clock } = storeWithHand();
  store.refresh(1, DAY, 30_000);
  asked[0]!.resolve(ANSWER);
  await settle();
  clock.nowMs += 30_000;
  store.refresh(1, DAY, 30_000);
  asked[1]!.reject(new Error("the service answered 503"));
  await settle();
  assert.deepEqual(store.read(KEY), { buckets: ANSWER, fetchedAt: 1_000_000, heldFromSeconds: undefined, error: "the service answered 503", loading: false });
  clock.nowMs += RETRY_AFTER_FAILURE_MS - 1;
  store.refresh(1, DAY, 30_000);
  assert.equal(asked.length, 2, "not again at once");
  clock.nowMs += 1;
  store.refresh(1, DAY, 30_000);
  assert.equal(asked.length, 3);
  asked[2]!.resolve([]);
  await settle();
  assert.equal(store.read(KEY).error, undefined, "a success clears the error");
});

test("cancel ends the requests on their way: a late answer changes nothing, and the next refresh asks again", async () => {
  const { store, asked, changes } = storeWithHand();
  store.refresh(1, DAY, 30_000);
  store.cancel();
  assert.equal(asked[0]!.signal.aborted, true);
  assert.equal(store.read(KEY).loading, false);
  const before = changes();
  asked[0]!.resolve(ANSWER);
  await settle();
  assert.equal(store.read(KEY).buckets, undefined);
  assert.equal(changes(), before);
  store.refresh(1, DAY, 30_000);
  assert.equal(asked.length, 2);
  assert.equal(asked[1]!.signal.aborted, false);
});

test("an answer no reader asked for in FORGET_AFTER_MS is dropped", async () => {
  const { store, asked, clock } = storeWithHand();
  const hour: StatsRequest = { kind: "span", fromSeconds: 0, toSeconds: 3_600, bucketSeconds: 3_600 };
  store.refresh(1, hour, 60_000);
  asked[0]!.resolve(ANSWER);
  await settle();
  clock.nowMs += FORGET_AFTER_MS + 1;
  store.refresh(1, DAY, 60_000);
  assert.equal(store.read(statsRequestKey(1, hour)).buckets, undefined);
});

test("older blocks arriving (a backfill) make the chain's answers asked again, at most every HISTORY_REFRESH_MS, not every page", async () => {
  const { store, asked, clock } = storeWithHand();
  store.refresh(1, DAY, 150_000);
  asked[0]!.resolve(ANSWER);
  await settle();
  clock.nowMs += 1_000;
  store.historyHeld(1, "1000");
  store.refresh(1, DAY, 150_000);
  assert.equal(asked.length, 1, "the answer is only a second old: not yet");
  clock.nowMs += HISTORY_REFRESH_MS;
  store.historyHeld(1, "0");
  store.historyHeld(2, "7");
  store.refresh(1, DAY, 150_000);
  assert.equal(asked.length, 2, "the history reaches further back now: asked again long before the 150 s");
  asked[1]!.resolve(ANSWER);
  await settle();
  clock.nowMs += HISTORY_REFRESH_MS;
  store.historyHeld(1, "0");
  store.refresh(1, DAY, 150_000);
  assert.equal(asked.length, 2, "the same history held: nothing to ask");
});

test("a view that follows the chain: an answer that does not reach its newest block is asked again as blocks arrive, at most every everyMs", async () => {
  const { store, asked, clock } = storeWithHand();
  const upTo = (block: number): readonly BaseFeeStatsBucket[] => [
    { start: 0, end: 300, blocks: 0 },
    {
      start: 300,
      end: 600,
      blocks: 25,
      fromBlock: String(block - 24),
      toBlock: String(block),
      min: "1",
      p10: "1",
      p25: "1",
      p50: "1",
      p75: "1",
      p90: "1",
      max: "1",
    },
  ];
  const follow = (newestBlock: number) => ({ newestBlock: String(newestBlock), everyMs: 2_000 });
  store.refresh(1, DAY, 150_000, follow(100));
  asked[0]!.resolve(upTo(100));
  await settle();
  clock.nowMs += 10_000;
  store.refresh(1, DAY, 150_000, follow(100));
  assert.equal(asked.length, 1, "the answer reaches the newest block: nothing to ask, however old");
  store.refresh(1, DAY, 150_000);
  assert.equal(asked.length, 1, "a reader that does not follow the chain keeps its maximum age");
  store.refresh(1, DAY, 150_000, follow(101));
  assert.equal(asked.length, 2, "a new block: asked again, long before the 150 s");
  asked[1]!.resolve(upTo(101));
  await settle();
  clock.nowMs += 1_999;
  store.refresh(1, DAY, 150_000, follow(102));
  assert.equal(asked.length, 2, "not more often than everyMs");
  clock.nowMs += 1;
  store.refresh(1, DAY, 150_000, follow(102));
  assert.equal(asked.length, 3);
  asked[2]!.resolve([{ start: 0, end: 300, blocks: 0 }]);
  await settle();
  clock.nowMs += 2_000;
  store.refresh(1, DAY, 150_000, follow(102));
  assert.equal(asked.length, 4, "an answer without blocks reaches no block");
});

test("an answer says from when the history was held as it was asked for, so that its reader names the span it covers, not the one held since", async () => {
  const { store, asked, clock } = storeWithHand();
  store.historyHeld(1, "14150", 1_700_000_000);
  store.refresh(1, DAY, 150_000);
  // Older blocks arrive while the answer is on its way: it covers what was held when asked (at least).
  store.historyHeld(1, "0", 1_699_900_000);
  asked[0]!.resolve(ANSWER);
  await settle();
  assert.equal(store.read(KEY).heldFromSeconds, 1_700_000_000);
  clock.nowMs += HISTORY_REFRESH_MS;
  store.refresh(1, DAY, 150_000);
  assert.equal(asked.length, 2);
  assert.equal(store.read(KEY).heldFromSeconds, 1_700_000_000, "the answer held until the next one arrives");
  asked[1]!.resolve(ANSWER);
  await settle();
  assert.equal(store.read(KEY).heldFromSeconds, 1_699_900_000);
  // A chain whose history the store was not told of: unknown.
  store.refresh(2, DAY, 150_000);
  asked[2]!.resolve(ANSWER);
  await settle();
  assert.equal(store.read(statsRequestKey(2, DAY)).heldFromSeconds, undefined);
});

test("the oldest block retimed (its time interpolated anew) is no older block: nothing is asked again for it", async () => {
  const { store, asked, clock } = storeWithHand();
  store.historyHeld(1, "0", 1_700_000_000);
  store.refresh(1, DAY, 150_000);
  asked[0]!.resolve(ANSWER);
  await settle();
  store.historyHeld(1, "0", 1_699_999_990);
  clock.nowMs += HISTORY_REFRESH_MS;
  store.refresh(1, DAY, 150_000);
  assert.equal(asked.length, 1);
  assert.equal(store.read(KEY).heldFromSeconds, 1_700_000_000);
});
