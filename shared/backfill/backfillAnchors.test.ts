import assert from "node:assert/strict";
import { test } from "node:test";
import { BackfillAnchors } from "./backfillAnchors.ts";

const anchor = (block: number, timestamp: number) => ({ block: BigInt(block), timestamp });

test("anchors are kept sorted by block, once each", () => {
  const anchors = new BackfillAnchors([anchor(500, 5000), anchor(100, 1000)]);
  anchors.add(anchor(300, 3000));
  anchors.add(anchor(300, 3000));
  assert.deepEqual(anchors.all, [anchor(100, 1000), anchor(300, 3000), anchor(500, 5000)]);
  assert.deepEqual(anchors.oldest, anchor(100, 1000));
  assert.deepEqual(anchors.newest, anchor(500, 5000));
});

test("an anchor that breaks the order of timestamps, or moves a known one, is a conflict", () => {
  const anchors = new BackfillAnchors([anchor(100, 1000), anchor(500, 5000)]);
  assert.equal(anchors.conflictWith(anchor(300, 3000)), undefined);
  assert.equal(anchors.conflictWith(anchor(300, 1000)), undefined, "equal to an older block's: several blocks may share a second");
  assert.equal(anchors.conflictWith(anchor(300, 5000)), undefined);
  assert.match(anchors.conflictWith(anchor(300, 999)) ?? "", /older than block 100 at 1000/);
  assert.match(anchors.conflictWith(anchor(300, 5001)) ?? "", /newer than block 500 at 5000/);
  assert.match(anchors.conflictWith(anchor(500, 5002)) ?? "", /block 500 has timestamp 5000, not 5002/);
  assert.match(anchors.conflictWith(anchor(50, 1001)) ?? "", /newer than block 100/);
  assert.match(anchors.conflictWith(anchor(900, 4000)) ?? "", /older than block 500/);
  assert.throws(() => new BackfillAnchors([anchor(100, 1000), anchor(200, 900)]), /contradict/);
});

test("the newest anchor before a time", () => {
  const anchors = new BackfillAnchors([anchor(100, 1000), anchor(200, 2000), anchor(201, 2000), anchor(300, 3000)]);
  assert.equal(anchors.newestBefore(1000), undefined);
  assert.deepEqual(anchors.newestBefore(1001), anchor(100, 1000));
  assert.deepEqual(anchors.newestBefore(2001), anchor(201, 2000));
  assert.deepEqual(anchors.newestBefore(9999), anchor(300, 3000));
  assert.equal(new BackfillAnchors().newestBefore(5), undefined);
});
