import type { IncomingMessage, ServerResponse } from "node:http";
import type { FeeSnapshot } from "../core/fees/feeSnapshot.ts";
import type { ChainEntry, FeeSource } from "../service/feeSource.ts";
import { ApiError, type ApiErrorCode } from "./apiErrors.ts";
import { DEFAULT_DASHBOARD_DIR, serveDashboardFile } from "./dashboardFiles.ts";
import { eventStreamsOf } from "./eventStreams.ts";
import { openApiDocument } from "./openApi.ts";
import type { OpenApiSchemaName } from "./openApiSchemas.ts";
import { parseChainId } from "./parseChainId.ts";
import { preparedJson, preparedResponsesOf, type PreparedBody, type PreparedResponses } from "./preparedResponses.ts";

/** What a handler gets: the request already passed the Host, method, auth and rate-limit checks. */
export interface RouteContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  /** Path parameters, percent-decoded, by their names in the pattern. */
  readonly params: Readonly<Record<string, string>>;
  readonly source: FeeSource;
  readonly nowMs: number;
}

/** A JSON answer that the server writes (and trims for HEAD). */
export interface JsonReply {
  readonly body: Buffer;
  /** A strong ETag: with one, If-None-Match may answer 304 and the reply may be revalidated; without, it is `no-store`. */
  readonly etag?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * A handler either returns a JSON reply or throws an `ApiError`. A handler that writes the response itself
 * (a stream such as Server-Sent Events) returns "handled".
 */
export type RouteHandler = (context: RouteContext) => JsonReply | "handled";

export interface Route {
  /** A stable name (an OpenAPI operationId). */
  readonly name: string;
  readonly summary: string;
  /** `/literal/{param}/...`; `{chainId}` and `{apiKey}` are the parameters in use. */
  readonly path: string;
  /** "key": an API key is needed, by Basic or, when the path has `{apiKey}`, in the path. */
  readonly auth: "none" | "key";
  readonly handle: RouteHandler;
  /**
   * The handler never writes to the response itself: it returns a JsonReply or throws. The server may then write
   * the CORS headers together with the reply's (one writeHead) instead of setting them on the response beforehand.
   * Leave it out for a handler that may write the response (and return "handled").
   */
  readonly repliesJson?: boolean;
  /** A JSON answer's shape, for the OpenAPI description; without it the description states no body shape. */
  readonly response?: RouteResponse;
  /** Errors the route may answer beyond those its parameters and auth imply, for the OpenAPI description. */
  readonly extraErrors?: readonly ApiErrorCode[];
}

export interface RouteResponse {
  /** The body's schema in the OpenAPI description's components (openApiSchemas.ts). */
  readonly schema: OpenApiSchemaName;
  /** The answer carries the data's freshness headers and a strong ETag (If-None-Match may answer 304). */
  readonly fresh?: boolean;
}

const HEALTHY = preparedJson({ status: "ok" });
let openApiBody: PreparedBody | undefined;

/** Each fee route's body schema in the OpenAPI description. */
const FEE_SCHEMAS: Readonly<Record<keyof PreparedResponses, OpenApiSchemaName>> = {
  busyThreshold: "BusyThreshold",
  baseFeePercentile: "BaseFeePercentile",
  baseFeeHistory: "BaseFeeHistory",
  suggestedGasFees: "SuggestedGasFees",
};

/** The routes in their Basic-auth form; every keyed route under /networks also answers under /v3/{apiKey}. */
const BASE_ROUTES: readonly Route[] = [
  {
    name: "getHealth",
    summary: "Liveness: answers while the service runs.",
    path: "/healthz",
    auth: "none",
    handle: () => ({ body: HEALTHY.body }),
    repliesJson: true,
    response: { schema: "Health" },
  },
  {
    name: "getOpenApi",
    summary: "This API's OpenAPI 3.1 description: every endpoint, both forms of authentication, every error.",
    path: "/openapi.json",
    auth: "none",
    handle: () => {
      // Made on first use: the document is generated from ROUTES, which holds this route.
      openApiBody ??= preparedJson(openApiDocument(ROUTES));
      return { body: openApiBody.body, etag: openApiBody.etag };
    },
    repliesJson: true,
    response: { schema: "OpenApiDocument" },
  },
  {
    name: "getNetworks",
    summary: "The configured chains and their state.",
    path: "/networks",
    auth: "key",
    handle: ({ source }) => ({ body: Buffer.from(JSON.stringify(source.networks())) }),
    repliesJson: true,
    response: { schema: "Networks" },
  },
  feeRoute("busyThreshold", "The base fee in Gwei that 90% of the window's base fees are at or below (nearest rank).", (p) => p.busyThreshold),
  feeRoute("baseFeePercentile", "The 50th-percentile base fee in Gwei (nearest rank).", (p) => p.baseFeePercentile),
  feeRoute("baseFeeHistory", "The base fees of the newest 500 blocks in Gwei, oldest first.", (p) => p.baseFeeHistory),
  feeRoute(
    "suggestedGasFees",
    "The hosted Gas API's suggested gas fees: low, medium and high tips and max fees from recent blocks' eth_feeHistory rewards, with wait estimates, the next base fee, congestion, ranges and trends.",
    (p) => p.suggestedGasFees,
  ),
  {
    name: "getNetworkEvents",
    summary: "Server-Sent Events: the chain's full state at once, then one event per change (new blocks, status).",
    path: "/networks/{chainId}/events",
    auth: "key",
    handle: (context) => {
      const text = context.params["chainId"] ?? "";
      const entry = context.source.chain(parseChainId(text));
      if (entry === undefined) throw new ApiError("UNSUPPORTED_CHAIN", { chainId: text });
      eventStreamsOf(context.source).open(entry, context.res, context.req.method === "HEAD");
      return "handled";
    },
  },
];

/** Every route the server answers: the one list that the server, the OpenAPI description and the tests read. */
export const ROUTES: readonly Route[] = [
  ...BASE_ROUTES,
  ...dashboardRoutes(DEFAULT_DASHBOARD_DIR),
  ...BASE_ROUTES.filter((route) => route.auth === "key" && route.path.startsWith("/networks")).map(withKeyInPath),
];

function withKeyInPath(route: Route): Route {
  return { ...route, name: `${route.name}WithKeyInPath`, path: `/v3/{apiKey}${route.path}` };
}

function feeRoute(name: keyof PreparedResponses, summary: string, pick: (prepared: PreparedResponses) => PreparedBody): Route {
  return {
    name,
    summary,
    path: `/networks/{chainId}/${name}`,
    auth: "key",
    handle: (context) => {
      const { entry, snapshot } = chainWithData(context);
      const prepared = pick(preparedResponsesOf(snapshot));
      return { body: prepared.body, etag: prepared.etag, headers: freshnessHeaders(entry, snapshot, context.nowMs) };
    },
    repliesJson: true,
    response: { schema: FEE_SCHEMAS[name], fresh: true },
  };
}

/** The chain of the `{chainId}` parameter with its snapshot, or the contract's error for why there is none. */
export function chainWithData({ params, source }: RouteContext): { entry: ChainEntry; snapshot: FeeSnapshot } {
  const text = params["chainId"] ?? "";
  const entry = source.chain(parseChainId(text));
  if (entry === undefined) throw new ApiError("UNSUPPORTED_CHAIN", { chainId: text });
  if (entry.noBaseFee) throw new ApiError("NO_BASE_FEE", { chainId: text });
  const snapshot = entry.snapshot;
  if (snapshot === undefined) {
    throw new ApiError("NO_DATA", { chainId: text, retryAfterSeconds: Math.max(1, Math.ceil(entry.blockTimeMs / 1000)) });
  }
  return { entry, snapshot };
}

/** The newest block's number as written in X-Block-Number, made once per snapshot rather than once per request. */
const blockNumberTexts = new WeakMap<FeeSnapshot, string>();
/** Last-Modified of the confirmation times seen lately, formatted once per new block rather than once per request. */
const httpDates = new Map<number, string>();
const HTTP_DATES_HELD = 64;

function httpDate(ms: number): string {
  let text = httpDates.get(ms);
  if (text === undefined) {
    if (httpDates.size >= HTTP_DATES_HELD) httpDates.clear();
    text = new Date(ms).toUTCString();
    httpDates.set(ms, text);
  }
  return text;
}

/** How new the data is, in headers, since the contract keeps the bodies free of extra fields. */
function freshnessHeaders(entry: ChainEntry, snapshot: FeeSnapshot, nowMs: number): Record<string, string> {
  let blockNumber = blockNumberTexts.get(snapshot);
  if (blockNumber === undefined) {
    blockNumber = snapshot.newestBlock.toString();
    blockNumberTexts.set(snapshot, blockNumber);
  }
  const confirmedAt = entry.confirmedAt;
  if (confirmedAt === undefined) return { "X-Block-Number": blockNumber };
  return {
    "X-Block-Number": blockNumber,
    "X-Data-Age-Ms": String(Math.max(0, Math.round(nowMs - confirmedAt))),
    "Last-Modified": httpDate(confirmedAt),
  };
}

/** The dashboard's built files (no key: the page holds no data; the data it fetches needs the key or session token). */
export function dashboardRoutes(dir: string): Route[] {
  return [
    {
      name: "getDashboard",
      summary: "The dashboard page (open it with ?token=<API key or session token>).",
      path: "/",
      auth: "none",
      // When the renderer has not been built (npm run build:renderer).
      extraErrors: ["NOT_FOUND"],
      handle: ({ req, res }) => (serveDashboardFile(res, dir, { index: true }, req.method === "HEAD"), "handled"),
    },
    {
      name: "getDashboardAsset",
      summary: "The dashboard's scripts and styles.",
      path: "/assets/{asset}",
      auth: "none",
      handle: ({ req, res, params }) => (serveDashboardFile(res, dir, { asset: params["asset"] ?? "" }, req.method === "HEAD"), "handled"),
    },
  ];
}
