import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { loadTimedMainnetBlocks } from "../../demo/timedMainnetBlocks.ts";
import { BlockWindow } from "../fees/blockWindow.ts";
import { nearestRank } from "../fees/percentile.ts";
import { ascending } from "../../../test/support/historyModel.ts";
import type { AlertRule } from "./alertRule.ts";
import { conditionHolds, type RuleObservation, type RuleState, STARTING, stepRule } from "./ruleEngine.ts";

const GWEI = 1_000_000_000n;
const MINUTE_MS = 60_000;
const BLOCK_MS = 12_000;

/** A `below 100 gwei` rule firing on one block and re-arming on one, without cooldown; `overrides` change it. */
function ruleOf(overrides: Partial<AlertRule> = {}): AlertRule {
  return {
    id: "cheap",
    chainId: 1,
    when: "below",
    threshold: { kind: "fixed", wei: 100n * GWEI },
    forBlocks: 1,
    rearmAfterBlocks: 1,
    cooldownMs: 0,
    cooldownGroup: "cheap",
    enabled: true,
    ...overrides,
  };
}

interface Sighting {
  readonly block: number;
  readonly feeGwei: number;
  /** Default 100 gwei; `null`: the rule has no threshold yet. */
  readonly thresholdGwei?: number | null;
  /** Default: one block every 12 s from block 0 at 0 ms. */
  readonly atMs?: number;
  readonly paused?: boolean;
}

function observationOf(sighting: Sighting): RuleObservation {
  const threshold = sighting.thresholdGwei === undefined ? 100 : sighting.thresholdGwei;
  return {
    block: BigInt(sighting.block),
    baseFeeWei: BigInt(sighting.feeGwei) * GWEI,
    thresholdWei: threshold === null ? undefined : BigInt(threshold) * GWEI,
    atMs: sighting.atMs ?? sighting.block * BLOCK_MS,
    paused: sighting.paused ?? false,
  };
}

/**
 * Rules stepped together as the alert service steps them: each rule in turn on every observation, with its cooldown
 * group's newest delivery, which is recorded as soon as a step says `deliver`.
 */
class RuleGroupRun {
  readonly #rules = new Map<string, AlertRule>();
  readonly #states = new Map<string, RuleState>();
  readonly #lastDeliveredAtMs = new Map<string, number>();

  constructor(rules: readonly AlertRule[]) {
    for (const rule of rules) {
      this.#rules.set(rule.id, rule);
      this.#states.set(rule.id, STARTING);
    }
  }

  /** Replaces a rule's settings (enabled, say), keeping its state. */
  change(rule: AlertRule): void {
    this.#rules.set(rule.id, rule);
  }

  state(ruleId: string): RuleState {
    return this.#states.get(ruleId)!;
  }

