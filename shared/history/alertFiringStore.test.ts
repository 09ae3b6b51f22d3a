import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { test } from "node:test";
import type { StoredFiring } from "../core/alerts/alertFiringLog.ts";
import { HistoryStore } from "./historyStore.ts";
import { HistoryStoreError } from "./historyStoreErrors.ts";

const temporaryFile = () => join(mkdtempSync(join(tmpdir(), "gasfees-firings-")), "history.sqlite");
const GWEI = 1_000_000_000n;
const T0 = Date.UTC(2026, 0, 1);

const firingOf = (overrides: Partial<StoredFiring> = {}): StoredFiring => ({
  ruleId: "cheap-eth",
  cooldownGroup: "cheap-eth",
  atMs: T0,
  block: 19_000_000n,
  baseFeeWei: 7_912_345_678n,
  thresholdWei: 8n * GWEI,
  ...overrides,
});

const byRule = (firings: readonly StoredFiring[]) => [...firings].sort((a, b) => a.ruleId.localeCompare(b.ruleId));

test("a recorded firing outlives the store, exactly; a rule keeps its newest, and an older firing changes nothing", () => {
  const file = temporaryFile();
  const store = HistoryStore.open(file);
  assert.deepEqual(store.alertFirings.load(), []);
  // A threshold past SQLite's 64-bit integers (a user may write any Gwei value) and the built-in pair's shared group.
  const huge = firingOf({ ruleId: "absurd", cooldownGroup: "absurd", thresholdWei: 2n ** 80n + 1n, baseFeeWei: 0n });
  const busy = firingOf({ ruleId: "busy:1", cooldownGroup: "busy-calm:1", atMs: T0 + 1, block: 2n ** 53n - 1n });
  store.alertFirings.record(firingOf());
  store.alertFirings.record(huge);
  store.alertFirings.record(busy);
  store.close();

  const reopened = HistoryStore.open(file);
  assert.deepEqual(byRule(reopened.alertFirings.load()), byRule([firingOf(), huge, busy]));
  const newer = firingOf({ atMs: T0 + 60_000, block: 19_000_005n, baseFeeWei: 7n * GWEI });
  reopened.alertFirings.record(newer);
  reopened.alertFirings.record(firingOf({ atMs: T0 + 30_000, block: 19_000_002n }));
  assert.deepEqual(
    reopened.alertFirings.load().find((firing) => firing.ruleId === "cheap-eth"),
    newer,
  );
  reopened.close();
});

test("two stores on one file (the desktop app and npm run serve) see each other's firings, the newest kept", () => {
  const file = temporaryFile();
  const app = HistoryStore.open(file);
  const serve = HistoryStore.open(file);
  app.alertFirings.record(firingOf({ atMs: T0 + 5_000 }));
  serve.alertFirings.record(firingOf({ atMs: T0 + 1_000 }));
  assert.deepEqual(serve.alertFirings.load(), [firingOf({ atMs: T0 + 5_000 })]);
  app.close();
  serve.close();
});

test("a history file from before firings were kept opens with its blocks, and gets the table", () => {
  const file = temporaryFile();
  const first = HistoryStore.open(file);
  first.write(1, 100n, { baseFeesWei: [1n, 2n, 3n] });
  first.close();
  // Such a file is this schema without the alert_firings table (nor price_points, kept since): the same application
  // id, version and chain tables.
  const older = new DatabaseSync(file);
  older.exec("DROP TABLE alert_firings; DROP TABLE price_points");
  assert.deepEqual(
    older
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
      .all()
      .map((row) => row.name),
    ["chains", "chunks_1", "records_1"],
  );
  older.close();

  const store = HistoryStore.open(file);
  assert.deepEqual(
    [...store.load(1)].map((run) => [run.firstBlock, [...run.baseFeesWei]]),
    [[100n, [1n, 2n, 3n]]],
  );
  assert.deepEqual(store.alertFirings.load(), []);
  store.alertFirings.record(firingOf());
  store.close();
  const reopened = HistoryStore.open(file);
  assert.deepEqual(reopened.alertFirings.load(), [firingOf()]);
  assert.deepEqual(reopened.pricePoints.load(1, 0), [], "the price points' table is made too");
  reopened.close();
});

test("a row no gasfees wrote is left out, and the others still load", () => {
  const file = temporaryFile();
  const store = HistoryStore.open(file);
  store.alertFirings.record(firingOf());
  const other = new DatabaseSync(file);
  other.exec(
    "INSERT INTO alert_firings VALUES ('by-hand', 'by-hand', 1, 5, '7.9', '8'), ('negative', 'negative', -1, 5, '1', '2'), ('text-time', 'text-time', 'soon', 5, '1', '2')",
  );
  other.close();
  assert.deepEqual(store.alertFirings.load(), [firingOf()]);
  store.close();
});

test("a closed store's firings are refused with a HistoryStoreError saying to open it again", () => {
  const store = HistoryStore.open(temporaryFile());
  store.close();
  const closed = (error: unknown) => error instanceof HistoryStoreError && /is closed: open it again/.test(error.message);
  assert.throws(() => store.alertFirings.load(), closed);
  assert.throws(() => store.alertFirings.record(firingOf()), closed);
});
