// An alert as the desktop shows it: a notification's title and body, from the AlertEvent the service fires and the
// rule's entry of GET /alerts (its label and threshold). Pure, so that plain Node tests read the words.
import type { AlertEvent, AlertRuleStatus } from "../../shared/wire/alerts.ts";

export interface AlertNotification {
  readonly event: AlertEvent;
  /** The rule's label ("Cheap ETH", "Ethereum is busy"), else the rule in a few words ("Ethereum below 8 gwei"). */
  readonly title: string;
  /** The alert's sentence (AlertEvent's `text`): fee, threshold, rule and block. */
  readonly body: string;
}

/**
 * The notification of `event`. `rule` is the rule's current status, if it is still configured (a rule deleted between
 * its firing and this call has none: then its id names it).
 */
export function alertNotificationOf(event: AlertEvent, rule: AlertRuleStatus | undefined): AlertNotification {
  return { event, title: rule?.label ?? `${event.chainName} ${event.when} ${thresholdWords(event, rule)}`, body: event.text };
}

/** "8 gwei" for a fixed threshold, "its 7d p95" for a percentile (whose value moves), else the rule's id. */
function thresholdWords(event: AlertEvent, rule: AlertRuleStatus | undefined): string {
  if (rule?.gwei != null) return `${rule.gwei} gwei`;
  if (rule?.percentile != null) return `its ${rule.window ?? "window's"} p${rule.percentile}`;
  return `${event.threshold} gwei (${event.ruleId})`;
}
