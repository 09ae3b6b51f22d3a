// The demo's slice and pace, replayed through the real core exactly as the service follows the demo chain: a
// 500-block window (BlockWindow), a snapshot per block (snapshotOf: the badge and the tray colour are its `busy`), and
// the desktop's busy/calm hysteresis with its default settings (BusyAlerts). The demo node reports each block's own base
// fee as the next one (its blocks use exactly their gas target; test/integration/demoReplay.test.ts checks that on the
// real node), so that is the current base fee here too.
import assert from "node:assert/strict";
import { test } from "node:test";
import { alertPolicyOf } from "../alerts/watchBusyAlerts.ts";
import { BusyAlerts } from "../alerts/busyAlerts.ts";
import { notificationSettingsSchema } from "../config/settings.ts";
import { BlockWindow } from "../core/fees/blockWindow.ts";
import { snapshotOf } from "../core/fees/feeSnapshot.ts";
import { DEMO_REPLAY, demoReplaySeries, replayedBaseFeeWei } from "./demoReplayPlan.ts";
import { loadMainnetBaseFees } from "./mainnetBaseFees.ts";

const MINUTE_MS = 60_000;
/** "Every few minutes": the longest stretch of demo time with no change of the badge, or none of the hysteresis. */
const MAX_QUIET_MS = 5 * MINUTE_MS;
const ROUNDS = 3;

interface DemoTimeline {
  /** Per snapshot (the preload's, then one per live block): demo time in ms, the badge, the hysteresis' state. */
  readonly steps: ReadonlyArray<{ atMs: number; busy: boolean; hysteresis: "busy" | "normal" }>;
  /** Demo times of the notifications BusyAlerts would show (its cooldown included). */
  readonly alertsAtMs: readonly number[];
}

function replayThroughCore(liveBlocks: number): DemoTimeline {
  const series = demoReplaySeries();
  const window = new BlockWindow(DEMO_REPLAY.statsWindowBlocks);
  const alerts = new BusyAlerts(alertPolicyOf(notificationSettingsSchema.parse({})));
  const steps: Array<DemoTimeline["steps"][number]> = [];
  const alertsAtMs: number[] = [];
  const preload = Array.from({ length: DEMO_REPLAY.preloadBlocks }, (_, i) => replayedBaseFeeWei(series, i));
  window.write(1n, preload);
  for (let live = 0; live <= liveBlocks; live++) {
    if (live > 0) window.write(BigInt(DEMO_REPLAY.preloadBlocks + live), [replayedBaseFeeWei(series, DEMO_REPLAY.preloadBlocks + live - 1)]);
    const newestFeeWei = window.baseFeesWei[window.size - 1]!;
    const snapshot = snapshotOf(31337, window, newestFeeWei)!;
    const atMs = live * DEMO_REPLAY.blockIntervalMs;
    const alert = alerts.observe({
      chainId: 31337,
      name: "demo",
      blockNumber: snapshot.newestBlock,
      currentBaseFeeWei: snapshot.currentBaseFeeWei,
      busyThresholdWei: snapshot.busyThresholdWei,
      atMs,
    });
    if (alert) alertsAtMs.push(atMs);
    steps.push({ atMs, busy: snapshot.busy, hysteresis: alerts.stateOf(31337) });
  }
  return { steps, alertsAtMs };
}

/** Demo times at which `value` of a step differs from the step before. */
function changesOf<T>(steps: DemoTimeline["steps"], value: (step: DemoTimeline["steps"][number]) => T): number[] {
  return steps.flatMap((step, i) => (i > 0 && value(step) !== value(steps[i - 1]!) ? [step.atMs] : []));
}

function longestQuietMs(changesAtMs: readonly number[], endMs: number): number {
  const marks = [0, ...changesAtMs, endMs];
  return Math.max(...marks.slice(1).map((atMs, i) => atMs - marks[i]!));
}

const timeline = replayThroughCore(ROUNDS * DEMO_REPLAY.blocks);
const endMs = timeline.steps[timeline.steps.length - 1]!.atMs;
const badgeChanges = changesOf(timeline.steps, (step) => step.busy);
const hysteresisChanges = changesOf(timeline.steps, (step) => step.hysteresis);

test("the demo replays real mainnet blocks 17,185,155 to 17,185,814 from the shipped file", () => {
  const all = loadMainnetBaseFees();
  const series = demoReplaySeries(all);
  assert.equal(series.firstBlock, 17_185_155n);
  assert.equal(series.baseFeesWei.length, 660);
  assert.deepEqual(series.baseFeesWei, all.baseFeesWei.slice(5155, 5155 + 660));
  assert.equal(replayedBaseFeeWei(series, 0), 53_513_958_810n);
  assert.equal(replayedBaseFeeWei(series, 659), 60_128_372_760n);
  assert.equal(replayedBaseFeeWei(series, 660), 53_513_958_810n, "starts over at the end");
});

test("within the first 60 s of the demo the badge shows Normal and Busy, and the busy/calm hysteresis changes", (t) => {
  const firstMinute = timeline.steps.filter((step) => step.atMs < MINUTE_MS);
  t.diagnostic(`badge in the first minute: ${firstMinute.map((step) => (step.busy ? "B" : ".")).join("")}`);
  assert.ok(
    firstMinute.some((step) => step.busy),
    "the badge shows Busy",
  );
  assert.ok(
    firstMinute.some((step) => !step.busy),
    "the badge shows Normal",
  );
  assert.ok(
    hysteresisChanges.some((atMs) => atMs < MINUTE_MS),
    `the hysteresis changes state (first change at ${hysteresisChanges[0]} ms)`,
  );
  assert.ok((timeline.alertsAtMs[0] ?? Infinity) < MINUTE_MS, `the first busy notification comes at ${timeline.alertsAtMs[0]} ms`);
});

test("after that, the badge and the hysteresis keep changing every few minutes, round after round", (t) => {
  const perMinute = (changes: readonly number[]) =>
    Array.from({ length: Math.ceil(endMs / MINUTE_MS) }, (_, minute) => changes.filter((atMs) => Math.floor(atMs / MINUTE_MS) === minute).length);
  t.diagnostic(`badge changes per minute: ${perMinute(badgeChanges).join(" ")}`);
  t.diagnostic(`hysteresis changes per minute: ${perMinute(hysteresisChanges).join(" ")}`);
  t.diagnostic(`notifications at minute: ${timeline.alertsAtMs.map((atMs) => (atMs / MINUTE_MS).toFixed(1)).join(", ")}`);
  t.diagnostic(
    `longest without a change: badge ${longestQuietMs(badgeChanges, endMs) / 1000} s, hysteresis ${longestQuietMs(hysteresisChanges, endMs) / 1000} s`,
  );
  assert.ok(longestQuietMs(badgeChanges, endMs) <= MAX_QUIET_MS, `the badge stays unchanged for ${longestQuietMs(badgeChanges, endMs) / 1000} s`);
  assert.ok(
    longestQuietMs(hysteresisChanges, endMs) <= MAX_QUIET_MS,
    `the hysteresis stays unchanged for ${longestQuietMs(hysteresisChanges, endMs) / 1000} s`,
  );
});
