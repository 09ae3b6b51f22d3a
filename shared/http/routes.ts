import type { IncomingMessage, ServerResponse } from "node:http";
import type { AlertSource } from "../alerts/alertSource.ts";
import { HISTORY_BLOCKS } from "../core/fees/historyLength.ts";
import { type ChainPublication, networkStatusAt } from "../service/chainPublication.ts";
import type { FeeSource } from "../service/feeSource.ts";
import { type FeeAnswerName, type PreparedAnswers, isWindowed } from "../service/preparedAnswers.ts";
import { type PreparedBody, preparedJson } from "../service/preparedBody.ts";
import { ApiError, type ApiErrorCode } from "./apiErrors.ts";
import { BASE_FEE_HISTORY_CSV_ROUTE } from "./baseFeeHistoryCsv.ts";
import { BASE_FEE_STATS_ROUTE } from "./baseFeeStatsRoute.ts";
import type { DashboardFiles } from "./dashboardFiles.ts";
import type { EventStreams } from "./eventStreams.ts";
import type { ServiceMetrics } from "./metrics.ts";
import { answerMetrics } from "./metricsAnswer.ts";
import type { OpenApiSchemaName } from "./openApiSchemas.ts";
import type { DashboardCredentials } from "../wire/apiBodies.ts";
import { parseChainId } from "./parseChainId.ts";
import { supportedChainNamesBody, supportedNetworksBody } from "./supportedNetworks.ts";

/** The dashboard's own credential, and the user key its API panel shows. */
export interface DashboardAccess {
  /** The keyId of the dashboard's token: only it may ask for the user's key. */
  readonly tokenKeyId: string | undefined;
  /** The user's key to show, read at the time of asking (keys may be added or revoked meanwhile). */
  readonly apiKey: () => { readonly key: string; readonly secret?: string | undefined } | undefined;
}

/** What the server holds for its routes: made once per server, never per request. */
export interface ServerResources {
  readonly source: FeeSource;
  readonly alerts: AlertSource;
  readonly dashboardAccess: DashboardAccess;
  readonly streams: EventStreams;
  readonly dashboard: DashboardFiles;
  /** This server's OpenAPI description, serialised once. */
  readonly openApi: PreparedBody;
  /** This server's Prometheus metrics (GET /metrics). */
  readonly metrics: ServiceMetrics;
}

/** What a handler gets: the request already passed the Host, method, auth and rate-limit checks. */
export interface RouteContext {
  /** Path parameters, percent-decoded, by their names in the pattern. */
  readonly params: Readonly<Record<string, string>>;
  readonly nowMs: number;
  readonly head: boolean;
  /** The key that authenticated the request; undefined on routes that need none. */
  readonly keyId: string | undefined;
  readonly resources: ServerResources;
  /** The request target as sent (path and query string): routes with `query` parameters read them from it. */
  readonly target: string;
}

/** What a stream route gets besides: the response to write itself, with the headers every answer carries. */
export interface StreamContext extends RouteContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  /** CORS for the request's origin and nosniff: a stream route writes them in its writeHead. */
  readonly headers: Readonly<Record<string, string>>;
}

