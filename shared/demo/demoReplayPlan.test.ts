// Why the demo replays the blocks it does, computed from the shipped data, and its pace, replayed through the real core.
//
// The stretch: in the timed mainnet data, the real base fee crosses its own 24-hour busy threshold (the nearest-rank
// 90th percentile of the 24 hours up to each block) on both days the data has a day before, and the live replay starts
// at such a crossing. What the demo chain holds then (demoHistory: the real day before the replay as its last 24
// hours) gives the same: within the first minute's live blocks the current base fee is above the 24 h busy threshold
// at some blocks and at or below it at others, whatever part of the history the service has backfilled by then.
//
// The pace, exactly as the service follows the demo chain: the chain's history (ChainHistory) with the demo plan's
// statistics window, the busy state as the service publishes it (the current base fee above the window's nearest-rank
// p90: the badge and the tray colour), and the desktop's built-in busy/calm alert rules with the default notification
// settings (the rule engine). The demo node reports each block's own base fee as the next one (its blocks use exactly
// their gas target; test/integration/demoReplay.test.ts checks that on the real node), so that is the current base fee.
import assert from "node:assert/strict";
import { test } from "node:test";
import { loadAlertRules } from "../alerts/loadAlertRules.ts";
import { DEMO_CHAIN_NAME, demoChainPlan } from "../cli/demoChain.ts";
import { notificationSettingsSchema } from "../config/settings.ts";
import { STARTING, stepRule, type RuleState } from "../core/alerts/ruleEngine.ts";
import { HISTORY_BLOCKS } from "../core/fees/historyLength.ts";
import { ChainHistory } from "../core/history/chainHistory.ts";
import { parseWindowSpec } from "../core/history/duration.ts";
import { DEFAULT_STATS_WINDOW, statsWindowOf } from "../service/chainPlan.ts";
import { demoHistory } from "./demoHistory.ts";
import { DEMO_REPLAY, demoReplaySeries, replayedBaseFeeWei } from "./demoReplayPlan.ts";
import { loadMainnetBaseFees } from "./mainnetBaseFees.ts";
import { loadTimedMainnetBlocks } from "./timedMainnetBlocks.ts";

const MINUTE_MS = 60_000;
const DAY_S = 86_400;
/** "Every few minutes": the longest stretch of demo time with no change of the badge, or none of the hysteresis. */
const MAX_QUIET_MS = 5 * MINUTE_MS;
const ROUNDS = 3;
const START_SECONDS = 1_800_000_000;
/** The live blocks of the demo's first minute (one every 2 s). */
const FIRST_MINUTE_BLOCKS = MINUTE_MS / DEMO_REPLAY.blockIntervalMs;
/** The service's backfill pages (eth_feeHistory's 1,024 blocks): what it may hold at a moment is the feed's 500 and whole pages. */
const BACKFILL_PAGE_BLOCKS = 1_024;

const timed = loadTimedMainnetBlocks();
const series = demoReplaySeries(timed);
const history = demoHistory(timed, START_SECONDS);
/** The demo chain's plan, as --demo hands it to the service. */
const DEMO_PLAN = demoChainPlan([]);
const DEMO_WINDOW = statsWindowOf(DEMO_PLAN);
/** The demo chain's built-in busy and calm rules, as the service makes them from the default notification settings. */
const BUILT_IN_RULES = loadAlertRules([], [DEMO_PLAN], notificationSettingsSchema.parse({})).rules;

const byValue = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0);
/** The contract's nearest rank: p(q) = sorted[ceil(q/100 * N) - 1], here written out on its own. */
const p90Of = (fees: readonly bigint[]) => [...fees].sort(byValue)[Math.ceil((90 * fees.length) / 100) - 1]!;
const gwei = (wei: bigint) => (Number(wei) / 1e9).toFixed(1);
const marks = (busy: readonly boolean[]) => busy.map((b) => (b ? "B" : ".")).join("");

/**
 * Per block of the timed data that has 24 hours of data before it: whether its base fee is above the nearest-rank p90
 * of the blocks timed within 24 hours up to it (itself included, as the service's window holds the newest block).
 * A sorted copy of the window slides along: each block goes in, those older than 24 hours come out.
 */
function realCrossings(): Array<{ block: bigint; timestamp: number; baseFeeWei: bigint; p90Wei: bigint; busy: boolean }> {
  const sorted: bigint[] = [];
  const place = (fee: bigint) => {
    let low = 0;
    let high = sorted.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (sorted[mid]! < fee) low = mid + 1;
      else high = mid;
    }
    return low;
  };
  const rows = [];
  let oldest = 0;
  for (let i = 0; i < timed.baseFeesWei.length; i++) {
    const fee = timed.baseFeesWei[i]!;
    sorted.splice(place(fee), 0, fee);
    while (timed.timestamps[oldest]! < timed.timestamps[i]! - DAY_S) sorted.splice(place(timed.baseFeesWei[oldest++]!), 1);
    if (timed.timestamps[i]! - timed.timestamps[0]! < DAY_S) continue;
    const p90Wei = sorted[Math.ceil((90 * sorted.length) / 100) - 1]!;
    rows.push({ block: timed.firstBlock + BigInt(i), timestamp: timed.timestamps[i]!, baseFeeWei: fee, p90Wei, busy: fee > p90Wei });
  }
  return rows;
}

