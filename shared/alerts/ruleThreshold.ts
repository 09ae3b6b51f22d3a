import type { AlertRule } from "../core/alerts/alertRule.ts";
import type { HistoryView } from "../core/history/historyView.ts";
import type { ChainPublication } from "../service/chainPublication.ts";
import { baseFeeForFiat } from "../service/fiatBaseFee.ts";

/** A rule's threshold as of the newest block: in wei, and for a percentile rule, the blocks it was computed over. */
export interface ThresholdNow {
  readonly wei: bigint;
  /** Blocks held in the percentile's window; undefined for a fixed threshold. */
  readonly blocks: number | undefined;
}

/**
 * The threshold `rule` compares the chain's current base fee with now: its fixed fee, or the nearest-rank percentile of
 * the chain's held base fees over its window ending at the newest block, or for a money rule the highest base fee at
 * which its action's medium-tier cost stays within its amount (from `publication`'s price, tip and L1 fee). Undefined
 * while a percentile has no blocks to be computed over (or the chain has no history), or a money rule has no price.
 */
export function thresholdNow(
  rule: Pick<AlertRule, "threshold" | "fee">,
  history: HistoryView | undefined,
  publication?: ChainPublication,
): ThresholdNow | undefined {
  const { threshold } = rule;
  if (threshold.kind === "fixed") return { wei: threshold.wei, blocks: undefined };
  if (threshold.kind === "fiat") {
    // The medium tier's cost of the action, as /costs computes it: undefined without a price (the rule is then paused).
    const snapshot = publication?.snapshot;
    const money = publication?.money;
    if (snapshot === undefined || money === undefined) return undefined;
    const wei = baseFeeForFiat(threshold.action, threshold.fiat, snapshot, money);
    return wei === undefined ? undefined : { wei, blocks: undefined };
  }
  const over = history?.percentileOver(threshold.window, threshold.percentile, rule.fee ?? "base");
  return over === undefined ? undefined : { wei: over.wei, blocks: over.blocks };
}
