import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { FeeMultiset } from "./feeMultiset.ts";
import { lowerBound } from "./sortedBigints.ts";

const ascending = (values: readonly bigint[]) => [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

type Step =
  { readonly op: "insert"; readonly value: bigint } | { readonly op: "remove"; readonly value: bigint } | { readonly op: "reset"; readonly values: bigint[] };

// Few distinct values make duplicates (and removals of held values) common; a wide range makes them rare.
const fee = fc.oneof(fc.bigInt({ min: 0n, max: 8n }), fc.bigInt({ min: 0n, max: 2n ** 63n - 1n }));
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 12, arbitrary: fee.map((value) => ({ op: "insert" as const, value })) },
  { weight: 6, arbitrary: fee.map((value) => ({ op: "remove" as const, value })) },
  { weight: 1, arbitrary: fc.array(fee, { maxLength: 300 }).map((values) => ({ op: "reset" as const, values })) },
);

test("every query equals the same query on one sorted array, through any inserts, removals and resets", () => {
  fc.assert(
    fc.property(fc.integer({ min: 2, max: 9 }), fc.array(step, { minLength: 50, maxLength: 3_000 }), fee, (maxBucket, steps, probe) => {
      const multiset = new FeeMultiset(maxBucket);
      let model: bigint[] = [];
      for (const s of steps) {
        if (s.op === "insert") {
          multiset.insert(s.value);
          model.splice(lowerBound(model, s.value), 0, s.value);
        } else if (s.op === "remove") {
          const at = model.indexOf(s.value);
          assert.equal(multiset.remove(s.value), at >= 0);
          if (at >= 0) model.splice(at, 1);
        } else {
          multiset.reset(s.values);
          model = ascending(s.values);
        }
      }
      assert.equal(multiset.size, model.length);
      assert.deepEqual(
        Array.from({ length: model.length }, (_, rank) => multiset.at(rank)),
        model,
      );
      assert.equal(multiset.min, model[0]);
      assert.equal(multiset.max, model.at(-1));
      assert.equal(multiset.countBelow(probe), model.filter((value) => value < probe).length);
      assert.equal(multiset.countAtMost(probe), model.filter((value) => value <= probe).length);
    }),
    { numRuns: 100 },
  );
});

test("a rank outside the values held is refused, not answered with undefined", () => {
  const multiset = new FeeMultiset();
  assert.throws(() => multiset.at(0), RangeError);
  multiset.insert(5n);
  assert.equal(multiset.at(0), 5n);
  assert.throws(() => multiset.at(1), RangeError);
  assert.throws(() => multiset.at(-1), RangeError);
  assert.equal(multiset.remove(6n), false);
  assert.equal(multiset.remove(5n), true);
  assert.equal(multiset.size, 0);
  assert.equal(multiset.min, undefined);
});
