// A chain's past given with its plan (the demo's weeks of mainnet samples): kept when the service starts, before any
// feed starts, only where no summary of the hour is held: in the real history store through the service's store writer
// for a chain kept in the file, in the chain's book alone (its publication) for one made anew at each start.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { summarizeHour } from "../core/outlook/summarizeHour.ts";
import type { HourlySummary } from "../core/outlook/hourlySummary.ts";
import { HistoryStore } from "../history/historyStore.ts";
import { silentLogger } from "../log/logger.ts";
import { firstFeedReport } from "../rpc/feed/nextFeedReport.ts";
import type { ChainPlan } from "./chainPlan.ts";
import { type Feed, FeeService } from "./feeService.ts";

const folder = mkdtempSync(join(tmpdir(), "gasfees-past-"));
after(() => rmSync(folder, { recursive: true, force: true }));

const HOUR = 3_600;
const T0 = 1_800_000_000 - (1_800_000_000 % HOUR);
const hour = (index: number, gwei: bigint) => summarizeHour(T0 + index * HOUR, [gwei * 10n ** 9n], true);
const past: HourlySummary[] = [hour(0, 30n), hour(1, 31n), hour(2, 32n), hour(4, 34n)];

const plan = (chainId: number, persistHistory: boolean): ChainPlan => ({
  chainId,
  name: `Chain ${chainId}`,
  rpcUrls: ["http://127.0.0.1:1"],
  blockTimeMs: 2000,
  persistHistory,
  pastHourlySummaries: past,
});

/**
 * Starts a service on `store` (or none) whose feeds do nothing but note what the chain's publication held when they
 * started.
 */
function startService(store: HistoryStore | undefined, plans: readonly ChainPlan[]) {
  const heldAtFeedStart = new Map<number, readonly HourlySummary[]>();
  const service: FeeService = new FeeService(plans, {
    logger: silentLogger,
    ...(store === undefined ? {} : { store }),
    createFeed: (options): Feed => ({
      chainId: options.chainId,
      report: firstFeedReport(options.chainId, []),
      start: () => heldAtFeedStart.set(options.chainId, service.get(options.chainId)!.hourlySummaries),
      stop: () => Promise.resolve(),
    }),
  });
  service.start();
  return { service, heldAtFeedStart };
}

const p50s = (summaries: readonly HourlySummary[]) => summaries.map((summary) => [(summary.start - T0) / HOUR, summary.p50 / 10n ** 9n]);

test("the past is written before the feed starts, and a summary the chain holds for an hour is kept, not replaced", async () => {
  const store = HistoryStore.open(join(folder, "kept.sqlite"));
  // The chain's own summary of hour 1, from its blocks (every block of the hour, not sampled).
  store.writeHourlySummaries(7, [summarizeHour(T0 + HOUR, [5n * 10n ** 9n, 6n * 10n ** 9n])]);
  const { service, heldAtFeedStart } = startService(store, [plan(7, true)]);
  await service.stop();
  const held = store.hourlySummaries(7);
  assert.deepEqual(p50s(held), [
    [0, 30n],
    [1, 5n],
    [2, 32n],
    [4, 34n],
  ]);
  assert.equal(held[1]!.sampled, false, "the chain's own hour");
  assert.equal(held[0]!.sampled, true);
  assert.deepEqual(p50s(heldAtFeedStart.get(7)!), p50s(held), "all there when the feed started");
  assert.deepEqual(p50s(service.get(7)!.hourlySummaries), p50s(held));
  store.close();
});

test("a chain made anew at each start (the demo's) keeps its past in its book alone, never in the file", async () => {
  const store = HistoryStore.open(join(folder, "demo.sqlite"));
  const { service, heldAtFeedStart } = startService(store, [plan(31337, false)]);
  assert.deepEqual(p50s(service.get(31337)!.hourlySummaries), p50s(past));
  assert.deepEqual(p50s(heldAtFeedStart.get(31337)!), p50s(past), "all there when the feed started");
  await service.stop();
  assert.deepEqual(store.hourlySummaries(31337), []);
  store.close();
});

test("without a history file, the past is in the chain's publication from the start", async () => {
  const { service, heldAtFeedStart } = startService(undefined, [plan(9, true)]);
  assert.deepEqual(p50s(heldAtFeedStart.get(9)!), p50s(past));
  await service.stop();
});

test("without a past in its plan, nothing is written for a chain", async () => {
  const store = HistoryStore.open(join(folder, "none.sqlite"));
  const { pastHourlySummaries: _unused, ...bare } = plan(8, true);
  const { service } = startService(store, [bare]);
  await service.stop();
  assert.deepEqual(store.hourlySummaries(8), []);
  store.close();
});