  /** The ids of the rules that deliver on this observation. */
  observe(observation: RuleObservation): string[] {
    const delivered: string[] = [];
    for (const rule of this.#rules.values()) {
      const step = stepRule(rule, this.#states.get(rule.id)!, observation, this.#lastDeliveredAtMs.get(rule.cooldownGroup));
      this.#states.set(rule.id, step.state);
      if (step.deliver) {
        this.#lastDeliveredAtMs.set(rule.cooldownGroup, observation.atMs);
        delivered.push(rule.id);
      }
    }
    return delivered;
  }

  /** `[ruleId, block]` of every delivery over the sightings, in order. */
  replay(sightings: readonly Sighting[]): Array<[string, number]> {
    return sightings.flatMap((sighting) => this.observe(observationOf(sighting)).map((ruleId): [string, number] => [ruleId, sighting.block]));
  }
}

/** The blocks at which one rule delivers over `feesGwei`, one block each from `firstBlock`, 12 s apart. */
function deliveredBlocks(run: RuleGroupRun, feesGwei: readonly number[], firstBlock = 1): number[] {
  return run.replay(feesGwei.map((feeGwei, index) => ({ block: firstBlock + index, feeGwei }))).map(([, block]) => block);
}

test("`above` holds strictly above the threshold, `below` at or below it", () => {
  assert.equal(conditionHolds({ when: "above" }, 101n, 100n), true);
  assert.equal(conditionHolds({ when: "above" }, 100n, 100n), false);
  assert.equal(conditionHolds({ when: "above" }, 99n, 100n), false);
  assert.equal(conditionHolds({ when: "below" }, 99n, 100n), true);
  assert.equal(conditionHolds({ when: "below" }, 100n, 100n), true);
  assert.equal(conditionHolds({ when: "below" }, 101n, 100n), false);

  assert.deepEqual(deliveredBlocks(new RuleGroupRun([ruleOf({ when: "below" })]), [101, 100]), [2], "a below rule fires at the threshold itself");
  const above = new RuleGroupRun([ruleOf({ id: "dear", when: "above" })]);
  assert.deepEqual(deliveredBlocks(above, [100, 100, 100]), [], "an above rule does not fire at the threshold");
  assert.deepEqual(
    above.observe({ block: 5n, baseFeeWei: 100n * GWEI + 1n, thresholdWei: 100n * GWEI, atMs: 60 * BLOCK_MS, paused: false }),
    ["dear"],
    "one wei above is above",
  );
});

test("fires once on the crossing: a condition that goes on holding says nothing more", () => {
  const run = new RuleGroupRun([ruleOf()]);
  assert.deepEqual(deliveredBlocks(run, [120, 90, 80, 70, 100, 95]), [2]);
  assert.equal(run.state("cheap").phase, "firing");
  // Re-armed by one block above (rearmAfterBlocks 1), it fires again on the next crossing.
  assert.deepEqual(deliveredBlocks(run, [120, 90, 90], 7), [8]);
});

test("fires once its condition held for forBlocks new blocks in a row; a block without it starts the count again", () => {
  const run = new RuleGroupRun([ruleOf({ forBlocks: 3 })]);
  assert.deepEqual(deliveredBlocks(run, [120, 90, 90, 120, 90, 90, 101, 90, 90]), []);
  assert.equal(run.state("cheap").phase, "armed");
  assert.equal(run.state("cheap").holdingRun, 2);
  assert.deepEqual(deliveredBlocks(run, [90, 90, 90], 10), [10]);
});

test("re-arms only once the condition was false for rearmAfterBlocks new blocks in a row", () => {
  const run = new RuleGroupRun([ruleOf({ rearmAfterBlocks: 3 })]);
  assert.deepEqual(deliveredBlocks(run, [120, 90]), [2]);
  // Two blocks above, then one below: not re-armed, so the crossing is not a new one.
  assert.deepEqual(deliveredBlocks(run, [120, 120, 90, 120, 120, 100], 3), []);
  assert.equal(run.state("cheap").phase, "firing");
  // Three above in a row re-arm it; the next block below fires.
  assert.deepEqual(deliveredBlocks(run, [120, 120], 9), []);
  assert.equal(run.state("cheap").phase, "firing");
  assert.deepEqual(deliveredBlocks(run, [120], 11), []);
  assert.equal(run.state("cheap").phase, "armed");
  assert.deepEqual(deliveredBlocks(run, [90], 12), [12]);
});

test("the same block observed again counts nothing, whatever its fee then", () => {
  const run = new RuleGroupRun([ruleOf({ forBlocks: 2, rearmAfterBlocks: 2 })]);
  assert.deepEqual(
    run.replay([
      { block: 1, feeGwei: 120 },
      { block: 2, feeGwei: 90 },
      { block: 2, feeGwei: 90, atMs: 30_000 },
      { block: 2, feeGwei: 80, atMs: 40_000 },
    ]),
    [],
  );
  assert.equal(run.state("cheap").holdingRun, 1);
  assert.deepEqual(run.replay([{ block: 3, feeGwei: 90 }]), [["cheap", 3]]);
  // Firing: one block above, seen three times, is one block, not the two that re-arm the rule.
  assert.deepEqual(
    run.replay([
      { block: 4, feeGwei: 120 },
      { block: 4, feeGwei: 120, atMs: 50_000 },
      { block: 4, feeGwei: 130, atMs: 55_000 },
      { block: 5, feeGwei: 90 },
    ]),
    [],
  );
  assert.equal(run.state("cheap").phase, "firing");
});

test("a block at or below the newest counted (a reorganisation's, or a lagging endpoint's) counts nothing either", () => {
  const run = new RuleGroupRun([ruleOf({ forBlocks: 3 })]);
  assert.deepEqual(
    run.replay([
      { block: 10, feeGwei: 120 },
      { block: 11, feeGwei: 90 },
      { block: 10, feeGwei: 90 },
      { block: 11, feeGwei: 90 },
      { block: 9, feeGwei: 90 },
      { block: 12, feeGwei: 90 },
    ]),
    [],
    "blocks 11 and 12 are two blocks in a row, however often 10 and 11 come again",
  );
  assert.equal(run.state("cheap").lastBlock, 12n);
  assert.deepEqual(run.replay([{ block: 13, feeGwei: 90 }]), [["cheap", 13]]);
});

test("the first usable observation only learns: a condition already true then puts the rule into firing without an alert", () => {
  const run = new RuleGroupRun([ruleOf()]);
  assert.deepEqual(deliveredBlocks(run, [90, 80, 95]), []);
  assert.equal(run.state("cheap").phase, "firing");
  assert.deepEqual(deliveredBlocks(run, [120, 90], 4), [5], "it fires on the next crossing after a re-arm");

  // A rule that starts (new, or after a restart) in the middle of a chain whose fee is already low: no alert either.
  const restarted = new RuleGroupRun([ruleOf({ forBlocks: 3 })]);
  assert.deepEqual(deliveredBlocks(restarted, [90, 90, 90, 90], 19_000_000), []);
  // A condition false at the first observation arms the rule, and the crossing after it fires.
  const armed = new RuleGroupRun([ruleOf()]);
  assert.deepEqual(deliveredBlocks(armed, [120]), []);
  assert.equal(armed.state("cheap").phase, "armed");
  assert.deepEqual(deliveredBlocks(armed, [90], 2), [2]);
});

test("a crossing inside the cooldown is held back and told once when the cooldown ends, if its condition still holds then", () => {
  const run = new RuleGroupRun([ruleOf({ cooldownMs: 10 * MINUTE_MS })]);
  const minuteBlocks = (fromMinute: number, feesGwei: readonly number[]) =>
    run.replay(feesGwei.map((feeGwei, index) => ({ block: fromMinute + index, feeGwei, atMs: (fromMinute + index) * MINUTE_MS })));
  assert.deepEqual(minuteBlocks(0, [120, 90]), [["cheap", 1]]);
  // Re-armed at minute 2, crossing again at 3: inside the cooldown (until minute 11), held back.
  assert.deepEqual(minuteBlocks(2, [120, 90, 90, 90, 90, 90, 90, 90, 90]), []);
  assert.equal(run.state("cheap").pending, true);
  // Told at the first observation at or after the cooldown's end (exactly 10 minutes after the delivery), and once.
  assert.deepEqual(minuteBlocks(11, [90, 90, 80]), [["cheap", 11]]);
  assert.equal(run.state("cheap").pending, false);
});

test("a crossing inside the cooldown that ends (re-arms) before the cooldown does is never told", () => {
  const run = new RuleGroupRun([ruleOf({ cooldownMs: 10 * MINUTE_MS })]);
  const minuteBlocks = (fromMinute: number, feesGwei: readonly number[]) =>
    run.replay(feesGwei.map((feeGwei, index) => ({ block: fromMinute + index, feeGwei, atMs: (fromMinute + index) * MINUTE_MS })));
  assert.deepEqual(minuteBlocks(0, [120, 90]), [["cheap", 1]]);
  assert.deepEqual(minuteBlocks(2, [120, 90, 120]), []);
  assert.equal(run.state("cheap").phase, "armed");
  assert.equal(run.state("cheap").pending, false);
  // The cooldown ends at minute 11 with the fee still high: nothing to tell.
  assert.deepEqual(minuteBlocks(5, [120, 120, 120, 120, 120, 120, 120, 120]), []);
  // A new crossing after the cooldown is told at once.
  assert.deepEqual(minuteBlocks(13, [90]), [["cheap", 13]]);
});

test("a held-back crossing still firing when the cooldown ends is told at its first block whose condition holds", () => {
  const run = new RuleGroupRun([ruleOf({ rearmAfterBlocks: 3, cooldownMs: 10 * MINUTE_MS })]);
  const minuteBlocks = (fromMinute: number, feesGwei: readonly number[]) =>
    run.replay(feesGwei.map((feeGwei, index) => ({ block: fromMinute + index, feeGwei, atMs: (fromMinute + index) * MINUTE_MS })));
  assert.deepEqual(minuteBlocks(0, [120, 90]), [["cheap", 1]]);
  assert.deepEqual(minuteBlocks(2, [120, 120, 120, 90, 90, 90, 90, 90, 120]), [], "crossing at minute 5, held back");
  // Minute 11 ends the cooldown on a block above the threshold (one of fewer than three: still firing), so nothing yet;
  // the next block below tells it.
  assert.deepEqual(minuteBlocks(11, [120, 90, 90]), [["cheap", 12]]);
});

/**
 * The built-in busy/calm pair of a chain as loadAlertRules makes it from the default notification settings: busy after
 * 3 blocks above (or one more than 10 % above), calm after 10 at or below, sharing one cooldown of 15 minutes.
 */
const busy = ruleOf({
  id: "busy:1",
  when: "above",
  forBlocks: 3,
  rearmAfterBlocks: 10,
  atOnceMarginPercent: 10,
  cooldownMs: 15 * MINUTE_MS,
  cooldownGroup: "busy-calm:1",
  builtIn: "busy",
});
const calm = ruleOf({
  id: "calm:1",
  when: "below",
  forBlocks: 10,
  rearmAfterBlocks: 3,
  atOnceMarginPercent: 10,
  cooldownMs: 15 * MINUTE_MS,
  cooldownGroup: "busy-calm:1",
  builtIn: "calm",
});

test("the busy/calm pair over a replayed busy period says exactly busy, then calm once its shared cooldown is over", () => {
  const run = new RuleGroupRun([busy, calm]);
  const fees = [
    // Calm from the start (calm fires silently), with spikes above: two in a row, one 10 % above (not more).
    ...[95, 97, 100, 98, 104, 103, 96, 110, 99, 92],
    // The busy period: three blocks above (block 13 tells busy), then hovering above with dips below shorter than 10.
    ...[101, 105, 108, 112, 99, 100, 115, 120, 118, 97, 96, 95, 94, 93, 92, 91, 90, 130, 125, 121],
    ...[119, 117, 102, 101, 99, 103, 107, 104, 100, 101],
    // Calm again: ten blocks at or below from block 41 (block 50, 7.4 minutes after the busy alert: held back).
    ...[99, 98, 97, 100, 96, 95, 94, 93, 92, 91, 95, 96, 104, 97, 96, 98, 99, 100, 97, 96],
    ...[95, 94, 101, 102, 93, 92, 91, 90, 89, 88, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96],
    ...[96, 97, 98, 99, 100, 99, 98, 97, 96, 95, 94, 93, 92, 91, 90, 89, 88, 87, 86, 85],
  ];
  assert.deepEqual(run.replay(fees.map((feeGwei, index) => ({ block: index + 1, feeGwei }))), [
    ["busy:1", 13],
    // The calm crossing at block 50 is told when the cooldown that began at block 13 ends: 15 minutes = 75 blocks later.
    ["calm:1", 88],
  ]);
});

test("the busy/calm pair takes turns: a crossing that came and went within the cooldown is never told, nor is its end", () => {
  const pair = [
    { ...busy, forBlocks: 1, rearmAfterBlocks: 1, cooldownMs: 10 * MINUTE_MS },
    { ...calm, forBlocks: 1, rearmAfterBlocks: 1, cooldownMs: 10 * MINUTE_MS },
  ];
  const minuteBlocks = (run: RuleGroupRun, feesGwei: readonly number[]) =>
    run.replay(feesGwei.map((feeGwei, minute) => ({ block: minute + 1, feeGwei, atMs: minute * MINUTE_MS })));
  // Busy told at minute 1; calm at 2 (held back by the cooldown), busy again at 3: calm came and went untold, so the
  // user still believes the chain busy, and there is nothing to say when the cooldown ends at 11; calm at 13 is news.
  const fees = [90, 101, 100, 101, 101, 101, 101, 101, 101, 101, 101, 101, 101, 90, 90];
  assert.deepEqual(minuteBlocks(new RuleGroupRun(pair), fees), [
    ["busy:1", 2],
    ["calm:1", 14],
  ]);
  // Two user rules sharing a cooldown group tell a crossing still holding when the cooldown ends (busy again at 11),
  // which holds calm back in its turn.
  const userRules = pair.map(({ builtIn: _builtIn, ...rule }) => rule);
  assert.deepEqual(minuteBlocks(new RuleGroupRun(userRules), fees), [
    ["busy:1", 2],
    ["busy:1", 12],
  ]);
});

test("the busy/calm pair takes turns over two days of real mainnet fees: never busy twice, nor calm twice, in a row", () => {
  // 3-5 May 2023, each block at its real time, against the busy threshold of the demo chain's statistics window: the
  // 90th percentile (nearest rank) of the newest 500 blocks. The fee keeps crossing it for a block or a few.
  const { firstBlock, timestamps, baseFeesWei } = loadTimedMainnetBlocks();
  const window = new BlockWindow(500);
  const run = new RuleGroupRun([busy, calm]);
  const told: Array<{ ruleId: string; atMs: number }> = [];
  baseFeesWei.forEach((baseFeeWei, index) => {
    const block = firstBlock + BigInt(index);
    window.write(block, [baseFeeWei]);
    const atMs = timestamps[index]! * 1000;
    const observation = { block, baseFeeWei, thresholdWei: nearestRank(ascending(window.baseFeesWei), 90), atMs, paused: false };
    for (const ruleId of run.observe(observation)) told.push({ ruleId, atMs });
  });
  assert.ok(told.length >= 40, `${told.length} notifications in two days of a busy threshold crossed every few minutes`);
  const repeats = told.filter((alert, index) => index > 0 && told[index - 1]!.ruleId === alert.ruleId);
  assert.deepEqual(
    repeats.map(({ ruleId, atMs }) => `${ruleId} at ${new Date(atMs).toISOString()}`),
    [],
    "a notification that repeats the previous one: the crossing between them came and went untold, so nothing changed for the user",
  );
  told.forEach((alert, index) => assert.ok(index === 0 || alert.atMs - told[index - 1]!.atMs >= 15 * MINUTE_MS, "15 minutes apart at least"));
});

test("paused observations and an undefined threshold move nothing: no count, no start, no delivery", () => {
  const rule = ruleOf({ forBlocks: 2 });
  const paused = { block: 1n, baseFeeWei: 90n * GWEI, thresholdWei: 100n * GWEI, atMs: 0, paused: true };
  assert.deepEqual(stepRule(rule, STARTING, paused, undefined), { state: STARTING, deliver: false }, "a paused first observation is not the start");
  const noThreshold = { ...paused, paused: false, thresholdWei: undefined };
  assert.deepEqual(stepRule(rule, STARTING, noThreshold, undefined), { state: STARTING, deliver: false });

  const run = new RuleGroupRun([rule]);
  assert.deepEqual(
    run.replay([
      { block: 1, feeGwei: 90, paused: true },
      { block: 2, feeGwei: 90, thresholdGwei: null },
      { block: 3, feeGwei: 120 },
      { block: 4, feeGwei: 90 },
      { block: 5, feeGwei: 90, paused: true },
      { block: 6, feeGwei: 90, thresholdGwei: null },
    ]),
    [],
  );
  assert.deepEqual(run.state("cheap"), {
    phase: "armed",
    lastBlock: 4n,
    holdingRun: 1,
    releasedRun: 0,
    pending: false,
    lastToldAtMs: undefined,
    learnt: false,
  });
  assert.deepEqual(run.replay([{ block: 7, feeGwei: 90 }]), [["cheap", 7]]);

  // A crossing held back by the cooldown is not told while the chain is paused, even after the cooldown.
  const cooling = new RuleGroupRun([ruleOf({ cooldownMs: 10 * MINUTE_MS })]);
  const at = (minute: number) => minute * MINUTE_MS;
  assert.deepEqual(
    cooling.replay([
      { block: 1, feeGwei: 120, atMs: at(0) },
      { block: 2, feeGwei: 90, atMs: at(1) },
      { block: 3, feeGwei: 120, atMs: at(2) },
      { block: 4, feeGwei: 90, atMs: at(3) },
      { block: 5, feeGwei: 90, atMs: at(12), paused: true },
      { block: 6, feeGwei: 90, atMs: at(13), thresholdGwei: null },
      { block: 7, feeGwei: 90, atMs: at(14) },
    ]),
    [
      ["cheap", 2],
      ["cheap", 7],
    ],
  );
});

test("a disabled rule is followed but never delivers; enabled later, it tells of no crossing past", () => {
  const enabled = ruleOf({ cooldownMs: 10 * MINUTE_MS });
  const disabled = { ...enabled, enabled: false };
  const run = new RuleGroupRun([disabled]);
  assert.deepEqual(deliveredBlocks(run, [120, 90, 80]), []);
  assert.equal(run.state("cheap").phase, "firing");
  assert.equal(run.state("cheap").pending, false, "nothing is kept to tell later");
  run.change(enabled);
  assert.deepEqual(deliveredBlocks(run, [85, 70], 4), [], "still the crossing of block 2");
  assert.deepEqual(deliveredBlocks(run, [120, 90], 6), [7], "a crossing after enabling is told");

  // A crossing held back by the cooldown while enabled is dropped by disabling the rule, and not told once enabled again.
  const held = new RuleGroupRun([enabled]);
  assert.deepEqual(deliveredBlocks(held, [120, 90, 120, 90]), [2]);
  assert.equal(held.state("cheap").pending, true);
  held.change(disabled);
  assert.deepEqual(deliveredBlocks(held, [90], 5), []);
  held.change(enabled);
  assert.deepEqual(held.replay([{ block: 6, feeGwei: 90, atMs: 30 * MINUTE_MS }]), []);
});

test("the at-once margin: one block more than the margin above fires an above rule, and re-arms a below rule", () => {
  const thresholdWei = 37_378_956_101n;
  const atMarginWei = (thresholdWei * 11n) / 10n; // +10 %, rounded down (the threshold is no multiple of 10)
  const observe = (block: number, baseFeeWei: bigint) => ({ block: BigInt(block), baseFeeWei, thresholdWei, atMs: block * BLOCK_MS, paused: false });

  const busyRun = new RuleGroupRun([busy]);
  assert.deepEqual(busyRun.observe(observe(1, thresholdWei)), []);
  assert.deepEqual(busyRun.observe(observe(2, atMarginWei)), [], "exactly the margin is one block of three");
  assert.deepEqual(busyRun.observe(observe(3, thresholdWei)), []);
  assert.deepEqual(busyRun.observe(observe(4, atMarginWei + 1n)), ["busy:1"], "one wei beyond it fires at once");
  // Firing, a block far below does not re-arm an above rule at once: it takes rearmAfterBlocks (10).
  assert.deepEqual(busyRun.observe(observe(5, thresholdWei / 2n)), []);
  assert.equal(busyRun.state("busy:1").phase, "firing");

  const calmRun = new RuleGroupRun([ruleOf({ ...calm, cooldownMs: 0 })]);
  assert.deepEqual(calmRun.observe(observe(1, thresholdWei)), [], "starts calm: firing, silently");
  assert.deepEqual(calmRun.observe(observe(2, atMarginWei)), []);
  assert.equal(calmRun.state("calm:1").phase, "firing", "exactly the margin above does not re-arm it");
  assert.deepEqual(calmRun.observe(observe(3, atMarginWei + 1n)), []);
  assert.equal(calmRun.state("calm:1").phase, "armed", "one wei beyond it re-arms it at once");
  // A block far below does not fire a below rule at once: it takes forBlocks (10).
  assert.deepEqual(calmRun.observe(observe(4, 1n)), []);
  assert.equal(calmRun.state("calm:1").phase, "armed");
  for (let block = 5; block < 13; block++) assert.deepEqual(calmRun.observe(observe(block, thresholdWei)), []);
  assert.deepEqual(calmRun.observe(observe(13, thresholdWei)), ["calm:1"]);
});

// Property tests: any rules of one cooldown group, over any sequence of observations of their chain.

/** One observation of the chain, as the scenario generates it: how the block moved since the last, and what was seen. */
interface ScenarioStep {
  /** Mostly +1; 0 (the same block again), a skip, or back (a reorganisation, a lagging endpoint). */
  readonly blockStep: number;
  /**
   * The fee swings between a cheap and a busy stretch (fees mostly at or below 100 gwei, or mostly above) when this
   * (0 to 99) is below the scenario's `swingPercent`.
   */
  readonly swingRoll: number;
  /** How far into its stretch's side the fee lies: 0 to 30 gwei, from 5 gwei on the other side of 100. */
  readonly depthGwei: number;
  readonly thresholdGwei: number | null;
  /** Time goes on between observations (at least 1 ms), as each observation's time is taken when it is made. */
  readonly elapsedMs: number;
  readonly paused: boolean;
  /** Turns this rule (index modulo the rules) on or off before the observation. */
  readonly toggleRule: number | undefined;
}

interface Scenario {
  readonly rules: readonly AlertRule[];
  /** A step's toggle turns every rule on or off (the built-in pair), not one. */
  readonly togglesTogether: boolean;
  readonly firstBlock: number;
  /** How often the fee swings between cheap and busy stretches: from stretches of 2 blocks on average to 50. */
  readonly swingPercent: number;
  readonly steps: readonly ScenarioStep[];
}

const ruleSettingsArbitrary = fc.record({
  when: fc.constantFrom<AlertRule["when"]>("below", "above"),
  forBlocks: fc.integer({ min: 1, max: 5 }),
  rearmAfterBlocks: fc.integer({ min: 1, max: 5 }),
  /**
   * In hundredths of a percent, so that the model compares exactly what the engine rounds to basis points; whole
   * percents as often as not, so that a fee lands exactly on the margin now and then.
   */
  atOnceMarginHundredths: fc.option(
    fc.oneof(
      fc.integer({ min: 0, max: 25 }).map((percent) => percent * 100),
      fc.integer({ min: 0, max: 2500 }),
    ),
    { nil: undefined, freq: 2 },
  ),
  enabled: fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
});

const stepArbitrary: fc.Arbitrary<ScenarioStep> = fc.record({
  blockStep: fc.oneof(
    { weight: 20, arbitrary: fc.constant(1) },
    { weight: 3, arbitrary: fc.constant(0) },
    { weight: 1, arbitrary: fc.integer({ min: 2, max: 4 }) },
    { weight: 1, arbitrary: fc.integer({ min: -4, max: -1 }) },
  ),
  swingRoll: fc.nat(99),
  depthGwei: fc.integer({ min: 0, max: 30 }),
  thresholdGwei: fc.oneof(
    { weight: 12, arbitrary: fc.constant(100) },
    { weight: 4, arbitrary: fc.integer({ min: 90, max: 110 }) },
    { weight: 1, arbitrary: fc.constant(null) },
  ),
  elapsedMs: fc.oneof({ weight: 1, arbitrary: fc.integer({ min: 1, max: 10 }) }, { weight: 6, arbitrary: fc.integer({ min: 1, max: 30_000 }) }),
  paused: fc.oneof({ weight: 12, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  toggleRule: fc.option(fc.nat(2), { nil: undefined, freq: 20 }),
});

const cooldownArbitrary = fc.oneof(
  { weight: 1, arbitrary: fc.constant(0) },
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 10 }).map((halfMinutes) => halfMinutes * 30_000) },
);

