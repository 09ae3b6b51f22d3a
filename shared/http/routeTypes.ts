// What a route is and what it is given: the shapes that routes.ts (the list), the route files, the server and the
// OpenAPI description share. A module of its own, so that a route file needs neither the list nor the server.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ApiErrorCode } from "./apiErrors.ts";
import type { HeaderList } from "./headerList.ts";
import type { OpenApiSchemaName } from "./openApiSchemas.ts";
import type { ServerResources } from "./serverResources.ts";

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
  /** The reply's own headers (the server adds CORS, caching, type and length). */
  readonly headers?: HeaderList;
  /** `X-Data-Age-Ms`: how old, at the request, the data is that the answer was made from; null or absent, no header. */
  readonly dataAgeMs?: number | null;
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

/**
 * A JSON answer computed over several turns of the event loop (a history scan, historyScans.ts): the server writes what
 * `deferred` resolves to, or the ApiError it rejects with, unless the client left meanwhile (`abandoned` says so, and
 * the work may stop early: it then resolves undefined).
 */
export interface DeferredJsonReply {
  readonly deferred: (abandoned: () => boolean) => Promise<JsonReply | undefined>;
}

/** A route answered with JSON: it returns the reply (or a deferred one) or throws an ApiError, and the server writes either. */
export interface JsonRoute extends RouteBase {
  readonly kind: "json";
  reply(context: RouteContext): JsonReply | DeferredJsonReply;
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
  /** An example body, shown in the OpenAPI description (and checked against the schema by its test). */
  readonly example?: unknown;
}
