// The settings page's own actions (settings' `actions`) and currency as it edits them: from a draft (every field as
// typed) to what is stored, checked with the settings file's own schemas (shared/wire/actionSettingsSchema.ts), each
// problem beside its field before anything is sent (the main process checks the whole again).
import { type ActionSettings, actionSettingsSchema, currencySchema } from "../../../shared/wire/actionSettingsSchema.ts";

export const ACTION_DRAFT_FIELDS = ["id", "name", "gas", "txBytes"] as const;
export type ActionDraftField = (typeof ACTION_DRAFT_FIELDS)[number];

/** One action as the form edits it: every field as typed. */
export type ActionDraft = Readonly<Record<ActionDraftField, string>>;

/** A problem of a draft: beside its field. */
export type ActionProblems = Partial<Record<ActionDraftField, string>>;

export type ActionCheck = { readonly ok: true; readonly action: ActionSettings } | { readonly ok: false; readonly problems: ActionProblems };

export const EMPTY_ACTION_DRAFT: ActionDraft = Object.freeze({ id: "", name: "", gas: "", txBytes: "" });

export function draftOfAction(action: ActionSettings): ActionDraft {
  return { id: action.id, name: action.name, gas: String(action.gas), txBytes: String(action.txBytes) };
}

/**
 * The draft as the action to store, checked with the settings' schema of one action; `takenIds` are the ids of the
 * user's other actions (an id of a default action is allowed: the user's replaces that default). Gas and size may be
 * written with thousands separators ("65,000").
 */
export function checkActionDraft(draft: ActionDraft, takenIds: readonly string[]): ActionCheck {
  const problems: ActionProblems = {};
  const gas = wholeNumber(draft.gas);
  const txBytes = wholeNumber(draft.txBytes);
  if (gas === undefined) problems.gas = 'is a whole number of gas, like "65000"';
  if (txBytes === undefined) problems.txBytes = 'is a whole number of bytes, like "180"';
  const id = draft.id.trim();
  if (takenIds.includes(id)) problems.id = `"${id}" is the id of another of your actions: choose another`;
  const candidate = { id, name: draft.name.trim(), gas: gas ?? 0, txBytes: txBytes ?? 0 };
  const parsed = actionSettingsSchema.safeParse(candidate);
  for (const issue of parsed.error?.issues ?? []) {
    const field = issue.path[0];
    if ((ACTION_DRAFT_FIELDS as readonly unknown[]).includes(field)) problems[field as ActionDraftField] ??= issue.message;
  }
  return Object.keys(problems).length === 0 && parsed.success ? { ok: true, action: parsed.data } : { ok: false, problems };
}

/** The currency as typed ("eur" is "EUR"), or the schema's words for what is wrong with it. */
export function checkCurrency(text: string): { readonly ok: true; readonly currency: string } | { readonly ok: false; readonly problem: string } {
  const parsed = currencySchema.safeParse(text.trim().toUpperCase());
  return parsed.success ? { ok: true, currency: parsed.data } : { ok: false, problem: parsed.error.issues[0]?.message ?? "is not a currency" };
}

function wholeNumber(text: string): number | undefined {
  const digits = text.trim().replace(/[,_ ]/g, "");
  if (!/^[0-9]{1,12}$/.test(digits)) return undefined;
  return Number(digits);
}