const chainArbitrary = fc.record({
  firstBlock: fc.integer({ min: 0, max: 20_000_000 }),
  swingPercent: fc.integer({ min: 2, max: 50 }),
  steps: fc.array(stepArbitrary, { minLength: 1, maxLength: 150, size: "max" }),
});

/** Any one to three user rules of one cooldown group, each turned on or off by itself. */
const anyRulesScenarioArbitrary: fc.Arbitrary<Scenario> = fc
  .record({ ruleSettings: fc.array(ruleSettingsArbitrary, { minLength: 1, maxLength: 3 }), cooldownMs: cooldownArbitrary, chain: chainArbitrary })
  .map(({ ruleSettings, cooldownMs, chain }) => ({
    ...chain,
    togglesTogether: false,
    rules: ruleSettings.map(({ atOnceMarginHundredths, ...settings }, index): AlertRule => ({
      ...settings,
      id: `rule-${index}`,
      chainId: 1,
      threshold: { kind: "fixed", wei: 100n * GWEI },
      cooldownMs,
      cooldownGroup: "group",
      ...(atOnceMarginHundredths === undefined ? {} : { atOnceMarginPercent: atOnceMarginHundredths / 100 }),
    })),
  }));

/**
 * The built-in busy/calm pair as loadAlertRules makes it from any notification settings: each one's hysteresis is the
 * other's entry, one margin, one cooldown; both turned on or off together (notifications on or off, the chain muted).
 */
