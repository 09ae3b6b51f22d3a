import assert from "node:assert/strict";
import { test } from "node:test";
import { BlockWindow } from "../core/fees/blockWindow.ts";
import { snapshotOf } from "../core/fees/feeSnapshot.ts";
import type { EndpointStatus } from "../wire/networkStatus.ts";
import { firstFeedReport, nextFeedReport } from "./nextFeedReport.ts";

const status = (state: EndpointStatus["state"], extra: Partial<EndpointStatus> = {}): EndpointStatus => ({
  url: "http://127.0.0.1:9",
  transport: "http",
  state,
  active: state === "ok",
  ...extra,
});

function snapshot(newestFeeWei: bigint) {
  const window = new BlockWindow(500);
  window.write(1n, [1n, 2n, newestFeeWei]);
  return snapshotOf(1, window, undefined)!;
}

test("the first report: syncing, no data, the endpoints as configured, nothing changed, all frozen", () => {
  const first = firstFeedReport(1, [status("unknown")]);
  assert.deepEqual(first, {
    chainId: 1,
    snapshot: undefined,
    confirmedAt: undefined,
    phase: "syncing",
    endpoints: [status("unknown")],
    changed: { blocks: false, health: false },
  });
  assert.ok(Object.isFrozen(first) && Object.isFrozen(first.changed) && Object.isFrozen(first.endpoints) && Object.isFrozen(first.endpoints[0]));
});

test("what changed: blocks when the snapshot is another object, health when the phase or an endpoint's status is", () => {
  const first = firstFeedReport(1, [status("unknown")]);
  const data = snapshot(3n);
  const ok = nextFeedReport(first, { snapshot: data, confirmedAt: 10, phase: "ok", endpoints: [status("ok")] })!;
  assert.deepEqual(ok.changed, { blocks: true, health: true });
  const confirmed = nextFeedReport(ok, { snapshot: data, confirmedAt: 20, phase: "ok", endpoints: [status("ok")] })!;
  assert.deepEqual(confirmed.changed, { blocks: false, health: false }, "only confirmedAt moved");
  assert.equal(confirmed.confirmedAt, 20);
  assert.equal(confirmed.endpoints, ok.endpoints, "unchanged statuses are the same object");
  const newBlock = nextFeedReport(confirmed, { snapshot: snapshot(4n), confirmedAt: 30, phase: "ok", endpoints: [status("ok")] })!;
  assert.deepEqual(newBlock.changed, { blocks: true, health: false });
  const retryMoved = nextFeedReport(newBlock, { snapshot: newBlock.snapshot, confirmedAt: 30, phase: "ok", endpoints: [status("ok", { retryAt: 5 })] })!;
  assert.deepEqual(retryMoved.changed, { blocks: false, health: true }, "any field of a status counts");
  const degraded = nextFeedReport(retryMoved, { snapshot: newBlock.snapshot, confirmedAt: 30, phase: "degraded", endpoints: retryMoved.endpoints })!;
  assert.deepEqual(degraded.changed, { blocks: false, health: true });
  assert.ok(Object.isFrozen(degraded) && Object.isFrozen(degraded.changed));
});

test("nothing changed: no report", () => {
  const first = firstFeedReport(1, [status("unknown")]);
  assert.equal(nextFeedReport(first, { snapshot: undefined, confirmedAt: undefined, phase: "syncing", endpoints: [status("unknown")] }), undefined);
});