/**
 * The demo chain at its `live`th live block (1 is the first): its blocks' fees and times (the history, then the live
 * blocks, 2 s apart from the history's end), of which the service holds the newest `heldBlocks` of the history and
 * every live block; the current base fee (the newest block's own) and the 24 h window's nearest-rank p90 over what is
 * held: blocks timed within 24 hours of the newest, never fewer than the newest 500, or every block held while the
 * held history is shorter than that (CONTRACT.md, Window and statistics).
 */
function demoChainAt(live: number, heldBlocks = history.baseFeesWei.length): { currentWei: bigint; p90Wei: bigint } {
  const from = history.baseFeesWei.length - heldBlocks;
  const fees = [...history.baseFeesWei.slice(from)];
  const times = [...history.timestamps.slice(from)];
  for (let k = 1; k <= live; k++) {
    fees.push(replayedBaseFeeWei(series, DEMO_REPLAY.preloadBlocks + k - 1));
    times.push(START_SECONDS + (k * DEMO_REPLAY.blockIntervalMs) / 1000);
  }
  const newestTime = times[times.length - 1]!;
  const byTime = times.findIndex((time) => time >= newestTime - DAY_S);
  const first = Math.min(byTime, fees.length - HISTORY_BLOCKS);
  return { currentWei: fees[fees.length - 1]!, p90Wei: p90Of(fees.slice(Math.max(0, first))) };
}

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
function replayThroughCore(liveBlocks: number, options: { heldBlocks?: number } = {}): DemoTimeline {
  const chain = new ChainHistory({ window: DEMO_WINDOW, horizonSeconds: 7 * DAY_S, blockTimeMs: DEMO_REPLAY.blockIntervalMs });
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

/** How much of the history the service may hold during its backfill, from the feed's first 500 blocks until it reaches 24 hours back, then all. */
function heldDuringBackfill(): number[] {
  const head = history.timestamps.length - 1;
  const held: number[] = [];
  for (let blocks = HISTORY_BLOCKS; blocks < history.timestamps.length; blocks += BACKFILL_PAGE_BLOCKS) {
    held.push(blocks);
    if (history.timestamps[head]! - history.timestamps[head - blocks + 1]! >= DAY_S) break;
  }
  return [...held, history.timestamps.length];
}

const timeline = replayThroughCore(ROUNDS * DEMO_REPLAY.blocks);
const endMs = timeline.steps[timeline.steps.length - 1]!.atMs;
const badgeChanges = changesOf(timeline.steps, (step) => step.busy);
const hysteresisChanges = changesOf(timeline.steps, (step) => step.hysteresis);

test("the demo replays real mainnet blocks 17,190,792 to 17,191,351 from the shipped file, live from 17,191,292", () => {
  const all = loadMainnetBaseFees();
  assert.equal(series.firstBlock, 17_190_792n);
  assert.equal(series.baseFeesWei.length, 560);
  assert.deepEqual(series.baseFeesWei, all.baseFeesWei.slice(10_792, 10_792 + 560));
  assert.equal(replayedBaseFeeWei(series, 0), 75_105_648_972n);
  assert.equal(replayedBaseFeeWei(series, DEMO_REPLAY.preloadBlocks), 92_883_124_373n, "the first live block replays mainnet 17,191,292");
  assert.equal(replayedBaseFeeWei(series, 559), 122_518_926_703n);
  assert.equal(replayedBaseFeeWei(series, 560), 75_105_648_972n, "starts over at the end");
});

test("the demo chain is followed with the service's default 24-hour statistics window, under a plain name", () => {
  assert.deepEqual(DEMO_WINDOW, parseWindowSpec(DEFAULT_STATS_WINDOW));
  assert.equal(DEFAULT_STATS_WINDOW, "24h");
  assert.equal(DEMO_PLAN.statsWindow, undefined);
  assert.equal(DEMO_PLAN.statsWindowBlocks, undefined);
  assert.equal(DEMO_PLAN.name, DEMO_CHAIN_NAME);
  assert.doesNotMatch(DEMO_PLAN.name, /[0-9]/, "no block numbers in the name: the page's numbers are the demo chain's own");
});

test("in the timed data the real base fee crosses its own 24 h busy threshold on both days, and the live replay starts at such a crossing", (t) => {
  const rows = realCrossings();
  const days = new Map<string, typeof rows>();
  for (const row of rows) {
    const day = new Date(row.timestamp * 1_000).toISOString().slice(0, 10);
    days.set(day, [...(days.get(day) ?? []), row]);
  }
  assert.deepEqual([...days.keys()], ["2023-05-04", "2023-05-05"], "the data has a day before it from 4 May 13:49 UTC on");
  for (const [day, dayRows] of days) {
    // Stretches of at least 10 blocks (2 minutes of mainnet) with no more than 2 calm blocks inside.
    const stretches: string[] = [];
    let start: number | undefined;
    let calm = 0;
    dayRows.forEach((row, i) => {
      if (row.busy) {
        start ??= i;
        calm = 0;
      } else if (start !== undefined && ++calm > 2) {
        const end = i - calm;
        if (end - start + 1 >= 10) stretches.push(`${dayRows[start]!.block}-${dayRows[end]!.block}`);
        start = undefined;
        calm = 0;
      }
    });
    const busy = dayRows.filter((row) => row.busy).length;
    t.diagnostic(`${day}: ${busy} of ${dayRows.length} blocks above their 24 h p90; stretches: ${stretches.join(" ")}`);
    assert.ok(stretches.length > 0, `${day} has stretches above the 24 h busy threshold`);
  }
  const firstLive = series.firstBlock + BigInt(DEMO_REPLAY.preloadBlocks);
  const firstMinute = rows.filter((row) => row.block >= firstLive && row.block < firstLive + BigInt(FIRST_MINUTE_BLOCKS));
  t.diagnostic(
    `mainnet ${firstLive} on, the first minute's blocks: ${marks(firstMinute.map((row) => row.busy))} ` +
      `(fees ${gwei(firstMinute[0]!.baseFeeWei)} to ${gwei(firstMinute.at(-1)!.baseFeeWei)} Gwei, 24 h p90 ${gwei(firstMinute[0]!.p90Wei)} Gwei)`,
  );
  assert.equal(firstMinute.length, FIRST_MINUTE_BLOCKS);
  assert.ok(!firstMinute[0]!.busy, "the replay starts calm");
  assert.ok(firstMinute.filter((row) => row.busy).length >= FIRST_MINUTE_BLOCKS / 2, "then crosses its 24 h busy threshold and mostly stays above it");
});

test("within the first minute's blocks the replayed current base fee is above the 24 h p90 of what the demo chain holds, and calm at times, whatever the backfill has brought", (t) => {
  const lives = Array.from({ length: FIRST_MINUTE_BLOCKS }, (_, i) => i + 1);
  const heldSteps = heldDuringBackfill();
  const busyHeld = heldSteps.map((heldBlocks) =>
    lives.map((live) => {
      const { currentWei, p90Wei } = demoChainAt(live, heldBlocks);
      return currentWei > p90Wei;
    }),
  );
  heldSteps.forEach((heldBlocks, i) => t.diagnostic(`holding ${heldBlocks} blocks of the history: ${marks(busyHeld[i]!)}`));
  const whole = busyHeld[busyHeld.length - 1]!;
  const head = demoChainAt(1);
  t.diagnostic(`whole history: 24 h p90 ${gwei(head.p90Wei)} Gwei at the first live block`);
  assert.ok(whole.some(Boolean), "above the busy threshold within the first minute");
  assert.ok(
    whole.some((busy) => !busy),
    "at or below it at other blocks of the first minute",
  );
  const busyWhateverHeld = lives.filter((_, i) => busyHeld.every((busy) => busy[i]));
  t.diagnostic(`busy at live blocks ${busyWhateverHeld.join(", ")} whatever is held`);
  assert.ok(busyWhateverHeld.length >= 3, "Busy shows within the first minute however far the backfill has come");
});

test("through the core: within the first 60 s of the demo the badge shows Normal and Busy, and the busy/calm hysteresis changes", (t) => {
  const firstMinute = timeline.steps.filter((step) => step.atMs < MINUTE_MS);
  t.diagnostic(`badge in the first minute: ${marks(firstMinute.map((step) => step.busy))}`);
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
  // The core agrees with the model of the chain above, block by block.
  assert.deepEqual(
    firstMinute.slice(1).map((step) => step.busy),
    Array.from({ length: firstMinute.length - 1 }, (_, i) => {
      const { currentWei, p90Wei } = demoChainAt(i + 1);
      return currentWei > p90Wei;
    }),
  );
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

test("through the core: the badge shows Busy within the first minute whatever part of the history the service holds", (t) => {
  for (const heldBlocks of heldDuringBackfill()) {
    const firstMinute = replayThroughCore(FIRST_MINUTE_BLOCKS, { heldBlocks }).steps;
    t.diagnostic(`holding ${heldBlocks} blocks: ${marks(firstMinute.map((step) => step.busy))}`);
    assert.ok(
      firstMinute.some((step) => step.busy),
      `Busy within the first minute holding ${heldBlocks} blocks`,
    );
  }
});