const builtInPairScenarioArbitrary: fc.Arbitrary<Scenario> = fc
  .record({
    enterAfterBlocks: fc.integer({ min: 1, max: 5 }),
    calmAfterBlocks: fc.integer({ min: 1, max: 12 }),
    enterMarginPercent: fc.integer({ min: 0, max: 25 }),
    cooldownMs: cooldownArbitrary,
    enabled: fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    chain: chainArbitrary,
  })
  .map(({ enterAfterBlocks, calmAfterBlocks, enterMarginPercent, cooldownMs, enabled, chain }) => {
    const shared = { chainId: 1, threshold: { kind: "fixed", wei: 100n * GWEI }, atOnceMarginPercent: enterMarginPercent, cooldownMs, enabled } as const;
    return {
      ...chain,
      togglesTogether: true,
      rules: [
        {
          ...shared,
          id: "busy:1",
          when: "above",
          forBlocks: enterAfterBlocks,
          rearmAfterBlocks: calmAfterBlocks,
          cooldownGroup: "busy-calm:1",
          builtIn: "busy",
        },
        {
          ...shared,
          id: "calm:1",
          when: "below",
          forBlocks: calmAfterBlocks,
          rearmAfterBlocks: enterAfterBlocks,
          cooldownGroup: "busy-calm:1",
          builtIn: "calm",
        },
      ],
    };
  });

