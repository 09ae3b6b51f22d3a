import type { AlertRule } from "./alertRule.ts";

/**
 * One rule's life as blocks arrive (CONTRACT.md, "Alerts"). Pure: each step takes the rule's state and one observation
 * of its chain and returns the next state and whether to deliver an alert now.
 *
 * - `above` holds while the base fee is above the threshold, `below` while it is at or below it (the same split as
 *   busy/normal everywhere in the app, so that the built-in calm rule is exactly "not busy").
 * - Only new blocks count: a block newer than every one counted so far. Another observation of the same block (a health
 *   change, a republication, a re-mined block of a reorganisation) or of an older one (a lagging endpoint) moves no
 *   count, so that blocks seen twice never make a run of `forBlocks` out of fewer.
 * - Armed, the rule fires once its condition held for `forBlocks` new blocks in a row (or at once on one block above
 *   the threshold by more than `atOnceMarginPercent`, for an `above` rule); it then stays firing until the condition
 *   was false for `rearmAfterBlocks` new blocks in a row (a block that far above re-arms a `below` rule at once).
 * - The first usable observation only learns: a condition already true then (at start, after a restart, or when the
 *   rule is new) puts the rule straight into `firing` without an alert (`learnt`: shown as armed unless it fired
 *   before a restart; it fires once the condition was false, as after a firing, and becomes true again).
 * - No two deliveries within the cooldown (of the rule's cooldown group): a crossing inside it is held back and delivered
 *   once the cooldown is over, at the first observation whose condition holds while the rule is still firing (at most
 *   once); one that ends before (the rule re-armed, or turned off meanwhile) is never told.
 * - While the chain's data cannot be trusted (`paused`), or the rule has no threshold yet, nothing is counted or fired.
 * - A disabled rule is followed all the same but never delivers: turning it on later tells of no crossing long past.
 * - The built-in busy/calm pair tells the user a state, so neither of its rules is told twice in a row: a crossing of a
 *   built-in rule whose own delivery is still its group's newest is not told (nor held back). The other rule crossed in
 *   between and went untold (it came and went within the cooldown), so nothing changed for the user. A user's rule,
 *   alone in its group, is told again on each crossing after a re-arm, once the cooldown allows.
 */
export type RulePhase = "starting" | "armed" | "firing";

export interface RuleState {
  readonly phase: RulePhase;
  /** The newest block counted. */
  readonly lastBlock: bigint | undefined;
  /** New blocks in a row with the condition true, while armed. */
  readonly holdingRun: number;
  /** New blocks in a row with the condition false, while firing. */
  readonly releasedRun: number;
  /** A crossing held back by the cooldown, to deliver when it ends if the condition still holds. */
  readonly pending: boolean;
  /**
   * When this rule was last delivered (`atMs` of that observation): while the caller's newest delivery of the group is
   * at that time, it is this rule's.
   */
  readonly lastToldAtMs: number | undefined;
  /** Firing since the first observation found the condition true, without a crossing: armed, as GET /alerts shows it. */
  readonly learnt: boolean;
}

export const STARTING: RuleState = Object.freeze({
  phase: "starting",
  lastBlock: undefined,
  holdingRun: 0,
  releasedRun: 0,
  pending: false,
  lastToldAtMs: undefined,
  learnt: false,
});

export interface RuleObservation {
  readonly block: bigint;
  readonly baseFeeWei: bigint;
  /** The rule's threshold as of this block; undefined while it has none (a percentile over a window with no blocks). */
  readonly thresholdWei: bigint | undefined;
  /** Epoch ms. */
  readonly atMs: number;
  /** The chain's data cannot be trusted now (no data, every endpoint failing): nothing moves. */
  readonly paused: boolean;
}

export interface RuleStep {
  readonly state: RuleState;
  /** Deliver an alert for this observation now. */
  readonly deliver: boolean;
}

const BASIS_POINTS = 10_000n;

/** Whether `rule`'s condition holds for `baseFeeWei` against `thresholdWei`. */
export function conditionHolds(rule: Pick<AlertRule, "when">, baseFeeWei: bigint, thresholdWei: bigint): boolean {
  return rule.when === "above" ? baseFeeWei > thresholdWei : baseFeeWei <= thresholdWei;
}

/**
 * One step. `lastDeliveredAtMs` is the newest delivery of the rule's cooldown group (undefined if none); the caller
 * records `observation.atMs` as the group's newest delivery when the step says `deliver`. Observations' times increase,
 * so that a delivery's time tells whose it was (the built-in pair's turns rely on it).
 */
export function stepRule(rule: AlertRule, state: RuleState, observation: RuleObservation, lastDeliveredAtMs: number | undefined): RuleStep {
  const { thresholdWei } = observation;
  if (observation.paused || thresholdWei === undefined) return { state, deliver: false };
  const holds = conditionHolds(rule, observation.baseFeeWei, thresholdWei);
  const cooled = lastDeliveredAtMs === undefined || observation.atMs - lastDeliveredAtMs >= rule.cooldownMs;
  const newBlock = state.lastBlock === undefined || observation.block > state.lastBlock;
  // The built-in pair takes turns: a rule has nothing new to say while its own delivery is still its group's newest.
  const hasNews = rule.builtIn === undefined || state.lastToldAtMs === undefined || state.lastToldAtMs !== lastDeliveredAtMs;
  let next = state;
  let deliver = false;

  if (state.phase === "starting") {
    next = { ...state, phase: holds ? "firing" : "armed", lastBlock: observation.block, learnt: holds };
  } else if (newBlock) {
    const farAbove = isFarAbove(rule, observation.baseFeeWei, thresholdWei);
    if (state.phase === "armed") {
      const holdingRun = holds ? state.holdingRun + 1 : 0;
      const crossed = holds && (holdingRun >= rule.forBlocks || (rule.when === "above" && farAbove));
      if (crossed) {
        deliver = hasNews && cooled;
        next = { ...state, phase: "firing", lastBlock: observation.block, holdingRun: 0, releasedRun: 0, pending: hasNews && !cooled };
      } else {
        next = { ...state, lastBlock: observation.block, holdingRun };
      }
    } else {
      const releasedRun = holds ? 0 : state.releasedRun + 1;
      const released = !holds && (releasedRun >= rule.rearmAfterBlocks || (rule.when === "below" && farAbove));
      next = released
        ? { ...state, phase: "armed", lastBlock: observation.block, holdingRun: 0, releasedRun: 0, pending: false, learnt: false }
        : { ...state, lastBlock: observation.block, releasedRun };
    }
  }
  // A crossing held back by the cooldown is told once the cooldown is over, if its condition still holds.
  if (!deliver && next.phase === "firing" && next.pending && holds && cooled && hasNews) {
    deliver = true;
    next = { ...next, pending: false };
  }
  if (!rule.enabled) return { state: next.pending ? { ...next, pending: false } : next, deliver: false };
  return { state: deliver ? { ...next, lastToldAtMs: observation.atMs } : next, deliver };
}

/** A fee above the threshold by more than the rule's at-once margin. */
function isFarAbove(rule: AlertRule, baseFeeWei: bigint, thresholdWei: bigint): boolean {
  if (rule.atOnceMarginPercent === undefined) return false;
  const marginBasisPoints = BigInt(Math.round(rule.atOnceMarginPercent * 100));
  return baseFeeWei * BASIS_POINTS > thresholdWei * (BASIS_POINTS + marginBasisPoints);
}
