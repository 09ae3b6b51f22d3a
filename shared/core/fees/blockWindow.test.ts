import assert from "node:assert/strict";
import { test } from "node:test";
import { BlockWindow } from "./blockWindow.ts";

test("appends consecutive blocks and keeps only the newest capacity", () => {
  const window = new BlockWindow(3);
  window.write(10n, [100n, 101n]);
  window.write(12n, [102n, 103n]);
  assert.equal(window.oldestBlock, 11n);
  assert.equal(window.newestBlock, 13n);
  assert.deepEqual(window.baseFeesWei, [101n, 102n, 103n]);
});

test("a re-mined block replaces its old base fee, in order", () => {
  const window = new BlockWindow(5);
  window.write(1n, [50n, 40n, 30n]);
  window.write(2n, [45n, 10n]);
  assert.deepEqual(window.baseFeesWei, [50n, 45n, 10n]);
});

test("a range that leaves a gap starts the window afresh rather than hold a gap", () => {
  const window = new BlockWindow(5);
  window.write(1n, [1n, 2n]);
  window.write(10n, [9n]);
  assert.equal(window.oldestBlock, 10n);
  assert.deepEqual(window.baseFeesWei, [9n]);
});

test("blocks older than the window are ignored, so a lagging endpoint cannot erase newer data", () => {
  const window = new BlockWindow(3);
  window.write(10n, [1n, 2n, 3n]);
  window.write(8n, [7n, 7n, 7n]);
  assert.equal(window.oldestBlock, 10n);
  assert.deepEqual(window.baseFeesWei, [7n, 2n, 3n]);
});

test("newest(n) returns the newest n oldest first", () => {
  const window = new BlockWindow(1000);
  window.write(
    0n,
    Array.from({ length: 700 }, (_, i) => BigInt(i)),
  );
  const newest = window.newest(500);
  assert.equal(newest.length, 500);
  assert.equal(newest[0], 200n);
  assert.equal(newest[499], 699n);
});

test("through random writes, each block held has the fee last written for it, within the capacity", () => {
  let seed = 42;
  const random = (limit: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed % limit;
  };
  const window = new BlockWindow(50);
  const written = new Map<bigint, bigint>();
  let next = 0n;
  for (let step = 0; step < 2000; step++) {
    const back = BigInt(random(8));
    const first = next - back < 0n ? 0n : next - back;
    const fees = Array.from({ length: 1 + random(6) }, () => BigInt(random(30)));
    window.write(first, fees);
    next = first + BigInt(fees.length);
    fees.forEach((fee, i) => written.set(first + BigInt(i), fee));
    window.baseFeesWei.forEach((fee, i) => assert.equal(fee, written.get(window.oldestBlock! + BigInt(i))));
    assert.equal(window.newestBlock, next - 1n);
    assert.ok(window.size <= 50);
  }
});

test("negative block numbers or fees are refused", () => {
  const window = new BlockWindow(3);
  assert.throws(() => window.write(-1n, [1n]), /not negative/);
  assert.throws(() => window.write(1n, [-1n]), /cannot be negative/);
  assert.throws(() => new BlockWindow(0), /at least one block/);
});