const scenarioArbitrary = fc.oneof(anyRulesScenarioArbitrary, builtInPairScenarioArbitrary);

/** The scenario's observations, and each rule's `enabled` at each of them (after that step's toggle). */
function unfold(scenario: Scenario): { observations: RuleObservation[]; enabled: boolean[][] } {
  const observations: RuleObservation[] = [];
  const enabled: boolean[][] = [];
  let block = scenario.firstBlock;
  let atMs = 1_700_000_000_000;
  let busyStretch = false;
  let current = scenario.rules.map((rule) => rule.enabled);
  scenario.steps.forEach((step, index) => {
    if (index > 0) block = Math.max(0, block + step.blockStep);
    atMs += step.elapsedMs;
    if (step.swingRoll < scenario.swingPercent) busyStretch = !busyStretch;
    const feeGwei = busyStretch ? 95 + step.depthGwei : 105 - step.depthGwei;
    if (step.toggleRule !== undefined) {
      const toggled = step.toggleRule % current.length;
      current = current.map((on, ruleIndex) => (scenario.togglesTogether || ruleIndex === toggled ? !on : on));
    }
    enabled.push(current);
    observations.push({
      block: BigInt(block),
      baseFeeWei: BigInt(feeGwei) * GWEI,
      thresholdWei: step.thresholdGwei === null ? undefined : BigInt(step.thresholdGwei) * GWEI,
      atMs,
      paused: step.paused,
    });
  });
  return { observations, enabled };
}

