import assert from "node:assert/strict";
import { test } from "node:test";
import { MAX_HEADER_AHEAD_SECONDS } from "../../core/history/blockAnchor.ts";
import { BlockAnchors, HELD_ANCHORS } from "./blockAnchors.ts";

const NOW_MS = 1_700_000_000_000;
const NOW_S = NOW_MS / 1000;

test("headers seen become anchors once, handed out frozen in the order seen, then none until new ones come", () => {
  const anchors = new BlockAnchors();
  assert.deepEqual(anchors.takeUnreported(), []);
  assert.equal(anchors.offer({ block: 100n, timestamp: NOW_S - 24 }, NOW_MS), "new");
  assert.equal(anchors.offer({ block: 102n, timestamp: NOW_S }, NOW_MS), "new");
  assert.equal(anchors.offer({ block: 101n, timestamp: NOW_S - 12 }, NOW_MS), "new", "an older block between two held ones");
  assert.equal(anchors.offer({ block: 102n, timestamp: NOW_S }, NOW_MS), "seen");
  const taken = anchors.takeUnreported();
  assert.deepEqual(taken, [
    { block: 100n, timestamp: NOW_S - 24 },
    { block: 102n, timestamp: NOW_S },
    { block: 101n, timestamp: NOW_S - 12 },
  ]);
  assert.ok(Object.isFrozen(taken) && taken.every((anchor) => Object.isFrozen(anchor)));
  assert.deepEqual(anchors.takeUnreported(), []);
  assert.deepEqual(anchors.newest, { block: 102n, timestamp: NOW_S });
});

test("a timestamp more than 15 minutes ahead of the local clock is refused; up to it is taken", () => {
  const anchors = new BlockAnchors();
  assert.equal(anchors.offer({ block: 1n, timestamp: NOW_S + MAX_HEADER_AHEAD_SECONDS + 1 }, NOW_MS), "refused");
  assert.equal(anchors.offer({ block: 1n, timestamp: NOW_S + MAX_HEADER_AHEAD_SECONDS }, NOW_MS), "new");
  assert.deepEqual(anchors.takeUnreported(), [{ block: 1n, timestamp: NOW_S + MAX_HEADER_AHEAD_SECONDS }]);
});

test("timestamps that would decrease as block numbers grow are refused, on either side; equal ones are taken", () => {
  const anchors = new BlockAnchors();
  anchors.offer({ block: 10n, timestamp: NOW_S - 100 }, NOW_MS);
  anchors.offer({ block: 20n, timestamp: NOW_S - 50 }, NOW_MS);
  anchors.takeUnreported();
  assert.equal(anchors.offer({ block: 21n, timestamp: NOW_S - 51 }, NOW_MS), "refused", "newer block, older time");
  assert.equal(anchors.offer({ block: 9n, timestamp: NOW_S - 99 }, NOW_MS), "refused", "older block, newer time");
  assert.equal(anchors.offer({ block: 15n, timestamp: NOW_S - 101 }, NOW_MS), "refused", "between, before the lower");
  assert.equal(anchors.offer({ block: 15n, timestamp: NOW_S - 49 }, NOW_MS), "refused", "between, after the upper");
  assert.equal(anchors.offer({ block: 21n, timestamp: NOW_S - 50 }, NOW_MS), "new", "same second as the block before (Arbitrum's)");
  assert.equal(anchors.offer({ block: 15n, timestamp: NOW_S - 75 }, NOW_MS), "new");
  assert.deepEqual(anchors.takeUnreported(), [
    { block: 21n, timestamp: NOW_S - 50 },
    { block: 15n, timestamp: NOW_S - 75 },
  ]);
});

test("timestamps that are not whole non-negative seconds are refused", () => {
  const anchors = new BlockAnchors();
  for (const timestamp of [-1, 1.5, Number.NaN, 2 ** 53]) assert.equal(anchors.offer({ block: 1n, timestamp }, NOW_MS), "refused", String(timestamp));
  assert.deepEqual(anchors.takeUnreported(), []);
});

test("a held block with another timestamp was re-mined: it replaces the held one and drops the held blocks above it", () => {
  const anchors = new BlockAnchors();
  for (const [block, timestamp] of [
    [10n, NOW_S - 36],
    [11n, NOW_S - 24],
    [12n, NOW_S - 12],
  ] as const)
    anchors.offer({ block, timestamp }, NOW_MS);
  anchors.takeUnreported();
  assert.equal(anchors.offer({ block: 11n, timestamp: NOW_S - 2 }, NOW_MS), "new");
  assert.deepEqual(anchors.newest, { block: 11n, timestamp: NOW_S - 2 }, "block 12 of the abandoned branch is gone");
  assert.equal(anchors.offer({ block: 12n, timestamp: NOW_S - 1 }, NOW_MS), "new", "the new branch's block 12 is not checked against the old one's");
  assert.equal(anchors.offer({ block: 11n, timestamp: NOW_S - 40 }, NOW_MS), "refused", "re-mined, but before block 10");
  assert.deepEqual(anchors.takeUnreported(), [
    { block: 11n, timestamp: NOW_S - 2 },
    { block: 12n, timestamp: NOW_S - 1 },
  ]);
});

test("what is held and what waits for a report are bounded, the newest kept", () => {
  const anchors = new BlockAnchors();
  const count = 3 * HELD_ANCHORS;
  for (let i = 0; i < count; i++) anchors.offer({ block: BigInt(i), timestamp: NOW_S - count + i }, NOW_MS);
  const taken = anchors.takeUnreported();
  assert.equal(taken.length, HELD_ANCHORS);
  assert.equal(taken[taken.length - 1]!.block, BigInt(count - 1));
  // Block 0 is no longer held, so it is offered again: against the oldest block held, its timestamp is too late.
  assert.equal(anchors.offer({ block: 0n, timestamp: NOW_S }, NOW_MS), "refused");
});
