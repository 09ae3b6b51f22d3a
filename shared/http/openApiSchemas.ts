import { API_ERRORS } from "./apiErrors.ts";

/** A JSON Schema (2020-12, as OpenAPI 3.1 uses it), kept loose: these are data, checked by the OpenAPI test. */
export type JsonSchema = { readonly [keyword: string]: unknown };

/** The names of `components.schemas`: the response bodies of the API. */
export type OpenApiSchemaName =
  | "GweiString"
  | "Health"
  | "BusyThreshold"
  | "BaseFeePercentile"
  | "BaseFeeHistory"
  | "SuggestedGasFees"
  | "EndpointStatus"
  | "NetworkStatus"
  | "Networks"
  | "OpenApiDocument"
  | "Error";

const ref = (name: OpenApiSchemaName) => ({ $ref: `#/components/schemas/${name}` });
const nullable = (schema: JsonSchema): JsonSchema => ({ oneOf: [schema, { type: "null" }] });
const object = (properties: Record<string, JsonSchema>, description?: string): JsonSchema => ({
  type: "object",
  ...(description ? { description } : {}),
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});
const range = (description: string): JsonSchema => ({
  type: "array",
  description,
  prefixItems: [ref("GweiString"), ref("GweiString")],
  items: false,
  minItems: 2,
  maxItems: 2,
});
const trend: JsonSchema = { type: "string", enum: ["up", "down", "level"] };
const level = (name: string): JsonSchema =>
  object(
    {
      suggestedMaxPriorityFeePerGas: { ...ref("GweiString"), description: "The tip (maxPriorityFeePerGas) to offer, in Gwei." },
      suggestedMaxFeePerGas: { ...ref("GweiString"), description: "The max fee (maxFeePerGas), in Gwei: at least the estimated base fee plus the tip." },
      minWaitTimeEstimate: { type: "integer", minimum: 0, description: "Milliseconds." },
      maxWaitTimeEstimate: { type: "integer", minimum: 0, description: "Milliseconds." },
    },
    `The ${name} level.`,
  );

/** The response bodies of the API, by name: `components.schemas` of the OpenAPI description. */
export const OPENAPI_SCHEMAS: Readonly<Record<OpenApiSchemaName, JsonSchema>> = {
  GweiString: {
    type: "string",
    description: "A fee in Gwei, written exactly from the integer wei value: at most 9 decimals, no exponent, no trailing zeros.",
    pattern: "^(0|[1-9][0-9]*)(\\.[0-9]{0,8}[1-9])?$",
    examples: ["37.378956101", "0.000000001", "2"],
  },
  Health: object({ status: { const: "ok" } }),
  BusyThreshold: object({ busyThreshold: ref("GweiString") }),
  BaseFeePercentile: object({ baseFeePercentile: ref("GweiString") }),
  BaseFeeHistory: {
    type: "array",
    description: "The base fees of the newest 500 mined blocks (fewer on a young chain), oldest first, one per block.",
    items: ref("GweiString"),
    minItems: 1,
    maxItems: 500,
  },
  SuggestedGasFees: object(
    {
      low: level("low"),
      medium: level("medium"),
      high: level("high"),
      estimatedBaseFee: { ...ref("GweiString"), description: "The next block's base fee." },
      networkCongestion: {
        type: "number",
        minimum: 0,
        maximum: 1,
        description: "Where the current base fee stands among the statistics window's base fees (mid-rank).",
      },
      latestPriorityFeeRange: range("The newest block's smallest and largest tip."),
      historicalPriorityFeeRange: range("The smallest and largest tip of the recent blocks."),
      historicalBaseFeeRange: range("The lowest and highest base fee of the statistics window."),
      priorityFeeTrend: trend,
      baseFeeTrend: trend,
    },
    "The hosted Gas API's suggestedGasFees: three levels of tips and max fees, with the state of the fee market.",
  ),
  EndpointStatus: {
    type: "object",
    properties: {
      url: { type: "string", description: "Redacted: no credentials, no path secrets." },
      transport: { type: "string", enum: ["http", "ws"] },
      state: { type: "string", enum: ["unknown", "ok", "failing", "wrong-chain"] },
      active: { type: "boolean" },
      lastError: { type: "string" },
      reportedChainId: { type: "integer" },
      retryAt: { type: "integer", description: "Epoch ms of the next attempt while failing." },
    },
    required: ["url", "transport", "state", "active"],
  },
  NetworkStatus: {
    type: "object",
    properties: {
      chainId: { type: "integer", minimum: 1 },
      name: { type: "string" },
      state: { type: "string", enum: ["syncing", "ok", "degraded", "no-base-fee"] },
      newestBlock: nullable({ type: "string", pattern: "^[0-9]+$" }),
      currentBaseFee: nullable(ref("GweiString")),
      baseFeePercentile: nullable(ref("GweiString")),
      busyThreshold: nullable(ref("GweiString")),
      minBaseFee: nullable(ref("GweiString")),
      maxBaseFee: nullable(ref("GweiString")),
      busy: nullable({ type: "boolean" }),
      historyBlocks: { type: "integer", minimum: 0 },
      statsWindowBlocks: { type: "integer", minimum: 1 },
      blockTimeMs: { type: "integer", minimum: 1 },
      dataAgeMs: nullable({ type: "integer", minimum: 0 }),
      endpoints: { type: "array", items: ref("EndpointStatus") },
    },
    required: ["chainId", "name", "state", "newestBlock", "currentBaseFee", "busy", "historyBlocks", "endpoints"],
  },
  Networks: { type: "array", items: ref("NetworkStatus") },
  OpenApiDocument: { type: "object", description: "This document.", required: ["openapi", "info", "paths"] },
  Error: {
    type: "object",
    description: "Every error: the hosted service's shape plus a stable machine code.",
    properties: {
      statusCode: { type: "integer" },
      code: { type: "string", enum: Object.keys(API_ERRORS) },
      message: { type: "string", description: "What went wrong and what to do next." },
    },
    required: ["statusCode", "code", "message"],
    additionalProperties: false,
  },
};