/** What the engine did for one rule at one observation. */
interface EngineStep {
  readonly before: RuleState;
  readonly after: RuleState;
  readonly deliver: boolean;
}

/** The engine over the scenario, each rule turned on or off as the scenario says: `steps[observation][rule]`. */
function runEngine(scenario: Scenario): { observations: RuleObservation[]; steps: EngineStep[][] } {
  const { observations, enabled } = unfold(scenario);
  const run = new RuleGroupRun(scenario.rules);
  const steps = observations.map((observation, index) => {
    scenario.rules.forEach((rule, ruleIndex) => run.change({ ...rule, enabled: enabled[index]![ruleIndex]! }));
    const before = scenario.rules.map((rule) => run.state(rule.id));
    const delivered = run.observe(observation);
    return scenario.rules.map((rule, ruleIndex) => ({ before: before[ruleIndex]!, after: run.state(rule.id), deliver: delivered.includes(rule.id) }));
  });
  return { observations, steps };
}

/** `[observation index, rule index]` of every delivery, in order. */
function deliveriesOf(steps: readonly EngineStep[][]): Array<[number, number]> {
  return steps.flatMap((ruleSteps, index) => ruleSteps.flatMap((step, ruleIndex): Array<[number, number]> => (step.deliver ? [[index, ruleIndex]] : [])));
}

