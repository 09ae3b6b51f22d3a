import assert from "node:assert/strict";
import { test } from "node:test";
import { DEFAULT_SLICE_MS, MIN_SLICE_MS, SliceQueue, type SlicedJob } from "./outlookSlices.ts";

/** Each slice of the jobs here costs this much of the (fake) clock: a power of two, so that the sums are exact. */
const SLICE_COST_MS = 0.125;

/**
 * A queue on a clock and an event loop of the test's own: `turn(otherWorkMs)` lets the loop's other work (requests,
 * blocks) take that long, then runs the queue's pending turn and says how many slices it ran.
 */
function harness(sliceMs = DEFAULT_SLICE_MS) {
  let nowMs = 1_000;
  const turns: (() => void)[] = [];
  const queue = new SliceQueue(
    (step) => turns.push(step),
    sliceMs,
    () => nowMs,
  );
  let slices = 0;
  const job = (count: number): SlicedJob => ({
    slices: (function* () {
      for (let index = 0; index < count; index++) {
        nowMs += SLICE_COST_MS;
        slices += 1;
        yield;
      }
    })(),
    superseded: () => false,
    dropped: () => assert.fail("not dropped"),
    failed: (error) => assert.fail(String(error)),
  });
  const turn = (otherWorkMs: number): number => {
    nowMs += otherWorkMs;
    const step = turns.shift();
    assert.ok(step !== undefined, "a turn is pending");
    const before = slices;
    step();
    return slices - before;
  };
  return { queue, job, turn, pendingTurns: () => turns.length };
}

const slicesIn = (ms: number) => Math.round(ms / SLICE_COST_MS);

test("the first turn takes the whole slice; on an idle loop the next ones take the shortest, and the work goes on to its end", () => {
  const { queue, job, turn, pendingTurns } = harness();
  queue.push(job(1_000));
  assert.equal(turn(0), slicesIn(DEFAULT_SLICE_MS));
  // Nothing else ran between the turns: the shortest slice, which on a real idle loop is nearly all of its time.
  assert.equal(turn(0), slicesIn(MIN_SLICE_MS));
  assert.equal(turn(0.25), slicesIn(MIN_SLICE_MS));
  let left = 1_000 - slicesIn(DEFAULT_SLICE_MS) - 2 * slicesIn(MIN_SLICE_MS);
  while (pendingTurns() > 0) {
    assert.equal(turn(0), Math.min(left, slicesIn(MIN_SLICE_MS)));
    left -= slicesIn(MIN_SLICE_MS);
  }
  assert.equal(queue.pending, 0);
  assert.ok(left <= 0, "every slice ran");
});

test("under load a turn lasts as long as the other work since the last one: the requests keep about half of the loop", () => {
  const { queue, job, turn } = harness();
  queue.push(job(10_000));
  turn(0);
  // A few requests' worth of work between turns: the jobs take as long, not a whole 3 ms slice after each.
  assert.equal(turn(1), slicesIn(1));
  assert.equal(turn(2), slicesIn(2));
  // However busy the loop, a turn never takes more than the slice: nothing waits behind more than that.
  assert.equal(turn(10), slicesIn(DEFAULT_SLICE_MS));
  assert.equal(turn(0.25), slicesIn(MIN_SLICE_MS));
});

test("a slice of 0 ms runs one step a turn, whatever the loop did meanwhile", () => {
  const { queue, job, turn } = harness(0);
  queue.push(job(5));
  assert.equal(turn(0), 1);
  assert.equal(turn(5), 1);
  assert.equal(turn(0), 1);
});
