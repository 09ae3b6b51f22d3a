import assert from "node:assert/strict";
import { test } from "node:test";
import { LaneBackoff } from "./laneBackoff.ts";

test("a lane's failures in a row double its wait up to the longest; being served starts it again", () => {
  const lane = new LaneBackoff({ initialMs: 100, maxMs: 350 });
  assert.equal(lane.waitMs(0), 0);
  assert.deepEqual([lane.failed(0), lane.failed(0), lane.failed(0), lane.failed(0)], [100, 200, 350, 350]);
  assert.equal(lane.waitMs(100), 250);
  assert.equal(lane.failuresInARow, 4);
  lane.served();
  assert.equal(lane.waitMs(100), 0);
  assert.equal(lane.failed(1000), 100);
});
