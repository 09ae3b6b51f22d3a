import assert from "node:assert/strict";
import { test } from "node:test";
import { PricePoints, type PricePointLog } from "./pricePoints.ts";

test("a point per new round, the same round once; a range is led by the point in force at its start", () => {
  const points = new PricePoints(1, 3600, 0, undefined);
  points.add({ time: 100, value: "1893.51" });
  points.add({ time: 100, value: "1893.51" });
  points.add({ time: 90, value: "1" }); // an older round (another endpoint behind): not a new point
  points.add({ time: 200, value: "2840.265" });
  assert.deepEqual(points.range(150, 1000), [
    { time: 100, value: "1893.51" },
    { time: 200, value: "2840.265" },
  ]);
  assert.deepEqual(points.range(0, 50), []);
  assert.deepEqual(points.range(100, 150), [{ time: 100, value: "1893.51" }]);
});

test("points older than the horizon go, but the one in force at the horizon's start stays; the log gets each new point", () => {
  const written: number[] = [];
  const log: PricePointLog = { append: (_chainId, point) => written.push(point.time), load: () => [{ time: 5, value: "7" }] };
  const points = new PricePoints(1, 100, 50, log);
  for (const time of [10, 20, 150, 160]) points.add({ time, value: String(time) });
  assert.deepEqual(
    points.range(0, 1000).map((point) => point.time),
    [20, 150, 160],
  );
  assert.deepEqual(written, [10, 20, 150, 160]);
});
