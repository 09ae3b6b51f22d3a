import assert from "node:assert/strict";
import { test } from "node:test";
import { BlockRhythm } from "./blockRhythm.ts";

const T0 = 1_700_000_000_000;

/** Records headers (block, timestamp in s, seen at ms after T0). */
function rhythmOf(headers: ReadonlyArray<readonly [number, number, number]>): BlockRhythm {
  const rhythm = new BlockRhythm();
  for (const [block, timestamp, seenAfterMs] of headers) rhythm.record({ block: BigInt(block), timestamp }, T0 + seenAfterMs);
  return rhythm;
}

test("nothing is known before two headers, and the timestamps are not trusted before three gaps", () => {
  assert.equal(new BlockRhythm().spacingMs, undefined);
  const two = rhythmOf([
    [1, 100, 0],
    [2, 102, 2000],
  ]);
  assert.equal(two.timestampSpacingMs, 2000);
  assert.equal(two.timed, false);
  assert.equal(two.spacingMs, undefined);
  const four = rhythmOf([
    [1, 100, 0],
    [2, 102, 2000],
    [3, 104, 4000],
    [5, 108, 8000],
  ]);
  assert.equal(four.timed, true);
  assert.equal(four.spacingMs, 2000);
});

test("slots with a missed one are timed; a pause (a node idle since genesis, a computer asleep) does not spoil the spacing", () => {
  const rhythm = rhythmOf([
    [0, 40, 0],
    // Five minutes later, five blocks on: a pause.
    [5, 100, 300_000],
    [6, 112, 312_000],
    [7, 124, 324_000],
    // A missed slot: 24 s by both clocks.
    [8, 148, 348_000],
    [9, 160, 360_000],
  ]);
  assert.equal(rhythm.timestampSpacingMs, 12_000);
  assert.equal(rhythm.clockSpacingMs, 15_000, "60 s over 4 blocks: the pause left out, the missed slot in");
  assert.equal(rhythm.timed, true);
});

test("blocks closer than a second are not timed by their timestamps (whole seconds)", () => {
  const headers: Array<[number, number, number]> = [];
  for (let i = 0; i < 20; i++) headers.push([i * 4, 100 + i, i * 1000]);
  const rhythm = rhythmOf(headers);
  assert.equal(rhythm.timestampSpacingMs, 250);
  assert.equal(rhythm.timed, false);
  assert.equal(rhythm.spacingMs, 250);
});

test("timestamps at another pace than the clock are not trusted", () => {
  const headers: Array<[number, number, number]> = [];
  for (let i = 0; i < 10; i++) headers.push([i, 1000 + i, i * 300]);
  const rhythm = rhythmOf(headers);
  assert.equal(rhythm.timestampSpacingMs, 1000);
  assert.equal(rhythm.clockSpacingMs, 300);
  assert.equal(rhythm.timed, false);
  assert.equal(rhythm.spacingMs, 300);
});

test("irregular spacings are not trusted; only headers newer than the newest count", () => {
  const rhythm = rhythmOf([
    [1, 100, 0],
    [2, 101, 1000],
    [3, 104, 4000],
    [4, 105, 5000],
    [5, 109, 9000],
    [6, 110, 10_000],
    [3, 50, 11_000],
  ]);
  assert.equal(rhythm.timed, false);
  assert.equal(rhythm.timestampSpacingMs, 1000);
});
