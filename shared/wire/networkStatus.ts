// The state of the followed chains as `GET /networks`, the event streams and the dashboard carry it.
import { z } from "zod";
import { gweiStringSchema } from "./apiBodies.ts";

export const endpointStatusSchema = z
  .strictObject({
    url: z.string().describe("Redacted: no credentials, no path secrets."),
    transport: z.enum(["http", "ws"]),
    state: z
      .enum(["unknown", "ok", "failing", "wrong-chain"])
      .describe("unknown: not tried yet; ok: answering; failing: backing off until retryAt; wrong-chain: reports another chain id, never used."),
    active: z.boolean(),
    lastError: z.string().optional(),
    reportedChainId: z.number().int().optional(),
    retryAt: z.number().int().optional().describe("Epoch ms of the next attempt while failing."),
  })
  .readonly();

/**
 * syncing: no data yet; unreachable: no data yet and every endpoint fails; ok: following; degraded: every endpoint
 * failing after data arrived, the last data served with its age; no-base-fee: the chain has no EIP-1559 base fee.
 */
export const chainStateSchema = z.enum(["syncing", "unreachable", "ok", "degraded", "no-base-fee"]);

export const networkStatusSchema = z
  .strictObject({
    chainId: z.number().int().min(1),
    name: z.string(),
    state: chainStateSchema,
    newestBlock: z
      .string()
      .regex(/^[0-9]+$/)
      .nullable(),
    currentBaseFee: gweiStringSchema.nullable().describe("The next block's base fee as the RPC reports it, else the newest block's."),
    baseFeePercentile: gweiStringSchema.nullable(),
    busyThreshold: gweiStringSchema.nullable(),
    minBaseFee: gweiStringSchema.nullable(),
    maxBaseFee: gweiStringSchema.nullable(),
    busy: z.boolean().nullable().describe("The current base fee is above the busy threshold; null without data."),
    historyBlocks: z.number().int().min(0),
    statsWindowBlocks: z.number().int().min(1),
    blockTimeMs: z.number().int().min(1),
    dataAgeMs: z.number().int().min(0).nullable().describe("Milliseconds since an RPC endpoint last confirmed the data; null without data."),
    endpoints: z.array(endpointStatusSchema).readonly(),
  })
  .readonly();

export const networksSchema = z.array(networkStatusSchema).readonly();

export type EndpointStatus = z.infer<typeof endpointStatusSchema>;
export type ChainState = z.infer<typeof chainStateSchema>;
export type NetworkStatus = z.infer<typeof networkStatusSchema>;
