// The outlook: the chance that waiting gets a lower base fee, with its track record (CONTRACT.md, "Outlook: wait or pay now").
import { z } from "zod";
import { gweiStringSchema } from "./apiBodies.ts";

/** The shortest and longest horizon `within` may ask, in hours. */
export const OUTLOOK_MIN_WITHIN_HOURS = 1;
export const OUTLOOK_MAX_WITHIN_HOURS = 168;
/** The summaries an outlook needs before it answers. */
export const OUTLOOK_NEEDED_DAYS = 14;

const probabilitySchema = z.number().min(0).max(1);

export const reliabilityBinSchema = z
  .strictObject({
    from: probabilitySchema,
    to: probabilitySchema,
    forecasts: z.number().int().min(0),
    meanProbability: probabilitySchema.nullable().describe("null when the bin holds no forecast."),
    observed: probabilitySchema.nullable().describe("The share of the bin's forecasts whose event happened; null when empty."),
  })
  .readonly();

export const outlookBacktestSchema = z
  .strictObject({
    forecasts: z.number().int().min(0),
    brier: z.number().min(0).max(1).nullable(),
    brierClimatology: z.number().min(0).max(1).nullable(),
    skill: z.number().max(1).nullable().describe("1 - brier / brierClimatology; null without forecasts."),
    reliability: z.array(reliabilityBinSchema).length(10).readonly(),
  })
  .readonly();

export const outlookBodySchema = z
  .strictObject({
    chainId: z.string().regex(/^[0-9]+$/),
    at: z.strictObject({ block: z.string().regex(/^[0-9]+$/), timestamp: z.number().int(), baseFee: gweiStringSchema }).readonly(),
    within: z.string().describe("The horizon asked, as a duration."),
    lowest: z.strictObject({ p10: gweiStringSchema, p50: gweiStringSchema, p90: gweiStringSchema }).readonly(),
    below: z
      .strictObject({ baseFee: gweiStringSchema, probability: probabilitySchema })
      .readonly()
      .nullable()
      .describe("The chance that the lowest base fee within H is at or below the threshold; null when none was asked."),
    basis: z
      .strictObject({
        from: z.number().int(),
        to: z.number().int(),
        hours: z.number().int().min(0),
        sampledHours: z.number().int().min(0),
        weeks: z.number().min(0),
      })
      .readonly(),
    backtest: outlookBacktestSchema,
  })
  .readonly();

export const notEnoughHistoryBodySchema = z
  .strictObject({
    statusCode: z.literal(422),
    code: z.literal("NOT_ENOUGH_HISTORY"),
    message: z.string(),
    held: z.string(),
    needed: z.literal("14d"),
  })
  .readonly();

export type ReliabilityBin = z.infer<typeof reliabilityBinSchema>;
export type OutlookBacktest = z.infer<typeof outlookBacktestSchema>;
export type OutlookBody = z.infer<typeof outlookBodySchema>;
