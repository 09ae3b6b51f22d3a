import assert from "node:assert/strict";
import { test } from "node:test";
import { ArrivalDelay } from "./arrivalDelay.ts";

const SPACING_MS = 1600;
const found = (foundMs: number, sentMs: number, missedMs?: number, onFixedInterval = false) => ({ foundMs, sentMs, missedMs, onFixedInterval });

test("the first block found sets the delay to when it was found", () => {
  const delay = new ArrivalDelay();
  assert.equal(delay.delayMs, undefined);
  delay.learn(found(900, 880), SPACING_MS);
  assert.equal(delay.delayMs, 900);
});

test("found by the poll at the delay: earlier, by an eighth until a block was first missed, then by a 128th", () => {
  const delay = new ArrivalDelay();
  delay.learn(found(900, 880), SPACING_MS);
  delay.learn(found(902, 900), SPACING_MS);
  assert.equal(delay.delayMs, 900 - SPACING_MS / 8);
  // Missed at the delay (700), found 200 ms later: later by a sixteenth, never past the moment it was found.
  delay.learn(found(902, 900, 700), SPACING_MS);
  assert.equal(delay.delayMs, 700 + SPACING_MS / 16);
  delay.learn(found(802, 800), SPACING_MS);
  assert.equal(delay.delayMs, 800 - SPACING_MS / 128);
});

test("missed at the delay: later by a sixteenth, or past the miss when it came later, but never past the find", () => {
  const delay = new ArrivalDelay();
  delay.learn(found(500, 480), SPACING_MS);
  delay.learn(found(1200, 1190, 1000), SPACING_MS);
  assert.equal(delay.delayMs, 1000, "past the miss at 1000 (more than a sixteenth later)");
  delay.learn(found(1030, 1020, 1000), SPACING_MS);
  assert.equal(delay.delayMs, 1030, "a sixteenth later would pass the find at 1030");
  // A miss before the delay (a poll for an earlier slot) says nothing of this block's delay.
  delay.learn(found(1040, 1030, 400), SPACING_MS);
  assert.equal(delay.delayMs, 1030 - SPACING_MS / 128);
});

test("found by a poll well after the delay (the feed was busy): nothing learned", () => {
  const delay = new ArrivalDelay();
  delay.learn(found(500, 480), SPACING_MS);
  delay.learn(found(1500, 1490), SPACING_MS);
  assert.equal(delay.delayMs, 500);
});

test("found before the delay by a poll on a fixed interval, or a block time before it: the delay drops to that find at once", () => {
  const delay = new ArrivalDelay();
  delay.learn(found(4000, 3990), SPACING_MS);
  delay.learn(found(1200, 1190, undefined, true), SPACING_MS);
  assert.equal(delay.delayMs, 1200);
  // A find by a timed poll less than a block time before the delay (a block of a later slot than aimed at) moves it
  // only a step; one a block time or more before it (an endpoint that lagged has caught up) drops it to the find.
  const timed = new ArrivalDelay();
  timed.learn(found(4000, 3990), SPACING_MS);
  timed.learn(found(3010, 3000), SPACING_MS);
  assert.equal(timed.delayMs, 4000 - SPACING_MS / 8);
  timed.learn(found(1200, 1190), SPACING_MS);
  assert.equal(timed.delayMs, 1200);
});

test("after 32 blocks in a row found at the delay, it seeks earlier again, from an eighth (the delay may have drifted)", () => {
  const delay = new ArrivalDelay();
  delay.learn(found(1000, 990), SPACING_MS);
  delay.learn(found(1100, 1090, 1000), SPACING_MS);
  let before = delay.delayMs!;
  assert.equal(before, 1100);
  for (let i = 0; i < 32; i++) {
    delay.learn(found(before + 2, before), SPACING_MS);
    assert.equal(delay.delayMs, before - SPACING_MS / 128);
    before = delay.delayMs!;
  }
  delay.learn(found(before + 2, before), SPACING_MS);
  assert.equal(delay.delayMs, before - SPACING_MS / 8);
});

test("seeking earlier, the step doubles with each block found at the delay, up to a quarter of the spacing", () => {
  const delay = new ArrivalDelay();
  delay.learn(found(4000, 3990), SPACING_MS);
  const steps: number[] = [];
  for (let i = 0; i < 4; i++) {
    const before = delay.delayMs!;
    delay.learn(found(before + 2, before), SPACING_MS);
    steps.push(before - delay.delayMs!);
  }
  assert.deepEqual(steps, [SPACING_MS / 8, SPACING_MS / 4, SPACING_MS / 4, SPACING_MS / 4]);
});
