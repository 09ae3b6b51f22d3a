import { API_ERRORS, type ApiErrorCode, type ApiErrorDetail } from "./apiErrors.ts";
import { openApiSchemas, type JsonSchema } from "./openApiSchemas.ts";
import type { Route } from "./routeTypes.ts";
import { servedEndpoints } from "./servedEndpoints.ts";

export const OPENAPI_VERSION = "3.1.0";

/** Sample details for the example messages of each error (what a real request could have sent). */
const EXAMPLE_DETAIL: ApiErrorDetail = { chainId: "6001", method: "POST", host: "evil.example:8950", retryAfterSeconds: 1 };
const EXAMPLE_CHAIN_ID_DETAIL: Partial<Record<ApiErrorCode, ApiErrorDetail>> = {
  INVALID_CHAIN_ID: { chainId: "0x1" },
  NO_BASE_FEE: { chainId: "61" },
  NO_BLOB_FEE: { chainId: "8453" },
  NO_DATA: { chainId: "1", retryAfterSeconds: 12 },
  NOT_ENOUGH_HISTORY: { chainId: "8453", held: "9d" },
  INVALID_QUERY: { query: { parameter: "buckets", problem: "is '5000': it must be a whole number from 1 to 2000." } },
};

const PARAMETERS = {
  chainId: {
    name: "chainId",
    in: "path",
    required: true,
    description: "The chain id in decimal, as the hosted Gas API writes it (1, 8453, 11155111): from 1 to 2^53 - 1, no leading zero, no 0x.",
    schema: { type: "string", pattern: "^[1-9][0-9]{0,15}$" },
  },
  apiKey: {
    name: "apiKey",
    in: "path",
    required: true,
    description:
      "An API key that does not require its secret (the hosted service's key-in-path form). A key that requires its secret is refused here (401 SECRET_REQUIRED): use HTTP Basic.",
    schema: { type: "string", minLength: 1 },
  },
} as const;

/** The errors an operation can answer, from what its route is: its parameters and its authentication. */
export function errorCodesOf(route: Route): ApiErrorCode[] {
  const params = pathParameters(route.path);
  const codes: ApiErrorCode[] = ["FORBIDDEN_HOST", "METHOD_NOT_ALLOWED"];
  if (route.auth === "key") {
    codes.push(
      ...(params.includes("apiKey") ? (["INVALID_API_KEY", "SECRET_REQUIRED"] as const) : (["MISSING_API_KEY", "INVALID_API_KEY"] as const)),
      "RATE_LIMITED",
    );
  }
  if (params.includes("chainId")) codes.push("INVALID_CHAIN_ID", "UNSUPPORTED_CHAIN", "NO_BASE_FEE", "NO_DATA");
  if (params.some((name) => name !== "chainId" && name !== "apiKey")) codes.push("NOT_FOUND");
  for (const code of route.extraErrors ?? []) if (!codes.includes(code)) codes.push(code);
  codes.push("INTERNAL_ERROR");
  return codes;
}

/** `{name}` parameters of a path pattern, in order. */
export function pathParameters(path: string): string[] {
  return [...path.matchAll(/\{([A-Za-z][A-Za-z0-9]*)\}/g)].map((match) => match[1]!);
}

/**
 * The OpenAPI 3.1 description of `routes` (the server's one list) and the error table: generated, so that it
 * cannot drift from what the server answers. Each route is one path with a GET operation (HEAD answers alike
 * without a body, OPTIONS answers CORS preflight: said once in the description).
 */
export function openApiDocument(routes: readonly Route[]): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const route of routes) {
    if (paths[route.path] !== undefined) throw new Error(`two routes share the path ${route.path}`);
    paths[route.path] = { get: operationOf(route, routes) };
  }
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: "gasfees local Gas API",
      version: "1",
      description: [
        "Base-fee statistics of the chains gasfees follows, in the shape of the hosted Gas API (https://gas.api.infura.io):",
        "a client written for it works against gasfees by changing only the base URL.",
        "Every fee is a string of Gwei written exactly from the integer wei value.",
        "Authenticate with HTTP Basic (the API key as user name, its secret, if it has one, as password), or put a key",
        "that does not require its secret in the path: /v3/{apiKey}/networks/... (OpenAPI has no security scheme for a",
        "key in the path, so those operations declare the apiKey path parameter instead).",
        "HEAD answers like GET without a body; OPTIONS answers CORS preflight; any other method is 405 METHOD_NOT_ALLOWED.",
        "A path that is none of these is 404 NOT_FOUND.",
      ].join(" "),
    },
    servers: [{ url: "http://127.0.0.1:8950", description: "The default address; the port is configurable." }],
    paths,
    components: {
      schemas: openApiSchemas(),
      parameters: PARAMETERS,
      securitySchemes: {
        basicAuth: {
          type: "http",
          scheme: "basic",
          description: "base64(<API_KEY>:<API_KEY_SECRET>); the secret may be empty for a key that does not require it.",
        },
      },
      responses: Object.fromEntries((Object.keys(API_ERRORS) as ApiErrorCode[]).map((code) => [code, errorResponse([code], routes)])),
    },
  };
}

