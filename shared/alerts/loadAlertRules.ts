import type { AlertRule, AlertThreshold } from "../core/alerts/alertRule.ts";
import { BUSY_THRESHOLD_PERCENTILE } from "../core/fees/feeSnapshot.ts";
import { parseGweiAmount } from "../core/fees/parseGweiAmount.ts";
import { parseWindowSpec } from "../core/history/duration.ts";
import { type ChainPlan, hasBlobMarket, historyHorizonOf, statsWindowOf } from "../service/chainPlan.ts";
import type { AlertRuleProblem } from "../wire/alerts.ts";
import type { NotificationSettings } from "../config/settings.ts";
import { RuleWindowBudget } from "./ruleWindowBudget.ts";
import { type Action, DEFAULT_ACTIONS } from "../core/costs/defaultActions.ts";
import { ALERT_RULE_FIELDS, ALERT_RULE_ID_PATTERN, alertRuleSettingsSchema, type AlertRuleSettings, shownValue } from "../wire/alertRuleSchema.ts";

/**
 * The user's alert rules in the settings file (`alerts`, CONTRACT.md "Alerts"): the reading of the file's list into the
 * rules the engine runs, against the chains the service follows (the schema of one rule is
 * shared/wire/alertRuleSchema.ts's). A bad rule is refused on its own, with a problem naming it and the field at fault;
 * it never stops the file from loading or the other rules from running.
 */

/** More rules than this are not read (each costs a little work on every block of its chain). */
export const MAX_ALERT_RULES = 200;

/** The field a problem about the rule as a whole names (wire/alerts.ts). */
const WHOLE_RULE = "(rule)";

export interface LoadedAlertRules {
  /** The user's valid rules, then each followed chain's built-in busy and calm rules. */
  readonly rules: AlertRule[];
  /** One per field at fault of each refused rule; a refused rule is not in `rules`. */
  readonly problems: AlertRuleProblem[];
}

/**
 * Reads the settings' `alerts` against the chains the service follows: the user's valid rules with their defaults
 * filled in, every refused rule's problems, and the built-in busy/calm pair of each chain made from `notifications`.
 * Never throws, whatever `rawRules` holds.
 */
