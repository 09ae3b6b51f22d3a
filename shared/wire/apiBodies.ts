// The bodies of the API's answers, in the contract's exact shapes (CONTRACT.md): the one source of their TypeScript
// types, of their JSON Schemas in the OpenAPI description, and of the checks that tests run on live answers.
import { z } from "zod";
import { HISTORY_BLOCKS } from "../core/fees/historyLength.ts";
import { TRENDS } from "../core/fees/suggestedGasFees.ts";

/** A fee in Gwei, written exactly from the integer wei value: shortest decimal, at most 9 decimals, no exponent. */
export const gweiStringSchema = z
  .string()
  .regex(/^(0|[1-9][0-9]*)(\.[0-9]{0,8}[1-9])?$/)
  .describe("A fee in Gwei, written exactly from the integer wei value: at most 9 decimals, no exponent, no trailing zeros.");

export const healthSchema = z.strictObject({ status: z.literal("ok") }).readonly();

export const busyThresholdSchema = z.strictObject({ busyThreshold: gweiStringSchema }).readonly();

export const baseFeePercentileSchema = z.strictObject({ baseFeePercentile: gweiStringSchema }).readonly();

export const baseFeeHistorySchema = z
  .array(gweiStringSchema)
  .min(1)
  .max(HISTORY_BLOCKS)
  .readonly()
  .describe(`The base fees of the newest ${HISTORY_BLOCKS} mined blocks (fewer on a young chain), oldest first, one per block.`);

export const blobBusyThresholdSchema = z.strictObject({ blobBusyThreshold: gweiStringSchema }).readonly();

export const blobBaseFeePercentileSchema = z.strictObject({ blobBaseFeePercentile: gweiStringSchema }).readonly();

export const blobBaseFeeHistorySchema = z
  .array(gweiStringSchema)
  .min(1)
  .max(HISTORY_BLOCKS)
  .readonly()
  .describe(`The blob base fees (EIP-4844) of the newest ${HISTORY_BLOCKS} mined blocks (fewer on a young chain), oldest first, one per block.`);

const trendSchema = z.enum(TRENDS);

const levelSchema = (name: string) =>
  z
    .strictObject({
      suggestedMaxPriorityFeePerGas: gweiStringSchema.describe("The tip (maxPriorityFeePerGas) to offer, in Gwei."),
      suggestedMaxFeePerGas: gweiStringSchema.describe("The max fee (maxFeePerGas), in Gwei: at least the estimated base fee plus the tip."),
      minWaitTimeEstimate: z.number().int().min(0).describe("Milliseconds."),
      maxWaitTimeEstimate: z.number().int().min(0).describe("Milliseconds."),
    })
    .readonly()
    .describe(`The ${name} level.`);

const rangeSchema = (description: string) => z.tuple([gweiStringSchema, gweiStringSchema]).readonly().describe(description);

export const suggestedGasFeesSchema = z
  .strictObject({
    low: levelSchema("low"),
    medium: levelSchema("medium"),
    high: levelSchema("high"),
    estimatedBaseFee: gweiStringSchema.describe("The next block's base fee."),
    networkCongestion: z.number().min(0).max(1).describe("Where the current base fee stands among the statistics window's base fees (mid-rank)."),
    latestPriorityFeeRange: rangeSchema("The newest block's smallest and largest tip."),
    historicalPriorityFeeRange: rangeSchema("The smallest and largest tip of the recent blocks."),
    historicalBaseFeeRange: rangeSchema("The lowest and highest base fee of the statistics window."),
    priorityFeeTrend: trendSchema,
    baseFeeTrend: trendSchema,
  })
  .readonly()
  .describe("The hosted Gas API's suggestedGasFees: three levels of tips and max fees, with the state of the fee market.");

export type Trend = z.infer<typeof trendSchema>;
export type SuggestedGasFeesBody = z.infer<typeof suggestedGasFeesSchema>;
export type LevelBody = SuggestedGasFeesBody["low"];
export type BusyThreshold = z.infer<typeof busyThresholdSchema>;
export type BaseFeePercentile = z.infer<typeof baseFeePercentileSchema>;
export type BlobBusyThreshold = z.infer<typeof blobBusyThresholdSchema>;
export type BlobBaseFeePercentile = z.infer<typeof blobBaseFeePercentileSchema>;

/**
 * What the dashboard shows in its API panel: one of the user's own keys (never the dashboard's token), so that a
 * copied command keeps working after the token is rotated. Only the dashboard's token may ask.
 */
export const dashboardCredentialsSchema = z
  .strictObject({
    apiKey: z.string().nullable().describe("A key of the user's, or null when the service holds none that it can show."),
    apiKeySecret: z.string().optional().describe("The key's secret, when the key requires one (send both with HTTP Basic)."),
    askedWithApiKey: z
      .literal(true)
      .optional()
      .describe("Asked with one of the user's API keys, not the dashboard's token: no key is shown (apiKey null); the page shows the key it was opened with."),
  })
  .readonly();

export type DashboardCredentials = z.infer<typeof dashboardCredentialsSchema>;
