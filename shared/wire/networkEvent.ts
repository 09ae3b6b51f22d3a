// One Server-Sent Event of `GET /events` and `GET /networks/{chainId}/events` (event name `network`).
import { z } from "zod";
import { HISTORY_BLOCKS } from "../core/fees/historyLength.ts";
import { gweiStringSchema } from "./apiBodies.ts";
import { networkStatusSchema } from "./networkStatus.ts";

/** Consecutive blocks' base fees, oldest first, in Gwei strings as the API writes them. */
export const blockRunSchema = z
  .strictObject({
    kind: z
      .enum(["all", "from"])
      .describe(
        `all: these are the whole history (the first event with data, or after a change deeper than the history); from: keep the blocks before firstBlock, replace the rest by these, then keep the newest ${HISTORY_BLOCKS}.`,
      ),
    firstBlock: z
      .string()
      .regex(/^[0-9]+$/)
      .describe("The block number of baseFees[0]."),
    baseFees: z.array(gweiStringSchema).readonly(),
    blobBaseFees: z
      .array(gweiStringSchema.nullable())
      .readonly()
      .optional()
      .describe("On a chain with blob fees: each block's blob base fee (null where not known), one per base fee."),
    blobGasUsedRatios: z
      .array(z.number().min(0).max(1).nullable())
      .readonly()
      .optional()
      .describe("On a chain with blob fees: each block's blob gas used over its maximum (null where not known), one per base fee."),
  })
  .readonly();

/**
 * The first event of a stream for a chain carries its whole state; each later one what changed since the previous
 * event of the same stream for that chain.
 */
export const networkEventSchema = z
  .strictObject({
    status: networkStatusSchema.describe("The chain's state as GET /networks reports it, at the time of the event."),
    blocks: blockRunSchema
      .nullable()
      .describe("The blocks that changed since the previous event of this stream for this chain; null when only the status changed."),
  })
  .readonly();

export type BlockRun = z.infer<typeof blockRunSchema>;
export type NetworkEvent = z.infer<typeof networkEventSchema>;