/** A JSON answer that the server writes (with the CORS headers, and trimmed for HEAD). */
export interface JsonReply {
  readonly body: Buffer;
  /** A strong ETag: with one, If-None-Match may answer 304 and the reply may be revalidated; without, it is `no-store`. */
  readonly etag?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

interface RouteBase {
  /** A stable name (an OpenAPI operationId). */
  readonly name: string;
  readonly summary: string;
  /** `/literal/{param}/...`; `{chainId}`, `{apiKey}` and `{asset}` are the parameters in use. */
  readonly path: string;
  /** "key": an API key is needed, by Basic or, when the path has `{apiKey}`, in the path. */
  readonly auth: "none" | "key";
  /** A JSON answer's shape, for the OpenAPI description; without it the description states no body shape. */
  readonly response?: RouteResponse;
  /** Errors the route may answer beyond those its parameters and auth imply, for the OpenAPI description. */
  readonly extraErrors?: readonly ApiErrorCode[];
  /** A text answer's media type (a route without a JSON `response`), for the OpenAPI description. */
  readonly textMediaType?: string;
  /** The query parameters the route reads (each optional); a route without them ignores any query. */
  readonly query?: readonly QueryParameter[];
}

/** An optional query parameter, for the OpenAPI description. */
export interface QueryParameter {
  readonly name: string;
  /** What it means, its allowed values and its default. */
  readonly description: string;
  /** A JSON Schema of its text. */
  readonly schema: Readonly<Record<string, unknown>>;
}

/** A route answered with JSON: it returns the reply or throws an ApiError, and the server writes either. */
export interface JsonRoute extends RouteBase {
  readonly kind: "json";
  reply(context: RouteContext): JsonReply;
}

/** A route that writes its response itself (a stream of events, a file); it may throw an ApiError before writing. */
export interface StreamRoute extends RouteBase {
  readonly kind: "stream";
  open(context: StreamContext): void;
}

export type Route = JsonRoute | StreamRoute;

export interface RouteResponse {
  /** The body's schema in the OpenAPI description's components (openApiSchemas.ts). */
  readonly schema: OpenApiSchemaName;
  /** The answer carries the data's freshness headers and a strong ETag (If-None-Match may answer 304). */
  readonly fresh?: boolean;
  /** The answer is computed over the statistics window and says which (X-Stats-Blocks, -From-Block, -To-Block). */
  readonly windowed?: boolean;
}

const HEALTHY = preparedJson({ status: "ok" });

/** Each fee route's body schema in the OpenAPI description. */
const FEE_SCHEMAS: Readonly<Record<FeeAnswerName, OpenApiSchemaName>> = {
  busyThreshold: "BusyThreshold",
  baseFeePercentile: "BaseFeePercentile",
  baseFeeHistory: "BaseFeeHistory",
  suggestedGasFees: "SuggestedGasFees",
};

/** The routes in their Basic-auth form; every keyed route also answers under /v3/{apiKey} (EventSource sends no headers). */
const BASE_ROUTES: readonly Route[] = [
  {
    kind: "json",
    name: "getHealth",
    summary: "Liveness: answers while the service runs.",
    path: "/healthz",
    auth: "none",
    reply: () => ({ body: HEALTHY.body }),
    response: { schema: "Health" },
  },
  {
    kind: "json",
    name: "getOpenApi",
    summary: "This API's OpenAPI 3.1 description: every endpoint, both forms of authentication, every error.",
    path: "/openapi.json",
    auth: "none",
    reply: ({ resources }) => ({ body: resources.openApi.body, etag: resources.openApi.etag }),
    response: { schema: "OpenApiDocument" },
  },
  {
    kind: "json",
    name: "getNetworks",
    summary: "The configured chains and their state.",
    path: "/networks",
    auth: "key",
    reply: ({ resources, nowMs }) => ({ body: Buffer.from(JSON.stringify(resources.source.list().map((publication) => networkStatusAt(publication, nowMs)))) }),
    response: { schema: "Networks" },
  },
  feeRoute("busyThreshold", "The base fee in Gwei that 90% of the window's base fees are at or below (nearest rank)."),
  feeRoute("baseFeePercentile", "The 50th-percentile base fee in Gwei (nearest rank)."),
  feeRoute("baseFeeHistory", `The base fees of the newest ${HISTORY_BLOCKS} blocks in Gwei, oldest first.`),
  feeRoute(
    "suggestedGasFees",
    "The hosted Gas API's suggested gas fees: low, medium and high tips and max fees from recent blocks' eth_feeHistory rewards, with wait estimates, the next base fee, congestion, ranges and trends.",
  ),
  BASE_FEE_STATS_ROUTE,
  BASE_FEE_HISTORY_CSV_ROUTE,
  {
    kind: "stream",
    name: "getNetworkEvents",
    summary:
      "Server-Sent Events: the chain's full state at once, then one event per change (`event: network`: new blocks, status), and `event: alert` (an AlertEvent) when one of the chain's alert rules fires.",
    path: "/networks/{chainId}/events",
    auth: "key",
    open: (context) => {
      const publication = configuredChain(context);
      openStream(context, { chainId: publication.chainId });
    },
  },
  {
    kind: "json",
    name: "getDashboardCredentials",
    summary:
      "The dashboard's own call, with the dashboard's token only: one of the user's API keys, for the ready-to-copy commands of its API panel (the token itself is never put in a command).",
    path: "/dashboard/credentials",
    auth: "key",
    reply: ({ keyId, resources }) => {
      const { tokenKeyId, apiKey } = resources.dashboardAccess;
      if (tokenKeyId === undefined || keyId !== tokenKeyId) throw new ApiError("INVALID_API_KEY");
      const credentials = apiKey();
      const body: DashboardCredentials =
        credentials === undefined
          ? { apiKey: null }
          : { apiKey: credentials.key, ...(credentials.secret === undefined ? {} : { apiKeySecret: credentials.secret }) };
      return { body: Buffer.from(JSON.stringify(body)) };
    },
    response: { schema: "DashboardCredentials" },
  },
  {
    kind: "stream",
    name: "getEvents",
    summary:
      "Server-Sent Events for every chain: each chain's full state at once, then one event per change of any chain (`event: network`), and `event: alert` (an AlertEvent) when any alert rule fires.",
    path: "/events",
    auth: "key",
    open: (context) => openStream(context, "all"),
  },
  {
    kind: "json",
    name: "getAlerts",
    summary:
      "The alert rules of the settings (the built-in busy/calm pair of each chain included), each with its state: armed or firing, why it is paused, its threshold now, its last firing and webhook outcome; and the rules that were refused, with the field at fault. Read-only: rules are changed in the settings.",
    path: "/alerts",
    auth: "key",
    reply: ({ resources }) => ({ body: Buffer.from(JSON.stringify(resources.alerts.status())) }),
    response: { schema: "Alerts" },
  },
  {
    kind: "stream",
    name: "getMetrics",
    summary:
      "Prometheus metrics (text format 0.0.4): per chain the newest block, base fee, next base fee, percentile, busy threshold, busy, data age, state and history held; per RPC endpoint its state; the server's answers by route and status.",
    path: "/metrics",
    auth: "key",
    textMediaType: "text/plain",
    open: ({ res, head, headers, resources }) => answerMetrics(resources.metrics, res, head, headers),
  },
  {
    kind: "json",
    name: "getSupportedNetworks",
    summary: "The hosted Gas API's network list: the chains with data now (fullSupport), no partial support. No key, as its clients call it.",
    path: "/v1/supportedNetworks",
    auth: "none",
    reply: ({ resources }) => ({ body: Buffer.from(JSON.stringify(supportedNetworksBody(resources.source.list()))) }),
    response: { schema: "SupportedNetworks" },
  },
  {
    kind: "json",
    name: "getSupportedChainNames",
    summary: "The hosted Gas API's chain names: every configured chain's name by its decimal chain id. No key, as its clients call it.",
    path: "/v1/supportedChainNames",
    auth: "none",
    reply: ({ resources }) => ({ body: Buffer.from(JSON.stringify(supportedChainNamesBody(resources.source.list()))) }),
    response: { schema: "SupportedChainNames" },
  },
];

/** The dashboard's built files (no key: the page holds no data; the data it fetches needs the key or its token). */
const DASHBOARD_ROUTES: readonly Route[] = [
  {
    kind: "stream",
    name: "getDashboard",
    summary: "The dashboard page (open it with ?token=<the dashboard's token or an API key>).",
    path: "/",
    auth: "none",
    // When the renderer has not been built (npm run build:renderer).
    extraErrors: ["NOT_FOUND"],
    open: ({ res, head, headers, resources }) => resources.dashboard.serve(res, { index: true }, head, headers),
  },
  {
    kind: "stream",
    name: "getDashboardAsset",
    summary: "The dashboard's scripts and styles.",
    path: "/assets/{asset}",
    auth: "none",
    open: ({ res, head, headers, params, resources }) => resources.dashboard.serve(res, { asset: params["asset"] ?? "" }, head, headers),
  },
];

/** Every route the server answers: the one list that the server, the OpenAPI description and the tests read. */
export const ROUTES: readonly Route[] = [...BASE_ROUTES, ...DASHBOARD_ROUTES, ...BASE_ROUTES.filter((route) => route.auth === "key").map(withKeyInPath)];

function withKeyInPath(route: Route): Route {
  return { ...route, name: `${route.name}WithKeyInPath`, path: `/v3/{apiKey}${route.path}` };
}

function feeRoute(name: FeeAnswerName, summary: string): JsonRoute {
  return {
    kind: "json",
    name,
    summary,
    path: `/networks/{chainId}/${name}`,
    auth: "key",
    reply: (context) => {
      const { publication, answers } = chainWithData(context);
      const prepared = answers[name];
      const fresh = freshnessHeaders(publication, answers, context.nowMs);
      return { body: prepared.body, etag: prepared.etag, headers: isWindowed(name) ? { ...fresh, ...answers.statsHeaders } : fresh };
    },
    response: { schema: FEE_SCHEMAS[name], fresh: true, ...(isWindowed(name) ? { windowed: true } : {}) },
  };
}

/** The configured chain of the `{chainId}` parameter, or the contract's error for why there is none. */
function configuredChain({ params, resources }: RouteContext): ChainPublication {
  const text = params["chainId"] ?? "";
  const publication = resources.source.get(parseChainId(text));
  if (publication === undefined) throw new ApiError("UNSUPPORTED_CHAIN", { chainId: text });
  return publication;
}

/** The chain of the `{chainId}` parameter with its prepared answers, or the contract's error for why there are none. */
function chainWithData(context: RouteContext): { publication: ChainPublication; answers: PreparedAnswers } {
  const publication = configuredChain(context);
  const chainId = context.params["chainId"] ?? "";
  if (publication.status.state === "no-base-fee") throw new ApiError("NO_BASE_FEE", { chainId });
  const answers = publication.answers;
  if (answers === undefined) throw new ApiError("NO_DATA", { chainId, retryAfterSeconds: Math.max(1, Math.ceil(publication.blockTimeMs / 1000)) });
  return { publication, answers };
}

/** How new the data is, in headers, since the contract keeps the bodies free of extra fields. */
function freshnessHeaders(publication: ChainPublication, answers: PreparedAnswers, nowMs: number): Record<string, string> {
  const { confirmedAt, lastModified } = publication;
  if (confirmedAt === undefined || lastModified === undefined) return { "X-Block-Number": answers.blockNumber };
  return {
    "X-Block-Number": answers.blockNumber,
    "X-Data-Age-Ms": String(Math.max(0, Math.round(nowMs - confirmedAt))),
    "Last-Modified": lastModified,
  };
}

function openStream(context: StreamContext, scope: { chainId: number } | "all"): void {
  context.resources.streams.open(context.res, { scope, keyId: context.keyId ?? "", headers: context.headers, head: context.head });
}

/** The endpoints a NOT_FOUND answer names: every API path in its Basic form (the /v3/{apiKey} forms said once). */
export function servedEndpoints(routes: readonly Route[]): string {
  const paths = routes.filter((route) => !route.path.startsWith("/v3/") && route.path !== "/" && !route.path.startsWith("/assets/")).map((route) => route.path);
  return `${paths.join(", ")} (those that need a key also under /v3/{apiKey}), and the dashboard at /`;
}
