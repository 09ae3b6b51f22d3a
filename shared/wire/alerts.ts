// The alerts as the API writes them: `event: alert` on the event streams and the webhook's body, and `GET /alerts`
// (CONTRACT.md, "Alerts").
import { z } from "zod";
import { gweiStringSchema } from "./apiBodies.ts";

const blockNumberSchema = z.string().regex(/^[0-9]+$/);

/** The SSE event name of an AlertEvent. */
export const ALERT_EVENT_NAME = "alert";

/**
 * One firing of a rule, delivered to every channel at once. The webhook's POST body is exactly this: the contract's
 * fields, plus a sentence in `text` (Slack, Mattermost, Teams) and `content` (Discord), so that a chat's incoming-webhook
 * URL can take it as it is.
 */
export const alertEventSchema = z
  .strictObject({
    ruleId: z.string().describe("The rule's id; the built-in rules are busy:<chainId> and calm:<chainId>."),
    chainId: z.number().int().positive(),
    chainName: z.string(),
    block: blockNumberSchema.describe("The chain's newest block when the rule fired."),
    baseFee: gweiStringSchema.describe(
      "The chain's current base fee then, in Gwei: the next block's, which a transaction sent now pays (what the rule and the Busy badge compare).",
    ),
    threshold: gweiStringSchema.describe("The rule's threshold then, in Gwei (for a percentile rule, the percentile over its window ending at that block)."),
    when: z.enum(["below", "above"]),
    firedAt: z.iso.datetime().describe("When the alert was delivered (ISO 8601, UTC)."),
    text: z.string().describe("The alert in one sentence, as the desktop notification says it."),
    content: z.string().describe("The same sentence, under the name Discord's webhooks read."),
  })
  .readonly();

/** Why a rule is not watching right now (its state is kept as it was); null while it is. */
export const alertPauseSchema = z
  .enum(["disabled", "no data", "degraded", "no threshold", "no price"])
  .nullable()
  .describe(
    "disabled: turned off in the settings (or notifications are off, for the built-in rules); no data: the chain has none yet; degraded: every RPC endpoint fails and the data is stale, so nothing fires; no threshold: the window holds no blocks yet; no price: a money rule's chain has no usable price (see its priceProblem in /networks).",
  );

export const alertRuleStatusSchema = z
  .strictObject({
    id: z.string(),
    label: z.string().nullable(),
    builtIn: z.enum(["busy", "calm"]).nullable().describe("Which built-in rule (the busy/calm notifications), or null for the user's own."),
    chainId: z.number().int().positive(),
    chainName: z.string(),
    when: z.enum(["below", "above"]),
    gwei: gweiStringSchema.nullable().describe("The fixed threshold, or null for a percentile rule."),
    percentile: z.number().int().min(1).max(99).nullable(),
    window: z.string().nullable().describe('The percentile\'s window ("24h", "7d", "7200 blocks"), or null for a fixed threshold.'),
    fiat: z.string().nullable().describe('A money rule\'s amount in the currency ("1.50"), or null.'),
    action: z.string().nullable().describe("A money rule's action (its id), whose medium-tier cost is compared; null for a fee rule."),
    forBlocks: z.number().int().min(1),
    cooldownMinutes: z.number().min(0),
    enabled: z.boolean(),
    webhook: z.string().nullable().describe("Where the webhook posts, as its origin only (its path may hold a secret); null without one."),
    state: z.enum(["armed", "firing"]).describe("armed: waiting for the condition; firing: it fired (or held at start) and waits to re-arm."),
    paused: alertPauseSchema,
    threshold: gweiStringSchema.nullable().describe("The threshold now, in Gwei (a percentile rule's moves with its window); null without data."),
    thresholdBlocks: z.number().int().min(0).nullable().describe("The blocks a percentile rule's threshold is over now; null for a fixed threshold."),
    pendingUntil: z.iso.datetime().nullable().describe("A crossing held back by the cooldown: delivered then if the condition still holds; null when none is."),
    lastFired: z.strictObject({ at: z.iso.datetime(), block: blockNumberSchema, baseFee: gweiStringSchema, threshold: gweiStringSchema }).readonly().nullable(),
    lastWebhook: z
      .strictObject({ at: z.iso.datetime(), ok: z.boolean(), detail: z.string() })
      .readonly()
      .nullable()
      .describe("The last webhook delivery's outcome (after its retries); null before any."),
  })
  .readonly();

/** A rule of the settings that was refused: which one, which field, and why. The other rules still run. */
export const alertRuleProblemSchema = z
  .strictObject({
    rule: z.string().describe('The rule\'s id, or "#<n>" (its 1-based place in the settings) when it has none.'),
    field: z.string().describe('The field at fault, like "percentile" or "webhookUrl"; "(rule)" for the rule as a whole.'),
    message: z.string(),
  })
  .readonly();

export const alertsBodySchema = z
  .strictObject({
    rules: z.array(alertRuleStatusSchema).readonly(),
    problems: z.array(alertRuleProblemSchema).readonly(),
  })
  .readonly();

export type AlertEvent = z.infer<typeof alertEventSchema>;
export type AlertPause = z.infer<typeof alertPauseSchema>;
export type AlertRuleStatus = z.infer<typeof alertRuleStatusSchema>;
export type AlertRuleProblem = z.infer<typeof alertRuleProblemSchema>;
export type AlertsBody = z.infer<typeof alertsBodySchema>;
