// hourlyStats: a chain's hourly summaries, kept for a year (CONTRACT.md, "Outlook: wait or pay now").
import { z } from "zod";
import { gweiStringSchema } from "./apiBodies.ts";

export const hourlyStatsRowSchema = z
  .strictObject({
    start: z.number().int().describe("Unix seconds, the hour's start (a multiple of 3600)."),
    blocks: z.number().int().min(1).describe("The blocks the summary was built from."),
    sampled: z.boolean().describe("True when built from a sample of the hour's blocks (a fast chain's outlook backfill)."),
    min: gweiStringSchema,
    p10: gweiStringSchema,
    p50: gweiStringSchema,
    p90: gweiStringSchema,
    max: gweiStringSchema,
    last: gweiStringSchema.describe("The base fee of the hour's newest block seen."),
  })
  .readonly();

export const hourlyStatsSchema = z
  .array(hourlyStatsRowSchema)
  .readonly()
  .describe("The chain's hourly base-fee summaries, oldest first; an hour without a summary is missing, never invented.");

/** The CSV's header, in the JSON's field order. */
export const HOURLY_STATS_CSV_HEADER = "start,blocks,sampled,min_gwei,p10_gwei,p50_gwei,p90_gwei,max_gwei,last_gwei";

export type HourlyStatsRow = z.infer<typeof hourlyStatsRowSchema>;
export type HourlyStats = z.infer<typeof hourlyStatsSchema>;
