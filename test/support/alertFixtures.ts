// A rule of `GET /alerts` for tests (the dashboard's, the desktop notifications'), with the fields each test does not care about filled in.
import type { AlertRuleStatus, AlertsBody } from "../../shared/wire/alerts.ts";

export function ruleStatus(change: Partial<AlertRuleStatus> & Pick<AlertRuleStatus, "id">): AlertRuleStatus {
  return {
    label: null,
    builtIn: null,
    chainId: 1,
    chainName: "Ethereum",
    when: "below",
    gwei: "8",
    percentile: null,
    window: null,
    fiat: null,
    action: null,
    forBlocks: 1,
    cooldownMinutes: 15,
    enabled: true,
    webhook: null,
    state: "armed",
    paused: null,
    threshold: "8",
    thresholdBlocks: null,
    pendingUntil: null,
    lastFired: null,
    lastWebhook: null,
    ...change,
  };
}

export function alertsBody(rules: readonly AlertRuleStatus[]): AlertsBody {
  return { rules, problems: [] };
}
