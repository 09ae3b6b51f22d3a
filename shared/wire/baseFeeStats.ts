// baseFeeStats: the held history summarised in time buckets (CONTRACT.md, "Beyond the specification").
import { z } from "zod";
import { gweiStringSchema } from "./apiBodies.ts";

/** The most buckets one request may ask for. */
export const MAX_STATS_BUCKETS = 2_000;

/** The percentiles each bucket carries besides min and max, nearest-rank over the bucket's blocks. */
export const BUCKET_PERCENTILES = [10, 25, 50, 75, 90] as const;

const blockNumberSchema = z.string().regex(/^[0-9]+$/);

export const baseFeeStatsBucketSchema = z
  .strictObject({
    start: z.number().int().describe("Unix seconds, inclusive."),
    end: z.number().int().describe("Unix seconds, exclusive (the last bucket's end is inclusive)."),
    blocks: z.number().int().min(0).describe("Blocks held whose timestamps lie in the bucket; 0 leaves out every other field but start and end."),
    fromBlock: blockNumberSchema.optional(),
    toBlock: blockNumberSchema.optional(),
    min: gweiStringSchema.optional(),
    p10: gweiStringSchema.optional(),
    p25: gweiStringSchema.optional(),
    p50: gweiStringSchema.optional(),
    p75: gweiStringSchema.optional(),
    p90: gweiStringSchema.optional(),
    max: gweiStringSchema.optional(),
  })
  .readonly();

export const baseFeeStatsSchema = z
  .array(baseFeeStatsBucketSchema)
  .min(1)
  .max(MAX_STATS_BUCKETS)
  .readonly()
  .describe("The held history in time buckets, oldest first, nearest-rank percentiles over each bucket's blocks.");

export type BaseFeeStatsBucket = z.infer<typeof baseFeeStatsBucketSchema>;
export type BaseFeeStats = z.infer<typeof baseFeeStatsSchema>;
