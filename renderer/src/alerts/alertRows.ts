// The dashboard's alerts list for one chain, as rows of words (AlertsPanel.tsx draws them). Pure.
import { shortGwei } from "../../../shared/core/text/shortGwei.ts";
import type { AlertPause, AlertRuleStatus, AlertsBody } from "../../../shared/wire/alerts.ts";
import { conditionWords, forBlocksWords } from "../text/alertWords.ts";

export interface AlertRow {
  readonly id: string;
  /** The rule's label, or its id. */
  readonly name: string;
  /** "below 8 Gwei", "above the 7 d p95 (now 61.2 Gwei), 3 blocks in a row". */
  readonly condition: string;
  /** armed, firing, or why it is not watching (off, paused). */
  readonly state: "armed" | "firing" | "off" | "paused";
  /** The state in words: "Armed", "Firing", "Off", "Paused: every RPC endpoint is failing". */
  readonly stateWords: string;
  /** Epoch ms of the cooldown's end, while a crossing is held back by it. */
  readonly heldBackUntil: number | undefined;
  readonly lastFired: { readonly atMs: number; readonly baseFee: string; readonly block: string } | undefined;
  /** The webhook's origin and its last delivery, when the rule has one. */
  readonly webhook: { readonly shown: string; readonly failing: string | undefined } | undefined;
}

export interface ChainAlerts {
  /** The user's rules for the chain, in the settings' order. */
  readonly rows: readonly AlertRow[];
  /** Whether the built-in busy/calm notifications are on for the chain (undefined: the service lists none). */
  readonly builtInsOn: boolean | undefined;
}

const PAUSE_WORDS: Record<NonNullable<AlertPause>, string> = {
  disabled: "Off",
  "no data": "Paused: no data from the chain yet",
  degraded: "Paused: every RPC endpoint is failing, nothing fires",
  "no threshold": "Paused: its window holds no blocks yet",
  "no price": "Paused: the chain has no price now",
};

export function chainAlertsOf(body: AlertsBody, chainId: number): ChainAlerts {
  const ofChain = body.rules.filter((rule) => rule.chainId === chainId);
  const builtIns = ofChain.filter((rule) => rule.builtIn !== null);
  return {
    rows: ofChain.filter((rule) => rule.builtIn === null).map(rowOf),
    builtInsOn: builtIns.length === 0 ? undefined : builtIns.some((rule) => rule.enabled),
  };
}

function rowOf(rule: AlertRuleStatus): AlertRow {
  const relative = rule.percentile !== null && rule.threshold !== null ? ` (now ${shortGwei(rule.threshold)} Gwei)` : "";
  const held = rule.forBlocks > 1 ? `, ${forBlocksWords(rule.forBlocks)}` : "";
  const state = !rule.enabled || rule.paused === "disabled" ? "off" : rule.paused !== null ? "paused" : rule.state;
  return {
    id: rule.id,
    name: rule.label ?? rule.id,
    condition: `${conditionWords(rule, rule.window ?? "")}${relative}${held}`,
    state,
    stateWords: state === "off" ? PAUSE_WORDS.disabled : state === "paused" ? PAUSE_WORDS[rule.paused!] : state === "armed" ? "Armed" : "Firing",
    heldBackUntil: rule.pendingUntil === null ? undefined : Date.parse(rule.pendingUntil),
    lastFired: rule.lastFired === null ? undefined : { atMs: Date.parse(rule.lastFired.at), baseFee: rule.lastFired.baseFee, block: rule.lastFired.block },
    webhook:
      rule.webhook === null
        ? undefined
        : { shown: rule.webhook, failing: rule.lastWebhook !== null && !rule.lastWebhook.ok ? rule.lastWebhook.detail : undefined },
  };
}
