import { z } from "zod";
import { webhookUrlProblem } from "../core/alerts/webhookUrl.ts";
import { parseGweiAmount } from "../core/fees/parseGweiAmount.ts";
import { parseWindowSpec } from "../core/history/duration.ts";

// The schema of one alert rule as the settings file holds it (CONTRACT.md "Alerts"): the contract between the settings
// page, which checks an edited rule with it before sending, and the main process, which checks it again
// (shared/alerts/loadAlertRules.ts adds what needs the followed chains). It needs zod and shared/core only.

/** The fields of a rule, in the order a problem list and the settings page name them. */
export const ALERT_RULE_FIELDS = [
  "id",
  "chainId",
  "when",
  "fee",
  "gwei",
  "percentile",
  "window",
  "fiat",
  "action",
  "forBlocks",
  "cooldownMinutes",
  "enabled",
  "webhookUrl",
  "label",
] as const;

/** A value as a problem quotes it: at most 40 characters, so that a long text does not drown the message. */
export function shownValue(value: unknown): string {
  let text: string;
  try {
    text = value === undefined ? "nothing" : (JSON.stringify(value) ?? typeof value);
  } catch {
    text = typeof value; // a bigint, or an object that refers to itself: not from a JSON file
  }
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

/** One message per field whatever zod found wrong: what the field must be, and what it got (or that it is missing). */
function fieldError(mustBe: string): (issue: { readonly input?: unknown }) => string {
  return (issue) => (issue.input === undefined ? `is missing: it ${mustBe}` : `${mustBe} (got ${shownValue(issue.input)})`);
}

function numberIn(min: number, max: number, mustBe: string, whole: boolean) {
  const error = fieldError(mustBe);
  const number = z.number({ error }).min(min, { error }).max(max, { error });
  return whole ? number.int({ error }) : number;
}

const ID_MUST_BE = 'must be 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit, like "cheap-eth"';
/** What a rule's id may be; the built-in rules' ids (`busy:1`) hold a colon, so that no user rule can take one. */
export const ALERT_RULE_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** An amount of money as a rule writes it: a whole part of at most 12 digits and at most 8 decimals. */
export const FIAT_PATTERN = /^(0|[1-9][0-9]{0,11})(\.[0-9]{1,8})?$/;
const WINDOW_MUST_BE = 'must be a duration like "24h" or "7d", or a count of blocks like "7200 blocks"';

/**
 * One alert rule as the settings file holds it, with its defaults filled in. What it cannot check alone (is its chain
 * followed, does the chain's history reach back over its window, is its id unique) `loadAlertRules` checks.
 */
export const alertRuleSettingsSchema = z
  .strictObject({
    id: z.string({ error: fieldError(ID_MUST_BE) }).regex(ALERT_RULE_ID_PATTERN, { error: fieldError(ID_MUST_BE) }),
    chainId: numberIn(1, Number.MAX_SAFE_INTEGER, "must be the id of a followed chain, a whole number like 1 (Ethereum) or 8453 (Base)", true),
    when: z.enum(["below", "above"], { error: fieldError('must be "below" or "above"') }),
    /** Which fee the rule compares: the base fee (when absent) or the blob base fee (EIP-4844), with its own percentiles. */
    fee: z.enum(["base", "blob"], { error: fieldError('must be "base" (the base fee, the default) or "blob" (the blob base fee)') }).optional(),
    /** A fixed threshold in Gwei: a decimal string (or number), 0 or more, at most 9 decimals; exact in wei. */
    gwei: z
      .union([z.string(), z.number()], { error: fieldError('must be a fee in Gwei, like "8" or "0.25"') })
      .superRefine((gwei, context) => {
        const amount = parseGweiAmount(gwei);
        if ("problem" in amount) context.addIssue({ code: "custom", message: amount.problem, input: gwei });
      })
      .optional(),
    /** A threshold relative to the chain's own base fees: this percentile (nearest rank) over `window`. */
    percentile: numberIn(1, 99, "must be a whole number from 1 to 99 (like 20: a fee only a fifth of the window's blocks were at or below)", true).optional(),
    /** The percentile's window, ending at the newest block; default the chain's statistics window. */
    window: z
      .string({ error: fieldError(WINDOW_MUST_BE) })
      .refine((text) => parseWindowSpec(text) !== undefined, { error: fieldError(WINDOW_MUST_BE) })
      .optional(),
    /**
     * A threshold in money: the cost of `action` at the medium tier (as /costs gives it) compared with this amount of
     * the settings' currency, a decimal string like "1.50".
     */
    fiat: z
      .string({ error: fieldError('must be an amount of money in quotes, like "1.50"') })
      .regex(FIAT_PATTERN, { error: fieldError('must be an amount of money in quotes, like "1.50" (at most 8 decimals)') })
      .refine((text) => /[1-9]/.test(text), { error: fieldError("must be more than 0") })
      .optional(),
    /** The action whose cost a `fiat` rule compares: the id of a default action (transfer, erc20-transfer, swap, nft-transfer) or one of the settings' own. */
    action: z
      .string({ error: fieldError('must be the id of an action, like "swap"') })
      .regex(/^[a-z0-9][a-z0-9-]{0,31}$/, { error: fieldError('must be the id of an action, like "swap"') })
      .optional(),
    /** The condition must hold for this many new blocks in a row; once fired, be false as long to re-arm. */
    forBlocks: numberIn(1, 1000, "must be a whole number of blocks from 1 to 1000", true).default(1),
    cooldownMinutes: numberIn(0, 24 * 60, "must be a number of minutes from 0 to 1440 (a day)", false).default(15),
    enabled: z.boolean({ error: fieldError("must be true or false") }).default(true),
    webhookUrl: z
      .string({ error: fieldError('must be a URL in quotes, like "https://hooks.example.com/..."') })
      .superRefine((url, context) => {
        const problem = webhookUrlProblem(url);
        if (problem !== undefined) context.addIssue({ code: "custom", message: problem, input: url });
      })
      .optional(),
    /** A name for notifications and lists. */
    label: z
      .string({ error: fieldError("must be a text of at most 64 characters") })
      .max(64, { error: fieldError("must be a text of at most 64 characters") })
      .optional(),
  })
  .superRefine(
    (rule, context) => {
      // Read from what was given (a field with a problem of its own may be absent), so that the threshold's problems
      // are told together with the others rather than after they are fixed.
      if (typeof rule !== "object" || rule === null) return;
      const has = (field: string) => (rule as Record<string, unknown>)[field] !== undefined;
      const thresholds = ["gwei", "percentile", "fiat"].filter(has);
      if (thresholds.length > 1) {
        context.addIssue({
          code: "custom",
          path: [thresholds[1]!],
          message: `cannot be set together with ${thresholds[0]}: a rule compares with a fixed fee (gwei), a percentile of the chain's history, or an action's cost in money (fiat); keep one`,
        });
      } else if (thresholds.length === 0) {
        context.addIssue({
          code: "custom",
          path: ["gwei"],
          message:
            'is missing: a rule needs a threshold, either gwei (a fixed fee, like "8"), percentile (1 to 99, of the chain\'s own base fees) or fiat with action (a cost in money, like "fiat":"1.50","action":"swap")',
        });
      }
      if (has("fiat") && !has("action")) {
        context.addIssue({ code: "custom", path: ["action"], message: 'is missing: a fiat rule names the action whose cost it compares, like "swap"' });
      }
      if (has("fiat") && (rule as Record<string, unknown>)["fee"] === "blob") {
        context.addIssue({
          code: "custom",
          path: ["fee"],
          message:
            'does not apply to a fiat rule: an action\'s cost is its gas at the base fee and tip; remove "fee", or compare the blob base fee with gwei or percentile',
        });
      }
      if (has("action") && !has("fiat")) {
        context.addIssue({ code: "custom", path: ["action"], message: "only applies to a fiat rule: remove it, or give fiat (an amount of money)" });
      }
      if (has("window") && has("gwei") && !has("percentile")) {
        context.addIssue({ code: "custom", path: ["window"], message: "only applies to a percentile: remove it, or use percentile instead of gwei" });
      }
    },
    { when: () => true },
  );

/** One rule as the settings page edits it and the file holds it. */
export type AlertRuleSettingsInput = z.input<typeof alertRuleSettingsSchema>;
export type AlertRuleSettings = z.output<typeof alertRuleSettingsSchema>;