export function loadAlertRules(
  rawRules: readonly unknown[],
  chains: readonly ChainPlan[],
  notifications: NotificationSettings,
  actions: readonly Action[] = DEFAULT_ACTIONS,
): LoadedAlertRules {
  const chainsById = new Map(chains.map((chain) => [chain.chainId, chain]));
  const rules: AlertRule[] = [];
  const problems: AlertRuleProblem[] = [];
  /** Each usable id and the 1-based place of the first rule that has it: the first one keeps it. */
  const placeOfId = new Map<string, number>();
  /** The rules' percentile windows per chain: the first rules in the file keep theirs. */
  const windowBudget = new RuleWindowBudget();

  rawRules.slice(0, MAX_ALERT_RULES).forEach((raw, index) => {
    const place = index + 1;
    const name = usableIdOf(raw) ?? `#${place}`;
    const refuse = (field: string, message: string) => problems.push({ rule: name, field, message });
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
      refuse(WHOLE_RULE, `is ${shownValue(raw)}, not a rule: a rule looks like {"id":"cheap-eth","chainId":1,"when":"below","gwei":"8"}`);
      return;
    }
    const idTaken = usableIdOf(raw) === undefined ? undefined : placeOfId.get(name);
    if (usableIdOf(raw) !== undefined && idTaken === undefined) placeOfId.set(name, place);

    const parsed = alertRuleSettingsSchema.safeParse(raw);
    const fieldProblems = new Map<string, string>();
    const blame = (field: string, message: string) => {
      if (!fieldProblems.has(field)) fieldProblems.set(field, message);
    };
    if (idTaken !== undefined) blame("id", `is also the id of rule #${idTaken} (the first one runs): give each rule an id of its own`);
    for (const issue of parsed.error?.issues ?? []) {
      if (issue.code === "unrecognized_keys") {
        for (const key of issue.keys) blame(key, `is not a field of an alert rule (check its spelling; the fields are ${ALERT_RULE_FIELDS.join(", ")})`);
      } else {
        blame(issue.path.length === 0 ? WHOLE_RULE : String(issue.path[0]), issue.message);
      }
    }
    // The checks against the followed chains run whatever else is wrong, so that every problem is told at once.
    const { chainId, window, action: actionId } = raw as Record<string, unknown>;
    const action = actions.find((candidate) => candidate.id === actionId);
    if (!fieldProblems.has("action") && typeof actionId === "string" && action === undefined) {
      blame("action", `"${actionId}" is not an action: use one of ${actions.map((known) => known.id).join(", ")} (or add it under actions)`);
    }
    const chain = typeof chainId === "number" ? chainsById.get(chainId) : undefined;
    if (!fieldProblems.has("chainId") && typeof chainId === "number" && chain === undefined) blame("chainId", notFollowedMessage(chainId, chains));
    if (!fieldProblems.has("fee") && (raw as Record<string, unknown>).fee === "blob" && chain !== undefined && !hasBlobMarket(chain)) {
      blame("fee", noBlobMarketMessage(chain));
    }
    if (!fieldProblems.has("window") && typeof window === "string" && chain !== undefined) {
      const horizonProblem = windowBeyondHorizon(window, chain);
      if (horizonProblem !== undefined) blame("window", horizonProblem);
    }
    if (parsed.success && fieldProblems.size === 0 && chain !== undefined) {
      const rule = alertRuleOf(parsed.data, chain, action);
      const overBudget = rule.threshold.kind === "percentile" ? windowBudget.take(rule.threshold.window, chain) : undefined;
      if (overBudget === undefined) {
        rules.push(rule);
        return;
      }
      blame("window", overBudget);
    }
    for (const field of orderedFields(fieldProblems)) refuse(field, fieldProblems.get(field)!);
  });

  const unread = rawRules.length - MAX_ALERT_RULES;
  if (unread > 0) {
    problems.push({
      rule: `#${MAX_ALERT_RULES + 1}`,
      field: WHOLE_RULE,
      message: `and the ${unread === 1 ? "rule" : `${unread} rules`} after it ${unread === 1 ? "is" : "are"} not read: at most ${MAX_ALERT_RULES} rules are; remove some`,
    });
  }
  return { rules: [...rules, ...chains.flatMap((chain) => builtInRulesOf(chain, notifications))], problems };
}

/** The rule's id when it is one a rule may have, else undefined (the rule is then named by its place). */
function usableIdOf(raw: unknown): string | undefined {
  if (typeof raw !== "object" || raw === null) return undefined;
  const id = (raw as Record<string, unknown>).id;
  return typeof id === "string" && ALERT_RULE_ID_PATTERN.test(id) ? id : undefined;
}

/** Problems in the order of the rule's fields (as a person reads the rule), the rest after them. */
function orderedFields(fieldProblems: ReadonlyMap<string, string>): string[] {
  const rank = (field: string) => {
    const place = (ALERT_RULE_FIELDS as readonly string[]).indexOf(field);
    return place === -1 ? ALERT_RULE_FIELDS.length : place;
  };
  return [...fieldProblems.keys()].sort((a, b) => rank(a) - rank(b));
}

function notFollowedMessage(chainId: number, chains: readonly ChainPlan[]): string {
  const followed = chains.map((chain) => `${chain.chainId} (${chain.name})`).join(", ");
  return `${chainId} is not a followed chain; add it under chains, or use one that is followed` + (followed === "" ? " (none is)" : `: ${followed}`);
}

/** A blob rule on a rollup: its blob fields are no market of its own, so it has no blob base fee to compare. */
function noBlobMarketMessage(chain: ChainPlan): string {
  return (
    `"blob" does not apply to ${chain.name} (${chain.chainId}): it has no blob market of its own (a rollup: what it pays for blobs is Ethereum's blob fee); ` +
    `compare its base fee (remove "fee"), or follow Ethereum's blob fee with a rule on chain 1`
  );
}