function usable(observation: RuleObservation): observation is RuleObservation & { thresholdWei: bigint } {
  return !observation.paused && observation.thresholdWei !== undefined;
}

const PROPERTY_RUNS = 1000;

test("property: a rule never delivers twice without passing through armed in between", () => {
  fc.assert(
    fc.property(scenarioArbitrary, (scenario) => {
      const { steps } = runEngine(scenario);
      scenario.rules.forEach((rule, ruleIndex) => {
        let armedSinceDelivery = false;
        steps.forEach((ruleSteps, index) => {
          const step = ruleSteps[ruleIndex]!;
          if (step.deliver) {
            assert.ok(armedSinceDelivery, `${rule.id} delivered at observation ${index} without being armed since its last delivery`);
            armedSinceDelivery = false;
          }
          if (step.after.phase === "armed") armedSinceDelivery = true;
        });
      });
    }),
    { numRuns: PROPERTY_RUNS },
  );
});

test("property: never two deliveries of a cooldown group within its cooldown", () => {
  fc.assert(
    fc.property(scenarioArbitrary, (scenario) => {
      const { observations, steps } = runEngine(scenario);
      const times = deliveriesOf(steps).map(([index]) => observations[index]!.atMs);
      const cooldownMs = scenario.rules[0]!.cooldownMs;
      for (let i = 1; i < times.length; i++) {
        assert.ok(times[i]! - times[i - 1]! >= cooldownMs, `deliveries at ${times[i - 1]} and ${times[i]} ms, cooldown ${cooldownMs} ms`);
      }
    }),
    { numRuns: PROPERTY_RUNS },
  );
});

test("property: a delivery comes only on an observation whose condition holds, never on a paused one or one without threshold", () => {
  fc.assert(
    fc.property(scenarioArbitrary, (scenario) => {
      const { observations, steps } = runEngine(scenario);
      for (const [index, ruleIndex] of deliveriesOf(steps)) {
        const observation = observations[index]!;
        assert.ok(usable(observation), `delivery at observation ${index}, which is paused or has no threshold`);
        assert.ok(
          conditionHolds(scenario.rules[ruleIndex]!, observation.baseFeeWei, observation.thresholdWei),
          `delivery at observation ${index}, whose condition does not hold`,
        );
      }
    }),
    { numRuns: PROPERTY_RUNS },
  );
});

test("property: nothing is delivered at a rule's first usable observation, whatever the condition then", () => {
  fc.assert(
    fc.property(scenarioArbitrary, (scenario) => {
      const { observations, steps } = runEngine(scenario);
      const first = observations.findIndex(usable);
      if (first === -1) return;
      steps[first]!.forEach((step, ruleIndex) => assert.equal(step.deliver, false, `rule ${ruleIndex} delivered at its first usable observation`));
    }),
    { numRuns: PROPERTY_RUNS },
  );
});

