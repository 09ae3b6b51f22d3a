import assert from "node:assert/strict";
import { test } from "node:test";
import type { EndpointStatus } from "../../wire/networkStatus.ts";
import { type FeedView, firstFeedReport, nextFeedReport } from "./nextFeedReport.ts";

const status = (state: EndpointStatus["state"], extra: Partial<EndpointStatus> = {}): EndpointStatus => ({
  url: "http://127.0.0.1:9",
  transport: "http",
  state,
  active: state === "ok",
  ...extra,
});

const view = (extra: Partial<FeedView> = {}): FeedView => ({
  blocks: [],
  newestBlock: undefined,
  nextBaseFeeWei: undefined,
  nextBlobBaseFeeWei: undefined,
  recentTips: [],
  newDataAt: undefined,
  phase: "syncing",
  endpoints: [status("unknown")],
  anchors: [],
  callCounts: [],
  ...extra,
});

test("the first report: syncing, no data, the endpoints as configured, nothing changed, all frozen", () => {
  const first = firstFeedReport(1, [status("unknown")]);
  assert.deepEqual(first, {
    chainId: 1,
    blocks: [],
    newestBlock: undefined,
    nextBaseFeeWei: undefined,
    nextBlobBaseFeeWei: undefined,
    recentTips: [],
    newDataAt: undefined,
    phase: "syncing",
    endpoints: [status("unknown")],
    changed: { blocks: false, health: false },
    anchors: [],
    callCounts: [],
  });
  assert.ok(Object.isFrozen(first) && Object.isFrozen(first.changed) && Object.isFrozen(first.endpoints) && Object.isFrozen(first.endpoints[0]));
});

test("what changed: blocks when blocks were read or the next base fee moved, health when the phase or an endpoint's status did", () => {
  const first = firstFeedReport(1, [status("unknown")]);
  const blocks = [{ firstBlock: 1n, baseFeesWei: [1n, 2n, 3n] }];
  const ok = nextFeedReport(first, view({ blocks, newestBlock: 3n, newDataAt: 10, phase: "ok", endpoints: [status("ok")] }))!;
  assert.deepEqual(ok.changed, { blocks: true, health: true });
  assert.deepEqual(ok.blocks, blocks);
  const anchored = nextFeedReport(
    ok,
    view({ newestBlock: 3n, newDataAt: 10, phase: "ok", endpoints: [status("ok")], anchors: [{ block: 3n, timestamp: 36 }] }),
  )!;
  assert.deepEqual(anchored.changed, { blocks: false, health: false }, "only a header was seen");
  assert.deepEqual(anchored.blocks, []);
  assert.equal(anchored.endpoints, ok.endpoints, "unchanged statuses are the same object");
  const next = nextFeedReport(anchored, view({ newestBlock: 3n, nextBaseFeeWei: 4n, newDataAt: 30, phase: "ok", endpoints: [status("ok")] }))!;
  assert.deepEqual(next.changed, { blocks: true, health: false }, "the next base fee moved");
  const retryMoved = nextFeedReport(
    next,
    view({ newestBlock: 3n, nextBaseFeeWei: 4n, newDataAt: 30, phase: "ok", endpoints: [status("ok", { retryAt: 5 })] }),
  )!;
  assert.deepEqual(retryMoved.changed, { blocks: false, health: true }, "any field of a status counts");
  const degraded = nextFeedReport(
    retryMoved,
    view({ newestBlock: 3n, nextBaseFeeWei: 4n, newDataAt: 30, phase: "degraded", endpoints: retryMoved.endpoints }),
  )!;
  assert.deepEqual(degraded.changed, { blocks: false, health: true });
  assert.ok(Object.isFrozen(degraded) && Object.isFrozen(degraded.changed) && Object.isFrozen(degraded.blocks));
});

test("nothing to tell: no report", () => {
  const first = firstFeedReport(1, [status("unknown")]);
  assert.equal(nextFeedReport(first, view()), undefined);
});
