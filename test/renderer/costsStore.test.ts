import assert from "node:assert/strict";
import { test } from "node:test";
import { CostsStore, costsStateKey } from "../../renderer/src/costs/costsStore.ts";
import type { Costs } from "../../shared/wire/costs.ts";

const COSTS = { currency: "USD" } as Costs;

test("the costs are asked again when the chain's block or price changes, not more often than asked", async () => {
  let now = 0;
  const asked: number[] = [];
  const store = new CostsStore(
    (chainId) => {
      asked.push(chainId);
      return Promise.resolve(COSTS);
    },
    () => now,
  );
  const priced = { newestBlock: "10", price: { value: "3000", updatedAt: 100 }, priceProblem: null };
  store.refresh(1, costsStateKey(priced), 1000);
  await Promise.resolve();
  assert.equal(store.read(1).costs, COSTS);
  now = 5000;
  store.refresh(1, costsStateKey(priced), 1000);
  assert.equal(asked.length, 1, "the same block and price: not asked again");
  // The price goes stale without a new block: asked again.
  store.refresh(1, costsStateKey({ ...priced, price: null, priceProblem: "stale" }), 1000);
  assert.equal(asked.length, 2);
  await Promise.resolve();
  // Too soon after the last ask: not yet, even for a new block.
  now = 5500;
  store.refresh(1, costsStateKey({ ...priced, newestBlock: "11" }), 1000);
  assert.equal(asked.length, 2);
  now = 6000;
  store.refresh(1, costsStateKey({ ...priced, newestBlock: "11" }), 1000);
  assert.equal(asked.length, 3);
});

test("a failed ask keeps the last answer, says why, and waits before the next", async () => {
  let now = 0;
  let fail = false;
  const store = new CostsStore(
    () => (fail ? Promise.reject(Object.assign(new Error("the service answered 503"), { code: "NO_DATA" })) : Promise.resolve(COSTS)),
    () => now,
  );
  store.refresh(1, "a", 0);
  await Promise.resolve();
  fail = true;
  now = 1;
  store.refresh(1, "b", 0);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(store.read(1).costs, COSTS);
  assert.equal(store.read(1).error, "the service answered 503");
  assert.equal(store.read(1).errorCode, "NO_DATA");
  now = 5000;
  fail = false;
  store.refresh(1, "c", 0);
  assert.equal(store.read(1).error, "the service answered 503", "within 10 s of a failure: not asked");
  now = 11_000;
  store.refresh(1, "c", 0);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(store.read(1).error, undefined);
});
