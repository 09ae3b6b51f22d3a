import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { test } from "node:test";
import { HistoryStore } from "./historyStore.ts";

const temporaryFile = () => join(mkdtempSync(join(tmpdir(), "gasfees-prices-")), "history.sqlite");

test("price points outlive a restart, per chain, led by the one in force at the range's start", () => {
  const file = temporaryFile();
  const store = HistoryStore.open(file);
  store.pricePoints.append(1, [{ time: 100, value: "1893.51" }]);
  store.pricePoints.append(1, [{ time: 200, value: "1900" }]);
  store.pricePoints.append(1, [{ time: 300, value: "2840.265" }]);
  store.pricePoints.append(1, [{ time: 300, value: "2840.265" }]); // the same round again changes nothing
  store.pricePoints.append(137, [{ time: 150, value: "0.71" }]);
  store.close();
  const reopened = HistoryStore.open(file);
  assert.deepEqual(reopened.pricePoints.load(1, 250), [
    { time: 200, value: "1900" },
    { time: 300, value: "2840.265" },
  ]);
  assert.deepEqual(reopened.pricePoints.load(1, 0), [
    { time: 100, value: "1893.51" },
    { time: 200, value: "1900" },
    { time: 300, value: "2840.265" },
  ]);
  assert.deepEqual(reopened.pricePoints.load(137, 1000), [{ time: 150, value: "0.71" }]);
  reopened.close();
});

test("a row no gasfees wrote is left out, and the others still load", () => {
  const file = temporaryFile();
  HistoryStore.open(file).close();
  const db = new DatabaseSync(file);
  db.exec("INSERT INTO price_points (chain_id, time, value) VALUES (1, 10, '1.5'), (1, 20, 'lots'), (1, 30, '-3'), (1, 40, '2')");
  db.close();
  const store = HistoryStore.open(file);
  assert.deepEqual(store.pricePoints.load(1, 0), [
    { time: 10, value: "1.5" },
    { time: 40, value: "2" },
  ]);
  store.close();
});

test("points appended together are kept all or none", () => {
  const file = temporaryFile();
  const store = HistoryStore.open(file);
  const db = new DatabaseSync(file);
  db.exec("CREATE TRIGGER refuse_six AFTER INSERT ON price_points WHEN NEW.time = 6 BEGIN SELECT RAISE(ABORT, 'refused'); END");
  db.close();
  assert.throws(
    () =>
      store.pricePoints.append(1, [
        { time: 5, value: "1" },
        { time: 6, value: "2" },
      ]),
    /price point/,
  );
  assert.deepEqual(store.pricePoints.load(1, 0), [], "the first point went with the second");
  store.pricePoints.append(1, [
    { time: 7, value: "3" },
    { time: 8, value: "4" },
  ]);
  assert.deepEqual(
    store.pricePoints.load(1, 0).map((point) => point.time),
    [7, 8],
  );
  store.close();
});

test("a point read again with another value replaces its row, and an endpoint's points are removed, after a restart too", () => {
  const file = temporaryFile();
  const store = HistoryStore.open(file);
  store.pricePoints.append(1, [
    { time: 100, value: "18935.1", source: "liar" },
    { time: 200, value: "19000", source: "liar" },
    { time: 300, value: "1905", source: "honest" },
  ]);
  store.pricePoints.append(1, [{ time: 100, value: "1893.51", source: "honest" }]);
  store.pricePoints.append(137, [{ time: 100, value: "7.1", source: "liar" }]);
  store.close();
  const reopened = HistoryStore.open(file);
  assert.deepEqual(reopened.pricePoints.load(1, 0), [
    { time: 100, value: "1893.51", source: "honest" },
    { time: 200, value: "19000", source: "liar" },
    { time: 300, value: "1905", source: "honest" },
  ]);
  assert.equal(reopened.pricePoints.removeFrom(1, "liar"), 1);
  assert.deepEqual(
    reopened.pricePoints.load(1, 0).map((point) => point.time),
    [100, 300],
  );
  assert.equal(reopened.pricePoints.load(137, 0).length, 1, "another chain's points stay");
  reopened.pricePoints.remove(1, [300]);
  assert.deepEqual(
    reopened.pricePoints.load(1, 0).map((point) => point.time),
    [100],
  );
  reopened.close();
});

test("a file whose price_points were made before sources were gets the column, its rows kept without one", () => {
  const file = temporaryFile();
  HistoryStore.open(file).close();
  const db = new DatabaseSync(file);
  db.exec("DROP TABLE price_points");
  db.exec("CREATE TABLE price_points (chain_id INTEGER NOT NULL, time INTEGER NOT NULL, value TEXT NOT NULL, PRIMARY KEY (chain_id, time)) WITHOUT ROWID");
  db.exec("INSERT INTO price_points (chain_id, time, value) VALUES (1, 10, '1.5')");
  db.close();
  const store = HistoryStore.open(file);
  assert.deepEqual(store.pricePoints.load(1, 0), [{ time: 10, value: "1.5" }]);
  store.pricePoints.append(1, [{ time: 10, value: "1.6", source: "honest" }]);
  assert.deepEqual(store.pricePoints.load(1, 0), [{ time: 10, value: "1.6", source: "honest" }]);
  store.close();
});
