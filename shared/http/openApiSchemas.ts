import { z } from "zod";
import { costsSchema, priceHistorySchema } from "../wire/costs.ts";
import {
  baseFeeHistorySchema,
  baseFeePercentileSchema,
  blobBaseFeeHistorySchema,
  blobBaseFeePercentileSchema,
  blobBusyThresholdSchema,
  busyThresholdSchema,
  dashboardCredentialsSchema,
  gweiStringSchema,
  healthSchema,
  suggestedGasFeesSchema,
} from "../wire/apiBodies.ts";
import { alertEventSchema, alertsBodySchema } from "../wire/alerts.ts";
import { baseFeeStatsSchema } from "../wire/baseFeeStats.ts";
import { outlookBodySchema } from "../wire/outlook.ts";
import { hourlyStatsSchema } from "../wire/hourlyStats.ts";
import { endpointStatusSchema, networksSchema, networkStatusSchema } from "../wire/networkStatus.ts";
import { supportedChainNamesSchema, supportedNetworksSchema } from "../wire/supportedNetworks.ts";
import { API_ERRORS } from "./apiErrors.ts";

/** A JSON Schema (2020-12, as OpenAPI 3.1 uses it), kept loose: these are data, checked by the OpenAPI test. */
export type JsonSchema = { readonly [keyword: string]: unknown };

/** The response bodies of the API, by their names in `components.schemas`: the wire contract's zod schemas. */
const WIRE_SCHEMAS = {
  GweiString: gweiStringSchema,
  Health: healthSchema,
  BusyThreshold: busyThresholdSchema,
  BaseFeePercentile: baseFeePercentileSchema,
  BaseFeeHistory: baseFeeHistorySchema,
  BlobBusyThreshold: blobBusyThresholdSchema,
  BlobBaseFeePercentile: blobBaseFeePercentileSchema,
  BlobBaseFeeHistory: blobBaseFeeHistorySchema,
  SuggestedGasFees: suggestedGasFeesSchema,
  EndpointStatus: endpointStatusSchema,
  NetworkStatus: networkStatusSchema,
  Networks: networksSchema,
  DashboardCredentials: dashboardCredentialsSchema,
  SupportedNetworks: supportedNetworksSchema,
  SupportedChainNames: supportedChainNamesSchema,
  BaseFeeStats: baseFeeStatsSchema,
  HourlyStats: hourlyStatsSchema,
  Costs: costsSchema,
  PriceHistory: priceHistorySchema,
  Outlook: outlookBodySchema,
  Alerts: alertsBodySchema,
  /** Not a response of its own: the data of an event stream's `event: alert`, and a webhook's POST body. */
  AlertEvent: alertEventSchema,
} as const;

/** The names of `components.schemas`. */
export type OpenApiSchemaName = keyof typeof WIRE_SCHEMAS | "OpenApiDocument" | "Error";

/**
 * `components.schemas` of the OpenAPI description: JSON Schemas generated from the wire contract (so the description
 * cannot drift from the types the server and the dashboard use), each schema used by another referenced by name.
 */
export function openApiSchemas(): Record<OpenApiSchemaName, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(WIRE_SCHEMAS)) registry.add(schema, { id });
  const generated = z.toJSONSchema(registry, { target: "draft-2020-12", uri: (id) => `#/components/schemas/${id}` }).schemas;
  const schemas: Record<string, JsonSchema> = {};
  for (const [id, schema] of Object.entries(generated)) {
    // Each is a component of one document, not a document of its own.
    const { $schema: _schema, $id: _id, ...component } = schema as Record<string, unknown>;
    schemas[id] = component;
  }
  return {
    ...(schemas as Record<keyof typeof WIRE_SCHEMAS, JsonSchema>),
    OpenApiDocument: { type: "object", description: "This document.", required: ["openapi", "info", "paths"] },
    Error: {
      type: "object",
      description: "Every error: the hosted service's shape plus a stable machine code.",
      properties: {
        statusCode: { type: "integer" },
        code: { type: "string", enum: Object.keys(API_ERRORS) },
        message: { type: "string", description: "What went wrong and what to do next." },
        held: { type: "string", description: "NOT_ENOUGH_HISTORY only: the hourly summaries held, as a duration (9d, 200h)." },
        needed: { type: "string", description: "NOT_ENOUGH_HISTORY only: the summaries the outlook needs (14d)." },
      },
      required: ["statusCode", "code", "message"],
      additionalProperties: false,
    },
  };
}
