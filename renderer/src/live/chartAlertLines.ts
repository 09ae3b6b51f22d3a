// Which alert rules the live chart draws for a chain, and which of their thresholds widen its fee axis. Pure.
import { shortGwei } from "../../../shared/core/text/shortGwei.ts";
import type { AlertRuleStatus, AlertsBody } from "../../../shared/wire/alerts.ts";
import { conditionWords } from "../text/alertWords.ts";

/** One rule's threshold as the chart draws it: a dotted line with a short label. */
export interface AlertLine {
  readonly ruleId: string;
  readonly when: "below" | "above";
  /** The threshold now, an exact Gwei string of the API. */
  readonly threshold: string;
  /** On the chart: "alert: below 8", "alert: above p95 (61.2)". */
  readonly text: string;
  /** On hover: the rule's name, its condition and the exact threshold. */
  readonly title: string;
}

/**
 * A threshold widens the fee axis to include it while the plot then spans at most this many times what the fees and
 * the statistics lines span (so that the fees keep a third of the height); one further out is marked at the edge.
 */
export const MAX_AXIS_WIDENING = 3;

/**
 * The chain's enabled rules of the user's own (the built-in busy rule is the busy threshold's line already) that
 * have a threshold now, lowest threshold first.
 */
export function alertLinesOf(body: AlertsBody | undefined, chainId: number): AlertLine[] {
  if (body === undefined) return [];
  return body.rules
    .filter(
      (rule): rule is AlertRuleStatus & { threshold: string } => rule.chainId === chainId && rule.builtIn === null && rule.enabled && rule.threshold !== null,
    )
    .map((rule) => ({
      ruleId: rule.id,
      when: rule.when,
      threshold: rule.threshold,
      text: `alert: ${shortCondition(rule)}`,
      title: `${rule.label ?? rule.id}: ${conditionWords(rule, rule.window ?? "")}, now ${rule.threshold} Gwei (${rule.state})`,
    }))
    .sort((a, b) => Number(a.threshold) - Number(b.threshold));
}

/** "below 8", "above p95 (61.2)": the window is in the title (and in the alerts list), to keep the plate short. */
function shortCondition(rule: AlertRuleStatus & { threshold: string }): string {
  if (rule.percentile === null) return `${rule.when} ${shortGwei(rule.gwei ?? rule.threshold)}`;
  return `${rule.when} p${rule.percentile} (${shortGwei(rule.threshold)})`;
}

/**
 * The thresholds (Gwei) that the fee axis takes in besides the fees `lowGwei`..`highGwei`: nearest first, each while
 * the span stays within MAX_AXIS_WIDENING times the fees' own.
 */
export function thresholdsInView(lowGwei: number, highGwei: number, thresholdsGwei: readonly number[]): number[] {
  const ownSpan = Math.max(highGwei - lowGwei, Math.abs(highGwei) * 0.05, Number.MIN_VALUE);
  const distance = (value: number) => Math.max(lowGwei - value, value - highGwei, 0);
  let low = lowGwei;
  let high = highGwei;
  const taken: number[] = [];
  for (const threshold of [...thresholdsGwei].sort((a, b) => distance(a) - distance(b))) {
    const nextLow = Math.min(low, threshold);
    const nextHigh = Math.max(high, threshold);
    if (nextHigh - nextLow > MAX_AXIS_WIDENING * ownSpan) continue;
    low = nextLow;
    high = nextHigh;
    taken.push(threshold);
  }
  return taken;
}

/** Where a threshold is drawn: its y, or the plot's edge it lies beyond (it then has no line, only its plate there). */
export interface PlacedThreshold {
  readonly y: number;
  readonly edge: "top" | "bottom" | undefined;
}

/**
 * The top of each line's plate (in the order given), `plateHeightPx` high, inside the plot from `top` to `bottom`: just
 * above its line (a threshold beyond an edge: at that edge), and never over another plate: from the lowest line up, a
 * plate that would cover the one under it is stacked just above that one; plates pushed past the top are then stacked
 * down from it.
 */
export function alertPlateTops(placed: readonly PlacedThreshold[], top: number, bottom: number, plateHeightPx: number): number[] {
  const tops = new Array<number>(placed.length);
  const lowestFirst = placed.map((entry, index) => ({ ...entry, index })).sort((a, b) => b.y - a.y || a.index - b.index);
  let ceiling = bottom;
  for (const { y, edge, index } of lowestFirst) {
    const wanted = edge === "top" ? top + 1 : edge === "bottom" ? bottom - plateHeightPx - 1 : y - plateHeightPx - 1;
    tops[index] = Math.min(wanted, ceiling - plateHeightPx - 1);
    ceiling = tops[index];
  }
  let floor = top + 1;
  for (const { index } of lowestFirst.reverse()) {
    tops[index] = Math.max(tops[index]!, floor);
    floor = tops[index] + plateHeightPx + 1;
  }
  return tops;
}
