import type { AlertRule } from "../core/alerts/alertRule.ts";
import { toGweiString } from "../core/fees/gwei.ts";
import { shortGwei } from "../core/text/shortGwei.ts";

/** What an alert says: the rule that fired, on which chain and block, at which fee against which threshold. */
export interface AlertFacts {
  readonly rule: Pick<AlertRule, "id" | "when" | "threshold" | "label" | "builtIn">;
  readonly chainName: string;
  readonly block: bigint;
  readonly baseFeeWei: bigint;
  readonly thresholdWei: bigint;
  /** The currency of a money rule's amount (settings' `currency`). */
  readonly currency?: string;
}

/**
 * An alert in one sentence, as the desktop notification, the log line and a chat's webhook show it:
 * "Ethereum base fee 7.9 gwei is below 8 gwei (cheap-eth, block 19000000)". The built-in rules keep the busy/calm
 * notifications' words ("Ethereum is busy: base fee 41.2 gwei, above the busy threshold of 37.38 gwei (block …)").
 * Fees have about 4 significant digits, or every digit where that would make two different fees read the same.
 */
export function alertSentence({ rule, chainName, block, baseFeeWei, thresholdWei, currency = "USD" }: AlertFacts): string {
  const [fee, threshold] = readableFees(baseFeeWei, thresholdWei);
  if (rule.builtIn === "busy") return `${chainName} is busy: base fee ${fee} gwei, above the busy threshold of ${threshold} gwei (block ${block}).`;
  if (rule.builtIn === "calm") {
    return `${chainName} has calmed down: base fee ${fee} gwei, at or below the busy threshold of ${threshold} gwei (block ${block}).`;
  }
  const relation = rule.when === "above" ? "above" : baseFeeWei === thresholdWei ? "at" : "below";
  if (rule.threshold.kind === "fiat") {
    const costRelation = rule.when === "above" ? "over" : "at most";
    return `${chainName}: ${rule.threshold.action.name} costs ${costRelation} ${rule.threshold.fiat} ${currency} (base fee ${fee} gwei, ${relation} ${threshold} gwei; ${rule.label ?? rule.id}, block ${block})`;
  }
  const relative = rule.threshold.kind === "percentile" ? `, its p${rule.threshold.percentile} over ${rule.threshold.window.text}` : "";
  return `${chainName} base fee ${fee} gwei is ${relation} ${threshold} gwei${relative} (${rule.label ?? rule.id}, block ${block})`;
}

/** Both fees for a glance, unless rounding would make two different fees look alike: then both exactly. */
function readableFees(baseFeeWei: bigint, thresholdWei: bigint): [string, string] {
  const exact: [string, string] = [toGweiString(baseFeeWei), toGweiString(thresholdWei)];
  const short: [string, string] = [shortGwei(exact[0]), shortGwei(exact[1])];
  return short[0] === short[1] && baseFeeWei !== thresholdWei ? exact : short;
}
