// The hosted Gas API's network lists (CONTRACT.md, "Beyond the specification"): GET /v1/supportedNetworks and
// GET /v1/supportedChainNames, in the hosted service's shapes, so that its clients read ours unchanged.
import { z } from "zod";

const chainIdSchema = z.number().int().min(1);

export const supportedNetworksSchema = z
  .strictObject({
    fullSupport: z.array(chainIdSchema).readonly().describe("The chains with base-fee data now, in the configured order."),
    partialSupport: z
      .record(z.string(), z.array(chainIdSchema).readonly())
      .describe("Groups of chains with partial support, by group name (the hosted service's `optimism`, say): none here."),
  })
  .readonly()
  .describe("The chains every fee endpoint answers for now, as the hosted Gas API lists its networks.");

export const supportedChainNamesSchema = z
  .record(z.string().regex(/^[1-9][0-9]*$/), z.string())
  .describe("Every configured chain's name, by its decimal chain id.");

export type SupportedNetworksBody = z.infer<typeof supportedNetworksSchema>;
export type SupportedChainNamesBody = z.infer<typeof supportedChainNamesSchema>;