function operationOf(route: Route, routes: readonly Route[]): Record<string, unknown> {
  const params = pathParameters(route.path);
  const responses: Record<string, unknown> = { "200": successResponse(route) };
  if (route.response?.fresh) responses["304"] = { description: "Not modified: the If-None-Match tag is the current ETag." };
  const byStatus = new Map<number, ApiErrorCode[]>();
  for (const code of errorCodesOf(route)) {
    const status = API_ERRORS[code].statusCode;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) responses[String(status)] = errorResponse(codes, routes);
  return {
    operationId: route.name,
    summary: route.summary,
    ...(params.length > 0 || route.query !== undefined
      ? {
          parameters: [
            ...params.map((name) =>
              name in PARAMETERS ? { $ref: `#/components/parameters/${name}` } : { name, in: "path", required: true, schema: { type: "string" } },
            ),
            ...(route.query ?? []).map(({ name, description, schema }) => ({ name, in: "query", required: false, description, schema })),
          ],
        }
      : {}),
    security: route.auth === "key" && !params.includes("apiKey") ? [{ basicAuth: [] }] : [],
    responses,
  };
}

function successResponse(route: Route): Record<string, unknown> {
  const response = route.response;
  if (response === undefined && route.textMediaType !== undefined) {
    return { description: route.summary, content: { [route.textMediaType]: { schema: { type: "string" } } } };
  }
  if (response === undefined) return { description: route.summary };
  const headers: Record<string, unknown> = {};
  if (response.fresh) {
    headers["ETag"] = { description: "A strong tag of the body: send it in If-None-Match for a 304.", schema: { type: "string" } };
    headers["X-Block-Number"] = { description: "The newest block in the window.", schema: { type: "string", pattern: "^[0-9]+$" } };
    headers["X-Data-Age-Ms"] = {
      description: "Milliseconds since an RPC endpoint last brought new data (the age of the newest new data).",
      schema: { type: "string", pattern: "^[0-9]+$" },
    };
    headers["Last-Modified"] = { description: "When an RPC endpoint last brought new data.", schema: { type: "string" } };
    headers["X-Data-Disputed"] = {
      description: "true while the chain's endpoints disagree and no majority settles it (two endpoints, two stories); absent otherwise.",
      schema: { type: "string", enum: ["true"] },
    };
  }
  if (response.windowed) {
    const blocks = { type: "string", pattern: "^[0-9]+$" };
    headers["X-Stats-Blocks"] = { description: "How many blocks the statistics window held (N of the nearest rank).", schema: blocks };
    headers["X-Stats-From-Block"] = { description: "The oldest block of the statistics window.", schema: blocks };
    headers["X-Stats-To-Block"] = { description: "The newest block of the statistics window.", schema: blocks };
  }
  return {
    description: route.summary,
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    content: {
      "application/json": {
        schema: { $ref: `#/components/schemas/${response.schema}` },
        ...(response.example === undefined ? {} : { examples: { example: { value: response.example } } }),
      },
    },
  };
}

function errorResponse(codes: readonly ApiErrorCode[], routes: readonly Route[]): Record<string, unknown> {
  const headers: Record<string, unknown> = {};
  const examples: Record<string, unknown> = {};
  for (const code of codes) {
    const row: {
      statusCode: number;
      message: (detail: ApiErrorDetail) => string;
      headers?: (detail: ApiErrorDetail) => Readonly<Record<string, string>>;
      body?: (detail: ApiErrorDetail) => Readonly<Record<string, string>>;
    } = API_ERRORS[code];
    const detail = EXAMPLE_CHAIN_ID_DETAIL[code] ?? (code === "NOT_FOUND" ? { endpoints: servedEndpoints(routes) } : EXAMPLE_DETAIL);
    for (const name of Object.keys(row.headers?.(detail) ?? {})) headers[name] = { schema: { type: "string" } };
    examples[code] = { value: { statusCode: row.statusCode, code, message: row.message(detail), ...row.body?.(detail) } };
  }
  const schema: JsonSchema = {
    allOf: [{ $ref: "#/components/schemas/Error" }, { properties: { code: { enum: [...codes] } } }],
  };
  return {
    description: codes.join(", "),
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    content: { "application/json": { schema, examples } },
  };
}
