// The settings page's alert rules (settings' `alerts`) as it lists and edits them: pure functions from the stored list
// to rows and drafts, and from a draft back to a rule checked with the settings file's own schema of one rule, so that
// each field's problem is shown beside it before anything is sent (the main process checks the whole again).
import { ALERT_RULE_ID_PATTERN, alertRuleSettingsSchema, type AlertRuleSettings, type AlertRuleSettingsInput } from "../../../shared/wire/alertRuleSchema.ts";
import type { AlertRuleProblem } from "../../../shared/wire/alerts.ts";
import type { SettingsRefusal } from "./settingsRefusal.ts";

/** The fields of the rule form, each shown with its own problem. */
export const ALERT_DRAFT_FIELDS = ["chainId", "fee", "when", "gwei", "percentile", "window", "forBlocks", "cooldownMinutes", "webhookUrl", "label"] as const;
export type AlertDraftField = (typeof ALERT_DRAFT_FIELDS)[number];

/** One rule as the form edits it: every field as typed. */
export interface AlertDraft {
  /** The stored rule's id, kept by an edit; empty for a new rule (made when it is saved: ruleIdFor). */
  readonly id: string;
  readonly chainId: string;
  readonly when: "below" | "above";
  /** Which fee the rule compares: the base fee, or the blob base fee (stored as "fee":"blob"; the base fee is left out). */
  readonly fee: "base" | "blob";
  /** A fixed fee, or a percentile of the chain's own base fees. */
  readonly thresholdKind: "gwei" | "percentile";
  readonly gwei: string;
  readonly percentile: string;
  /** Empty: the chain's statistics window. */
  readonly window: string;
  /** Empty: the default (1 block). */
  readonly forBlocks: string;
  /** Empty: the default (15 minutes). */
  readonly cooldownMinutes: string;
  readonly webhookUrl: string;
  readonly label: string;
  readonly enabled: boolean;
}

/** A problem of a draft: beside its field, or about the rule as a whole (`rule`). */
export type DraftProblems = Partial<Record<AlertDraftField | "rule", string>>;

export type DraftCheck = { readonly ok: true; readonly rule: AlertRuleSettingsInput } | { readonly ok: false; readonly problems: DraftProblems };

/**
 * A rule of the stored list as the page lists it: its fields as the schema reads them (undefined when the schema
 * refuses it), and every reason the service refuses it ("percentile: must be …", "chainId: 6001 is not a followed
 * chain …"); a rule with problems does not run.
 */
export interface StoredRuleRow {
  readonly index: number;
  /** Its id, or `#<n>` (its 1-based place) when it has none. */
  readonly name: string;
  readonly rule: AlertRuleSettings | undefined;
  readonly problems: readonly string[];
}

/** Room left in an id for a "-2" that makes it unique. */
const ID_STEM_CHARS = 56;

/** A new rule for `chainId`: below a fixed fee, the defaults left to the schema. */
export function newAlertDraft(chainId: number | undefined): AlertDraft {
  return {
    id: "",
    chainId: chainId === undefined ? "" : String(chainId),
    when: "below",
    fee: "base",
    thresholdKind: "gwei",
    gwei: "",
    percentile: "",
    window: "",
    forBlocks: "",
    cooldownMinutes: "",
    webhookUrl: "",
    label: "",
    enabled: true,
  };
}

/**
 * A stored rule as a draft, whatever the file holds (a rule edited by hand may be refused: its fields are still shown,
 * so that it can be put right). Fields left to their default stay empty.
 */
export function draftOfStoredRule(raw: unknown): AlertDraft {
  const rule = typeof raw === "object" && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const text = (value: unknown) => (typeof value === "string" || typeof value === "number" ? String(value) : "");
  return {
    id: typeof rule.id === "string" ? rule.id : "",
    chainId: text(rule.chainId),
    when: rule.when === "above" ? "above" : "below",
    fee: rule.fee === "blob" ? "blob" : "base",
    thresholdKind: rule.percentile !== undefined && rule.gwei === undefined ? "percentile" : "gwei",
    gwei: text(rule.gwei),
    percentile: text(rule.percentile),
    window: text(rule.window),
    forBlocks: text(rule.forBlocks),
    cooldownMinutes: text(rule.cooldownMinutes),
    webhookUrl: text(rule.webhookUrl),
    label: text(rule.label),
    enabled: rule.enabled !== false,
  };
}

/**
 * The draft as the rule to store, checked with the settings file's schema of one rule (`alertRuleSettingsSchema`),
 * each problem named by its field in the schema's own words. A new rule (or one whose stored id is unusable) gets an
 * id not among `takenIds`. Only what was typed is stored: an empty field leaves the default.
 */