/** A duration window that reaches further back than the chain's history is kept could never be computed whole. */
function windowBeyondHorizon(windowText: string, chain: ChainPlan): string | undefined {
  const window = parseWindowSpec(windowText);
  const horizon = historyHorizonOf(chain);
  if (window?.kind !== "duration" || window.seconds <= horizon.seconds) return undefined;
  return (
    `"${window.text}" is longer than the history ${chain.name} (${chain.chainId}) keeps (its historyHorizon, ${horizon.text}): ` +
    `use a window of at most ${horizon.text}, or raise historyHorizon under chains`
  );
}

function alertRuleOf(rule: AlertRuleSettings, chain: ChainPlan, action: Action | undefined): AlertRule {
  return {
    id: rule.id,
    chainId: rule.chainId,
    when: rule.when,
    threshold: rule.fiat !== undefined && action !== undefined ? { kind: "fiat", fiat: rule.fiat, action } : thresholdOf(rule, chain),
    ...(rule.fee === "blob" ? { fee: "blob" as const } : {}),
    forBlocks: rule.forBlocks,
    rearmAfterBlocks: rule.forBlocks,
    cooldownMs: rule.cooldownMinutes * 60_000,
    cooldownGroup: rule.id,
    enabled: rule.enabled,
    ...(rule.webhookUrl === undefined ? {} : { webhookUrl: rule.webhookUrl }),
    ...(rule.label === undefined ? {} : { label: rule.label }),
  };
}

/** The threshold of a rule the schema accepted (so exactly one of gwei and percentile, each valid). */
function thresholdOf(rule: AlertRuleSettings, chain: ChainPlan): AlertThreshold {
  if (rule.gwei !== undefined) {
    const amount = parseGweiAmount(rule.gwei);
    if ("problem" in amount) throw new Error(`alert rule ${rule.id}: gwei ${amount.problem}, though the schema accepted it`);
    return { kind: "fixed", wei: amount.wei };
  }
  const window = rule.window === undefined ? statsWindowOf(chain) : parseWindowSpec(rule.window)!;
  return { kind: "percentile", percentile: rule.percentile!, window };
}

/**
 * The busy and calm notifications of a chain as two rules of the engine: busy above the busy threshold (the statistics
 * window's 90th percentile), calm at or below it, so that calm is exactly "not busy". Each one's hysteresis is the
 * other's entry: busy after `enterAfterBlocks` blocks above (or one block beyond `enterMarginPercent`), re-armed after
 * `calmAfterBlocks` at or below; calm the other way round. They share one cooldown so that they never nag in turns.
 */
function builtInRulesOf(chain: ChainPlan, notifications: NotificationSettings): AlertRule[] {
  const threshold: AlertThreshold = { kind: "percentile", percentile: BUSY_THRESHOLD_PERCENTILE, window: statsWindowOf(chain) };
  const shared = {
    chainId: chain.chainId,
    threshold,
    atOnceMarginPercent: notifications.enterMarginPercent,
    cooldownMs: notifications.cooldownMinutes * 60_000,
    cooldownGroup: `busy-calm:${chain.chainId}`,
    enabled: notifications.enabled && !notifications.mutedChainIds.includes(chain.chainId),
  };
  return [
    {
      ...shared,
      id: `busy:${chain.chainId}`,
      when: "above",
      forBlocks: notifications.enterAfterBlocks,
      rearmAfterBlocks: notifications.calmAfterBlocks,
      label: `${chain.name} is busy`,
      builtIn: "busy",
    },
    {
      ...shared,
      id: `calm:${chain.chainId}`,
      when: "below",
      forBlocks: notifications.calmAfterBlocks,
      rearmAfterBlocks: notifications.enterAfterBlocks,
      label: `${chain.name} has calmed down`,
      builtIn: "calm",
    },
  ];
}
