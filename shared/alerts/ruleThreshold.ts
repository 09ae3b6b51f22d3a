import type { AlertRule } from "../core/alerts/alertRule.ts";
import type { HistoryView } from "../core/history/historyView.ts";

/** A rule's threshold as of the newest block: in wei, and for a percentile rule, the blocks it was computed over. */
export interface ThresholdNow {
  readonly wei: bigint;
  /** Blocks held in the percentile's window; undefined for a fixed threshold. */
  readonly blocks: number | undefined;
}

/**
 * The threshold `rule` compares the chain's current base fee with now: its fixed fee, or the nearest-rank percentile of
 * the chain's held base fees over its window ending at the newest block. Undefined while a percentile has no blocks to
 * be computed over (or the chain has no history).
 */
export function thresholdNow(rule: Pick<AlertRule, "threshold" | "fee">, history: HistoryView | undefined): ThresholdNow | undefined {
  const { threshold } = rule;
  if (threshold.kind === "fixed") return { wei: threshold.wei, blocks: undefined };
  const over = history?.percentileOver(threshold.window, threshold.percentile, rule.fee ?? "base");
  return over === undefined ? undefined : { wei: over.wei, blocks: over.blocks };
}