export function checkDraft(draft: AlertDraft, takenIds: readonly string[]): DraftCheck {
  const id = ALERT_RULE_ID_PATTERN.test(draft.id) ? draft.id : ruleIdFor(draft, takenIds);
  const chainId = numberOrText(draft.chainId);
  const rule: Record<string, unknown> = {
    id,
    ...(chainId === undefined ? {} : { chainId }),
    when: draft.when,
    ...(draft.fee === "blob" ? { fee: "blob" } : {}),
    ...(draft.thresholdKind === "gwei"
      ? { gwei: draft.gwei.trim() }
      : { percentile: numberOrText(draft.percentile), ...optional("window", draft.window.trim() || undefined) }),
    ...optional("forBlocks", numberOrText(draft.forBlocks)),
    ...optional("cooldownMinutes", numberOrText(draft.cooldownMinutes)),
    ...(draft.enabled ? {} : { enabled: false }),
    ...optional("webhookUrl", draft.webhookUrl.trim() || undefined),
    ...optional("label", draft.label.trim() || undefined),
  };
  const problems: DraftProblems = {};
  if (chainId === undefined) problems.chainId = "is missing: choose one of the followed chains";
  const parsed = alertRuleSettingsSchema.safeParse(rule);
  for (const issue of parsed.error?.issues ?? []) {
    const field = issue.path[0];
    const key = (ALERT_DRAFT_FIELDS as readonly unknown[]).includes(field) ? (field as AlertDraftField) : "rule";
    problems[key] ??= issue.message;
  }
  return Object.keys(problems).length === 0 ? { ok: true, rule: rule as AlertRuleSettingsInput } : { ok: false, problems };
}

/**
 * An id for a new rule: from its label ("Cheap ETH" → "cheap-eth"), else from its chain and condition
 * ("1-below-8", "8453-above-p95"), made unique among `takenIds` with "-2", "-3", ….
 */
export function ruleIdFor(draft: AlertDraft, takenIds: readonly string[]): string {
  const fromLabel = slug(draft.label);
  const threshold = draft.thresholdKind === "gwei" ? draft.gwei.trim() : `p${draft.percentile.trim()}`;
  const stem = fromLabel !== "" ? fromLabel : slug(`${draft.chainId}-${draft.when}-${threshold}`) || "rule";
  const taken = new Set(takenIds);
  if (!taken.has(stem)) return stem;
  let suffix = 2;
  while (taken.has(`${stem}-${suffix}`)) suffix++;
  return `${stem}-${suffix}`;
}

/**
 * Each stored rule as a row of the list, with the problems the main process found in it (`problems`, naming rules by
 * id or by place), or, for one it did not name, those of the schema.
 */
export function storedRuleRows(rules: readonly unknown[], problems: readonly AlertRuleProblem[]): StoredRuleRow[] {
  return rules.map((raw, index) => {
    const parsed = alertRuleSettingsSchema.safeParse(raw);
    const id = (raw as { id?: unknown } | null)?.id;
    const name = typeof id === "string" && ALERT_RULE_ID_PATTERN.test(id) ? id : `#${index + 1}`;
    const named = problems.filter((problem) => problem.rule === name).map(({ field, message }) => `${field}: ${message}`);
    const ofSchema = (parsed.error?.issues ?? []).map((issue) => `${issue.path.length === 0 ? "(rule)" : issue.path.join(".")}: ${issue.message}`);
    return { index, name, rule: parsed.success ? parsed.data : undefined, problems: named.length > 0 ? named : ofSchema };
  });
}

/**
 * The main process's refusal of a saved rule as problems of the form: each of its alert problems about `ruleId` and a
 * field of the form beside that field; its other alert problems, one line each, about the rule as a whole, or its
 * message when it names no rule at all (the disk is full, say).
 */
export function problemsOfRefusal(refusal: SettingsRefusal, ruleId: string): DraftProblems {
  const problems: DraftProblems = {};
  const rest: string[] = [];
  for (const { rule, field, message } of refusal.alertProblems) {
    if (rule === ruleId && isDraftField(field)) problems[field] ??= message;
    else rest.push(`alert rule ${rule}, ${field}: ${message}`);
  }
  if (rest.length > 0) problems.rule = rest.join("\n");
  else if (Object.keys(problems).length === 0) problems.rule = refusal.message;
  return problems;
}

function isDraftField(field: string): field is AlertDraftField {
  return (ALERT_DRAFT_FIELDS as readonly string[]).includes(field);
}

/** The ids of the stored rules, except the one at `exceptIndex` (the rule being edited). */
export function storedIds(rules: readonly unknown[], exceptIndex?: number): string[] {
  return rules.flatMap((raw, index) => {
    const id = (raw as { id?: unknown } | null)?.id;
    return index !== exceptIndex && typeof id === "string" ? [id] : [];
  });
}

/** The list with `rule` in place of the one at `index`, or added last when `index` is undefined. */
export function withRuleSaved(rules: readonly unknown[], index: number | undefined, rule: AlertRuleSettingsInput): unknown[] {
  return index === undefined ? [...rules, rule] : rules.map((existing, at) => (at === index ? rule : existing));
}

/** The list with the rule at `index` turned on or off (stored as `"enabled": false` while off; on is the default). */
export function withRuleEnabled(rules: readonly unknown[], index: number, enabled: boolean): unknown[] {
  return rules.map((existing, at) => {
    if (at !== index || typeof existing !== "object" || existing === null) return existing;
    const { enabled: _previous, ...rest } = existing as Record<string, unknown>;
    return enabled ? rest : { ...rest, enabled: false };
  });
}

export function withoutRule(rules: readonly unknown[], index: number): unknown[] {
  return rules.filter((_rule, at) => at !== index);
}

/** A number field as typed: empty is absent, a number is one, anything else stays text so the schema names it. */
function numberOrText(text: string): number | string | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  const number = Number(trimmed);
  return Number.isFinite(number) ? number : trimmed;
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9.]+/g, "-")
    .replace(/^[-.]+|[-.]+$/g, "")
    .slice(0, ID_STEM_CHARS)
    .replace(/[-.]+$/, "");
}
