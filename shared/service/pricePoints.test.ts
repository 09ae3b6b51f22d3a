import assert from "node:assert/strict";
import { test } from "node:test";
import { priceSourceOf, PricePoints, type PricePointLog, type SourcedPricePoint } from "./pricePoints.ts";

/** A log with only `append` and `load` of its own; removing does nothing. */
const appendOnly = (append: PricePointLog["append"], load: PricePointLog["load"] = () => []): PricePointLog => ({
  append,
  load,
  removeFrom: () => 0,
  remove: () => {},
});

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
  const log = appendOnly(
    (_chainId, points) => written.push(...points.map((point) => point.time)),
    () => [{ time: 5, value: "7" }],
  );
  const points = new PricePoints(1, 100, 50, log);
  for (const time of [10, 20, 150, 160]) points.add({ time, value: String(time) });
  assert.deepEqual(
    points.range(0, 1000).map((point) => point.time),
    [20, 150, 160],
  );
  assert.deepEqual(written, [10, 20, 150, 160]);
});

test("rounds read back merge in at their times, a time held with another value is replaced, and the horizon and cap apply", () => {
  const written: number[][] = [];
  const log = appendOnly((_chainId, points) => written.push(points.map((point) => point.time)));
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
    { time: 500, value: "999" },
  ]);
  assert.deepEqual(written, [[500], [450, 500, 300, 390]], "the log gets each new or changed time, the read-back ones in one call");
  points.addPast([{ time: 450, value: "2" }]);
  assert.equal(written.length, 2, "nothing new: the log is not called");
});

test("a log that cannot keep the rounds read back keeps none of them in memory either", () => {
  const log = appendOnly((_chainId, points) => {
    if (points.length > 1) throw new Error("disk full");
  });
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
  const log = (times: number[]): PricePointLog =>
    appendOnly(
      () => {},
      () => times.map((time) => ({ time, value: "1" })),
    );
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

/** A log in memory that does what the store does: replace at a time, remove by source or time. */
function memoryLog(initial: SourcedPricePoint[] = []) {
  const rows = new Map(initial.map((point) => [point.time, point]));
  const log: PricePointLog = {
    append: (_chainId, points) => points.forEach((point) => rows.set(point.time, point)),
    load: () => [...rows.values()].sort((a, b) => a.time - b.time),
    removeFrom: (_chainId, source) => {
      const gone = [...rows.values()].filter((point) => point.source === source);
      for (const point of gone) rows.delete(point.time);
      return gone.length;
    },
    remove: (_chainId, times) => times.forEach((time) => rows.delete(time)),
  };
  return { log, rows };
}

test("the same round read again with another value replaces the point, in memory and in the log, with its source", () => {
  const { log, rows } = memoryLog();
  const points = new PricePoints(1, 3600, 0, log);
  const liar = priceSourceOf("http://liar.example/key");
  const honest = priceSourceOf("http://honest.example/");
  points.add({ time: 100, value: "18935.1" }, liar);
  points.add({ time: 100, value: "1893.51" }, honest);
  assert.deepEqual(points.range(0, 1000), [{ time: 100, value: "1893.51" }]);
  assert.deepEqual(rows.get(100), { time: 100, value: "1893.51", source: honest });
  assert.equal(points.valueAt(100), "1893.51");
  assert.equal(liar.length, 16);
  assert.doesNotMatch(liar, /key/, "a URL's secret never reaches the file");
});

test("points from an endpoint set aside for lying are forgotten, and the rounds from the oldest of them are wanted again", () => {
  const liar = priceSourceOf("http://liar.example/");
  const honest = priceSourceOf("http://honest.example/");
  const { log, rows } = memoryLog([
    { time: 900, value: "1", source: honest },
    { time: 950, value: "10", source: liar },
    { time: 990, value: "10", source: liar },
  ]);
  const points = new PricePoints(1, 1000, 1000, log);
  assert.equal(points.pastWanted(1000).afterS, 990);
  assert.equal(points.forgetFrom(liar), 2);
  assert.deepEqual(points.range(0, 2000), [{ time: 900, value: "1" }]);
  assert.deepEqual([...rows.keys()], [900], "gone from the log too");
  assert.equal(points.pastWanted(1000).afterS, 900, "read back again from the newest point older than those forgotten");
  assert.equal(points.forgetFrom(liar), 0);
  points.forgetFrom(honest);
  assert.equal(points.pastWanted(1000).afterS, undefined, "none left: read back to the horizon's start");
});

test("a point held dated ahead of the clock is dropped at start, from the log too", () => {
  const { log, rows } = memoryLog([
    { time: 900, value: "1" },
    { time: 1290, value: "2" },
  ]);
  const points = new PricePoints(1, 1000, 1000, log);
  assert.deepEqual(points.range(0, 5000), [{ time: 900, value: "1" }]);
  assert.deepEqual([...rows.keys()], [900]);
  points.add({ time: 1010, value: "3" });
  assert.equal(points.range(0, 5000).length, 2, "the next honest round is kept");
});
