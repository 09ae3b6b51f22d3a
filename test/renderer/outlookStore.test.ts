import assert from "node:assert/strict";
import { test } from "node:test";
import { type OutlookAnswer, outlookQueryString, type OutlookQuery } from "../../renderer/src/live/outlookRequest.ts";
import { OutlookStore } from "../../renderer/src/outlook/outlookStore.ts";

const NOT_ENOUGH: OutlookAnswer = { kind: "not-enough-history", held: "9d", needed: "14d", message: "not enough history" };
const HORIZONS: OutlookQuery[] = [1, 3, 6, 12, 24].map((withinHours) => ({ withinHours }));
const settle = () => new Promise((resolve) => setImmediate(resolve));

test("each question is asked once per block, not more often than allowed, and a new threshold forgets the old one", async () => {
  let now = 0;
  const asked: string[] = [];
  const store = new OutlookStore(
    (chainId, query) => {
      asked.push(`${chainId}?${outlookQueryString(query)}`);
      return Promise.resolve(NOT_ENOUGH);
    },
    () => now,
  );
  store.refresh(1, "100", HORIZONS, 2000);
  assert.equal(asked.length, 5, "one request per horizon");
  await settle();
  assert.equal(store.read(1, { withinHours: 6 }).answer, NOT_ENOUGH);
  assert.equal(store.read(1, { withinHours: 6 }).block, "100");
  now = 10_000;
  store.refresh(1, "100", HORIZONS, 2000);
  assert.equal(asked.length, 5, "the same block: the answers held are its answers");
  now = 10_500;
  store.refresh(1, "101", HORIZONS, 2000);
  assert.equal(asked.length, 10, "a new block: asked again");
  await settle();
  now = 11_000;
  store.refresh(1, "102", HORIZONS, 2000);
  assert.equal(asked.length, 10, "too soon after the last ask: not yet, even for a new block");
  now = 12_500;
  const withPrice = HORIZONS.map((query) => ({ ...query, threshold: { kind: "gwei" as const, gwei: "8" } }));
  store.refresh(1, "102", withPrice, 2000);
  assert.equal(asked.length, 15);
  assert.equal(asked[14], "1?within=24h&below=8");
  assert.equal(store.read(1, { withinHours: 6 }).answer, undefined, "the question without a price is forgotten");
  // Until the new question's answer arrives, the last one of its horizon stays readable, saying what it answered.
  const meanwhile = store.read(1, withPrice[2]!);
  assert.deepEqual([meanwhile.answer, meanwhile.question, meanwhile.block], [NOT_ENOUGH, "within=6h", "101"]);
  await settle();
  assert.deepEqual([store.read(1, withPrice[2]!).question, store.read(1, withPrice[2]!).block], ["within=6h&below=8", "102"]);
});

test("a failed ask keeps the last answer, says why, and waits before the next", async () => {
  let now = 0;
  let fail = false;
  let asked = 0;
  const store = new OutlookStore(
    () => {
      asked += 1;
      return fail ? Promise.reject(new Error("the service answered 503")) : Promise.resolve(NOT_ENOUGH);
    },
    () => now,
  );
  const query = [{ withinHours: 6 }];
  store.refresh(1, "1", query, 0);
  await settle();
  fail = true;
  now = 1;
  store.refresh(1, "2", query, 0);
  await settle();
  const entry = store.read(1, query[0]!);
  assert.equal(entry.answer, NOT_ENOUGH);
  assert.equal(entry.block, "1");
  assert.equal(entry.error, "the service answered 503");
  fail = false;
  now = 5_000;
  store.refresh(1, "3", query, 0);
  await settle();
  assert.equal(asked, 2, "not asked again within 10 s of a failure");
  now = 12_000;
  store.refresh(1, "3", query, 0);
  await settle();
  assert.deepEqual([store.read(1, query[0]!).block, store.read(1, query[0]!).error], ["3", undefined]);
});