/**
 * The contract's semantics written as plainly as can be, in another form than the engine's. First the rule's life:
 * only usable observations of blocks newer than every one counted count; the first one sets the phase from its
 * condition; then a rule fires when the run of blocks with its condition true that ends at a block reaches forBlocks
 * (or at once on a block far above, for `above`), and re-arms when the run with it false reaches rearmAfterBlocks (or at
 * once, far above, for `below`). Runs are read back along the condition's history: a run cannot reach past the block
 * that last changed the phase, since the condition there was the other way. Then what is told: a crossing is told at
 * the first usable observation from it on where the rule is still firing, its condition holds and the group's cooldown
 * is over, unless the rule is off at a usable observation before that; a crossing of a built-in rule that was the
 * group's last told is not told at all.
 */
function modelDeliveries(scenario: Scenario): Array<[number, number]> {
  const { observations, enabled } = unfold(scenario);
  const counted: number[] = [];
  for (const [index, observation] of observations.entries()) {
    const newest = counted.length === 0 ? undefined : observations[counted.at(-1)!]!.block;
    if (usable(observation) && (newest === undefined || observation.block > newest)) counted.push(index);
  }
  const holdsAt = (rule: AlertRule, index: number) => {
    const { baseFeeWei, thresholdWei } = observations[index]!;
    return thresholdWei !== undefined && (rule.when === "above" ? baseFeeWei > thresholdWei : !(baseFeeWei > thresholdWei));
  };
  const farAboveAt = (rule: AlertRule, index: number) => {
    const { baseFeeWei, thresholdWei } = observations[index]!;
    if (rule.atOnceMarginPercent === undefined || thresholdWei === undefined) return false;
    const hundredths = BigInt(Math.round(rule.atOnceMarginPercent * 100));
    return baseFeeWei * 10_000n > thresholdWei * (10_000n + hundredths);
  };

  // Which observations cross (fire) and re-arm each rule.
  const crossingsAt = scenario.rules.map(() => new Set<number>());
  const rearmsAt = scenario.rules.map(() => new Set<number>());
  scenario.rules.forEach((rule, ruleIndex) => {
    const conditions = counted.map((index) => holdsAt(rule, index));
    const runEndingAt = (position: number) => {
      let start = position;
      while (start > 0 && conditions[start - 1] === conditions[position]) start--;
      return position - start + 1;
    };
    let firing = conditions[0];
    for (let position = 1; position < counted.length; position++) {
      const index = counted[position]!;
      if (!firing && conditions[position] && (runEndingAt(position) >= rule.forBlocks || (rule.when === "above" && farAboveAt(rule, index)))) {
        firing = true;
        crossingsAt[ruleIndex]!.add(index);
      } else if (firing && !conditions[position] && (runEndingAt(position) >= rule.rearmAfterBlocks || (rule.when === "below" && farAboveAt(rule, index)))) {
        firing = false;
        rearmsAt[ruleIndex]!.add(index);
      }
    }
  });

  // What is told, observation by observation, rule by rule (the order in which the engine is asked). A built-in rule
  // has nothing to tell while the group's last word is its own.
  const deliveries: Array<[number, number]> = [];
  const untoldCrossing: boolean[] = scenario.rules.map(() => false);
  let lastTold: { ruleIndex: number; atMs: number } | undefined;
  const saidLast = (ruleIndex: number) => scenario.rules[ruleIndex]!.builtIn !== undefined && lastTold?.ruleIndex === ruleIndex;
  observations.forEach((observation, index) => {
    if (!usable(observation)) return;
    scenario.rules.forEach((rule, ruleIndex) => {
      if (crossingsAt[ruleIndex]!.has(index) && !saidLast(ruleIndex)) untoldCrossing[ruleIndex] = true;
      if (rearmsAt[ruleIndex]!.has(index) || !enabled[index]![ruleIndex]) untoldCrossing[ruleIndex] = false;
      const cooled = lastTold === undefined || observation.atMs - lastTold.atMs >= rule.cooldownMs;
      if (untoldCrossing[ruleIndex] && holdsAt(rule, index) && cooled) {
        deliveries.push([index, ruleIndex]);
        untoldCrossing[ruleIndex] = false;
        lastTold = { ruleIndex, atMs: observation.atMs };
      }
    });
  });
  return deliveries;
}

test("property: the engine delivers exactly what a plain model of the contract does", () => {
  fc.assert(
    fc.property(scenarioArbitrary, (scenario) => {
      assert.deepEqual(deliveriesOf(runEngine(scenario).steps), modelDeliveries(scenario));
    }),
    { numRuns: PROPERTY_RUNS },
  );
});

test("property: the built-in pair, under any notification settings, never tells busy twice, nor calm twice, in a row", () => {
  fc.assert(
    fc.property(builtInPairScenarioArbitrary, (scenario) => {
      const told = deliveriesOf(runEngine(scenario).steps).map(([, ruleIndex]) => scenario.rules[ruleIndex]!.id);
      told.forEach((ruleId, index) => assert.ok(index === 0 || told[index - 1] !== ruleId, `${told.join(", ")}: ${ruleId} twice in a row`));
    }),
    { numRuns: PROPERTY_RUNS },
  );
});
