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
  const log: PricePointLog = { append: (_chainId, points) => written.push(...points.map((point) => point.time)), load: () => [{ time: 5, value: "7" }] };
  const points = new PricePoints(1, 100, 50, log);
  for (const time of [10, 20, 150, 160]) points.add({ time, value: String(time) });
  assert.deepEqual(
    points.range(0, 1000).map((point) => point.time),
    [20, 150, 160],
  );
  assert.deepEqual(written, [10, 20, 150, 160]);
});

test("rounds read back merge in at their times, a time held stays as it is, and the horizon and cap apply", () => {
  const written: number[][] = [];
  const log: PricePointLog = { append: (_chainId, points) => written.push(points.map((point) => point.time)), load: () => [] };
  const points = new PricePoints(1, 100, 500, log);
  points.add({ time: 500, value: "3" });
  points.addPast([
    { time: 450, value: "2" },
    { time: 500, value: "999" },
    { time: 300, value: "0.5" },
    { time: 390, value: "1" },
  ]);
  assert.deepEqual(points.range(0, 1000), [
    { time: 390, value: "1" }, // in force at the horizon's start (400): 300 is older than needed
    { time: 450, value: "2" },
    { time: 500, value: "3" },
  ]);
  assert.deepEqual(written, [[500], [450, 300, 390]], "the log gets each new time once, the read-back ones in one call");
  points.addPast([{ time: 450, value: "7" }]);
  assert.equal(written.length, 2, "nothing new: the log is not called");
});

test("a log that cannot keep the rounds read back keeps none of them in memory either", () => {
  const log: PricePointLog = {
    append: (_chainId, points) => {
      if (points.length > 1) throw new Error("disk full");
    },
    load: () => [],
  };
  const points = new PricePoints(1, 100, 500, log);
  points.add({ time: 500, value: "3" });
  assert.throws(
    () =>
      points.addPast([
        { time: 450, value: "2" },
        { time: 420, value: "1" },
      ]),
    /disk full/,
  );
  assert.deepEqual(points.range(0, 1000), [{ time: 500, value: "3" }]);
});

test("what is worth reading back: after the newest point the log held at start, or back to the horizon's start", () => {
  const log = (times: number[]): PricePointLog => ({ append: () => {}, load: () => times.map((time) => ({ time, value: "1" })) });
  assert.deepEqual(new PricePoints(1, 100, 1000, undefined).pastWanted(1000), { horizonStartS: 900, afterS: undefined });
  assert.deepEqual(new PricePoints(1, 100, 1000, log([880, 950])).pastWanted(1000), { horizonStartS: 900, afterS: 950 });
  assert.deepEqual(
    new PricePoints(1, 100, 1000, log([850])).pastWanted(1000),
    { horizonStartS: 900, afterS: undefined },
    "held before the horizon: read back to it",
  );
  const points = new PricePoints(1, 100, 1000, log([950]));
  points.add({ time: 990, value: "2" });
  assert.equal(points.pastWanted(1000).afterS, 950, "a point read since start does not move it");
});
