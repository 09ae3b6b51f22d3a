import { webhookShown } from "../core/alerts/webhookUrl.ts";
import type { AlertRule } from "../core/alerts/alertRule.ts";
import type { RuleState } from "../core/alerts/ruleEngine.ts";
import { toGweiString } from "../core/fees/gwei.ts";
import type { ChainPublication } from "../service/chainPublication.ts";
import type { AlertRuleStatus } from "../wire/alerts.ts";
import { chainPause } from "./chainPause.ts";
import type { ThresholdNow } from "./ruleThreshold.ts";

/** A rule's last firing, as `GET /alerts` shows it. */
export interface RuleFiring {
  readonly atMs: number;
  readonly block: bigint;
  readonly baseFeeWei: bigint;
  readonly thresholdWei: bigint;
}

/** A webhook delivery's outcome, after its retries. */
export interface WebhookResult {
  readonly atMs: number;
  readonly ok: boolean;
  readonly detail: string;
}

/** What the alert service keeps of one rule, as its status reads it. */
export interface RuleMemory {
  readonly rule: AlertRule;
  readonly state: RuleState;
  /** The threshold at the rule's last observation; undefined before one, or while it had none. */
  readonly threshold: ThresholdNow | undefined;
  readonly lastFired: RuleFiring | undefined;
  readonly lastWebhook: WebhookResult | undefined;
}

/**
 * One rule's entry of `GET /alerts`: its definition as the settings write it, and its state: armed or firing, why it
 * is paused if it is, its threshold now, a crossing held back by the cooldown (until when), and its last firing and
 * webhook outcome. `publication` is the rule's chain now; `cooledAtMs` is when the rule's cooldown group may deliver
 * again (undefined before its first delivery).
 */
export function ruleStatusOf(memory: RuleMemory, publication: ChainPublication | undefined, cooledAtMs: number | undefined): AlertRuleStatus {
  const { rule, state, threshold, lastFired, lastWebhook } = memory;
  const percentile = rule.threshold.kind === "percentile" ? rule.threshold : undefined;
  const thresholdWei = rule.threshold.kind === "fixed" ? rule.threshold.wei : threshold?.wei;
  return {
    id: rule.id,
    label: rule.label ?? null,
    builtIn: rule.builtIn ?? null,
    chainId: rule.chainId,
    chainName: publication?.name ?? `Chain ${rule.chainId}`,
    when: rule.when,
    gwei: rule.threshold.kind === "fixed" ? toGweiString(rule.threshold.wei) : null,
    percentile: percentile?.percentile ?? null,
    window: percentile?.window.text ?? null,
    fiat: rule.threshold.kind === "fiat" ? rule.threshold.fiat : null,
    action: rule.threshold.kind === "fiat" ? rule.threshold.action.id : null,
    forBlocks: rule.forBlocks,
    cooldownMinutes: rule.cooldownMs / 60_000,
    enabled: rule.enabled,
    webhook: rule.webhookUrl === undefined ? null : webhookShown(rule.webhookUrl),
    // A rule that has not seen its chain yet waits for its condition like an armed one (and says why it waits).
    state: state.phase === "firing" ? "firing" : "armed",
    paused: !rule.enabled
      ? "disabled"
      : (chainPause(publication) ??
        (rule.threshold.kind === "fiat" && publication?.money.price === undefined ? "no price" : thresholdWei === undefined ? "no threshold" : null)),
    threshold: thresholdWei === undefined ? null : toGweiString(thresholdWei),
    thresholdBlocks: percentile === undefined ? null : (threshold?.blocks ?? null),
    pendingUntil: state.pending && cooledAtMs !== undefined ? new Date(cooledAtMs).toISOString() : null,
    lastFired:
      lastFired === undefined
        ? null
        : {
            at: new Date(lastFired.atMs).toISOString(),
            block: lastFired.block.toString(),
            baseFee: toGweiString(lastFired.baseFeeWei),
            threshold: toGweiString(lastFired.thresholdWei),
          },
    lastWebhook: lastWebhook === undefined ? null : { at: new Date(lastWebhook.atMs).toISOString(), ok: lastWebhook.ok, detail: lastWebhook.detail },
  };
}
