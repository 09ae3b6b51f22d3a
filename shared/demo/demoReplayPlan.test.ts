// The demo's history and live pace, replayed through the real core exactly as the service follows the demo chain: the
// chain's history (ChainHistory) with the demo plan's statistics window, the busy state as the service publishes it
// (the current base fee above the window's nearest-rank p90: the badge and the tray colour), and the desktop's
// built-in busy/calm alert rules with the default notification settings (the rule engine). The demo node reports each block's own base fee as the
// next one (its blocks use exactly their gas target; test/integration/demoReplay.test.ts checks that on the real
// node), so that is the current base fee here too.
import assert from "node:assert/strict";
import { test } from "node:test";
import { loadAlertRules } from "../alerts/loadAlertRules.ts";
import { notificationSettingsSchema } from "../config/settings.ts";
import { STARTING, stepRule, type RuleState } from "../core/alerts/ruleEngine.ts";
import { ChainHistory } from "../core/history/chainHistory.ts";
import { parseWindowSpec, type WindowSpec } from "../core/history/duration.ts";
import { statsWindowOf } from "../service/chainPlan.ts";
import { demoHistory } from "./demoHistory.ts";
import { DEMO_REPLAY, demoReplaySeries, replayedBaseFeeWei } from "./demoReplayPlan.ts";
import { loadMainnetBaseFees } from "./mainnetBaseFees.ts";
import { loadTimedMainnetBlocks } from "./timedMainnetBlocks.ts";

const MINUTE_MS = 60_000;
/** "Every few minutes": the longest stretch of demo time with no change of the badge, or none of the hysteresis. */
const MAX_QUIET_MS = 5 * MINUTE_MS;
const ROUNDS = 3;
const START_SECONDS = 1_800_000_000;

const timed = loadTimedMainnetBlocks();
const series = demoReplaySeries(timed);
const history = demoHistory(timed, START_SECONDS);
/** The statistics window the demo chain is followed with, as the service resolves it from the demo's plan. */
const DEMO_PLAN = {
  chainId: 31337,
  name: "demo",
  rpcUrls: [],
  blockTimeMs: DEMO_REPLAY.blockIntervalMs,
  statsWindowBlocks: DEMO_REPLAY.statsWindowBlocks,
};
const DEMO_WINDOW = statsWindowOf(DEMO_PLAN);
/** The demo chain's built-in busy and calm rules, as the service makes them from the default notification settings. */
const BUILT_IN_RULES = loadAlertRules([], [DEMO_PLAN], notificationSettingsSchema.parse({})).rules;

interface DemoTimeline {
  /** Per head (the history's newest, then one per live block): demo time in ms, the badge, the hysteresis' state. */
  readonly steps: ReadonlyArray<{ atMs: number; busy: boolean; hysteresis: "busy" | "normal" }>;
  /** Demo times of the notifications the built-in busy/calm rules would show (their cooldown included). */
  readonly alertsAtMs: readonly number[];
}

/**
 * The demo as the service sees it over `liveBlocks` live blocks. `heldBlocks`: how much of the history the service
 * holds (all of it once the backfill has run; the feed's first 500 blocks before).
 */
function replayThroughCore(liveBlocks: number, options: { window?: WindowSpec; heldBlocks?: number } = {}): DemoTimeline {
  const chain = new ChainHistory({ window: options.window ?? DEMO_WINDOW, horizonSeconds: 7 * 86_400, blockTimeMs: DEMO_REPLAY.blockIntervalMs });
  const states = new Map<string, RuleState>(BUILT_IN_RULES.map((rule) => [rule.id, STARTING]));
  let lastDeliveredAtMs: number | undefined;
  const steps: Array<DemoTimeline["steps"][number]> = [];
  const alertsAtMs: number[] = [];
  const head = history.baseFeesWei.length - 1;
  const from = Math.max(0, history.baseFeesWei.length - (options.heldBlocks ?? history.baseFeesWei.length));
  chain.write(
    {
      firstBlock: BigInt(from),
      baseFeesWei: history.baseFeesWei.slice(from),
      anchors: history.timestamps.slice(from).map((timestamp, i) => ({ block: BigInt(from + i), timestamp })),
    },
    START_SECONDS,
  );
  for (let live = 0; live <= liveBlocks; live++) {
    const block = BigInt(head + live);
    const atMs = live * DEMO_REPLAY.blockIntervalMs;
    if (live > 0) {
      const timestamp = START_SECONDS + atMs / 1_000;
      chain.write(
        { firstBlock: block, baseFeesWei: [replayedBaseFeeWei(series, DEMO_REPLAY.preloadBlocks + live - 1)], anchors: [{ block, timestamp }] },
        timestamp,
      );
    }
    const currentBaseFeeWei = chain.baseFeeAt(block)!;
    const { busyThresholdWei } = chain.windowStats()!;
    for (const rule of BUILT_IN_RULES) {
      const observation = { block, baseFeeWei: currentBaseFeeWei, thresholdWei: busyThresholdWei, atMs, paused: false };
      const step = stepRule(rule, states.get(rule.id)!, observation, lastDeliveredAtMs);
      states.set(rule.id, step.state);
      if (step.deliver) {
        lastDeliveredAtMs = atMs;
        alertsAtMs.push(atMs);
      }
    }
    const busyRule = BUILT_IN_RULES.find((rule) => rule.builtIn === "busy")!;
    steps.push({ atMs, busy: currentBaseFeeWei > busyThresholdWei, hysteresis: states.get(busyRule.id)!.phase === "firing" ? "busy" : "normal" });
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

test("the badge and the hysteresis do the same whether the service holds the whole history or only the feed's first 500 blocks", () => {
  const beforeBackfill = replayThroughCore(ROUNDS * DEMO_REPLAY.blocks, { heldBlocks: DEMO_REPLAY.preloadBlocks });
  assert.deepEqual(beforeBackfill, timeline, "the 500-block window never reaches the backfilled blocks");
});

test("the default 24-hour window would leave the demo calm: the replayed morning sits under the two days' 90th percentile", (t) => {
  const firstHour = replayThroughCore((MINUTE_MS * 60) / DEMO_REPLAY.blockIntervalMs, { window: parseWindowSpec("24h")! });
  const busySteps = firstHour.steps.filter((step) => step.busy).length;
  t.diagnostic(`with a 24 h window: ${busySteps} busy heads of ${firstHour.steps.length}, ${firstHour.alertsAtMs.length} notifications in the first hour`);
  assert.equal(busySteps, 0);
  assert.deepEqual(firstHour.alertsAtMs, []);
});
