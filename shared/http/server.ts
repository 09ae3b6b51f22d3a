import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { appendHeaders } from "./headerList.ts";
import { HourlyStatsAnswers } from "./hourlyStatsAnswers.ts";
import type { AddressInfo, Socket } from "node:net";
import { type AlertSource, NO_ALERTS } from "../alerts/alertSource.ts";
import { apiKeyIdOf } from "../keys/apiKeyId.ts";
import type { ApiKeyring } from "../keys/apiKeyring.ts";
import type { Logger } from "../log/logger.ts";
import type { FeeSource } from "../service/feeSource.ts";
import { ALLOWED_METHODS, ApiError, writeApiError } from "./apiErrors.ts";
import { createConnectionAuth } from "./connectionAuth.ts";
import { createCors } from "./cors.ts";
import { DEFAULT_DASHBOARD_DIR, DashboardFiles } from "./dashboardFiles.ts";
import { DEFAULT_EVENT_STREAM_LIMITS, type EventStreamLimits, EventStreams } from "./eventStreams.ts";
import { createHostCheck } from "./hostCheck.ts";
import { ifNoneMatchMatches, REVALIDATE } from "./ifNoneMatch.ts";
import { ServiceMetrics } from "./metrics.ts";
import { RequestCounts, UNROUTED } from "./metricsRequestCounts.ts";
import { createRouteMatcher } from "./matchRoute.ts";
import { openApiDocument } from "./openApi.ts";
import { PreparedAnswerCache } from "./preparedAnswerCache.ts";
import { preparedJson } from "./preparedBody.ts";
import { DEFAULT_HISTORY_SCAN_LIMITS, HistoryScans, type HistoryScanLimits } from "./historyScans.ts";
import { RateLimiter, type RateLimit } from "./rateLimiter.ts";
import { redactPath } from "./redactPath.ts";
import type { DeferredJsonReply, JsonReply } from "./routeTypes.ts";
import { ROUTES } from "./routes.ts";
import { servedEndpoints } from "./servedEndpoints.ts";
import type { DashboardAccess, ServerResources } from "./serverResources.ts";
import { CostAnswers, NO_PRICE_HISTORY, type PriceHistorySource } from "./costAnswers.ts";
import { OutlookAnswers } from "./outlookAnswers.ts";
import { type Action, DEFAULT_ACTIONS } from "../core/costs/defaultActions.ts";
import { DEFAULT_HOST, DEFAULT_PORT, DEFAULT_RATE_LIMIT } from "../config/serviceDefaults.ts";
import { type SlowClientLimits, watchSlowClients } from "./slowClients.ts";
import { KEEP_ALIVE_HINT } from "./keepAlive.ts";
import { AnswerBatch } from "./answerBatch.ts";
import { holdTickObjectShape } from "./tickObjectShape.ts";

export interface ApiServerOptions {
  readonly source: FeeSource;
  /** The alert rules and their firings (GET /alerts, `event: alert`); without it, no rules. */
  readonly alerts?: AlertSource;
  readonly keyring: ApiKeyring;
  readonly logger: Logger;
  /** Interface to bind; default 127.0.0.1. */
  readonly host?: string;
  /** 0 picks a free port (see `listen()`'s answer); default 8950. */
  readonly port?: number;
  /** Host header names allowed besides 127.0.0.1, localhost and [::1] with our port. */
  readonly allowedHosts?: readonly string[];
  /** Origins that CORS lets read answers; never `*`. */
  readonly corsOrigins?: readonly string[];
  /** Per API key; default 100/s, burst 200. `requestsPerSecond: 0` turns it off. */
  readonly rateLimit?: RateLimit;
  /** How history scans (baseFeeStats, the CSV export) share the event loop and are charged; default DEFAULT_HISTORY_SCAN_LIMITS. */
  readonly historyScans?: Partial<HistoryScanLimits>;
  /** Where the dashboard's build is; default dist/renderer. */
  readonly dashboardDir?: string;
  /** The dashboard's token and the user key its API panel shows (GET /dashboard/credentials); without it, that route refuses every key. */
  readonly dashboard?: { readonly token: string; readonly apiKey: DashboardAccess["apiKey"] };
  /** The actions whose costs /costs gives (defaults and the settings' own); default DEFAULT_ACTIONS. */
  readonly actions?: readonly Action[];
  /** The price points of past ranges (the cost readers); without it, none. */
  readonly priceHistory?: PriceHistorySource;
  /** Epoch ms, for the data age and the rate limit; tests replace it. */
  readonly now?: () => number;
  /** Open connections at most; those over it are closed at once, unanswered. Default 256. */
  readonly maxConnections?: number;
  /** A client must send its headers within this (else 408 and closed); default 10 s. Shortened by tests. */
  readonly headersTimeoutMs?: number;
  /** ...and its whole request within this; default 30 s. */
  readonly requestTimeoutMs?: number;
  /** Event streams: how many, how often a heartbeat, how much a client may leave unread. */
  readonly eventStreamLimits?: Partial<EventStreamLimits>;
  /** Connections whose client does not read its answers. */
  readonly slowClientLimits?: Partial<SlowClientLimits>;
}

export interface ListeningAddress {
  readonly port: number;
  /** `http://<host>:<port>` without a trailing slash. */
  readonly url: string;
}

export interface ApiServer {
  listen(): Promise<ListeningAddress>;
  /** Stops at once: open connections, idle keep-alive ones and event streams included, are closed. */
  close(): Promise<void>;
  /** Where the server listens, once `listen()` has resolved. */
  readonly address: ListeningAddress | undefined;
  /** Event streams open now. */
  readonly eventStreamCount: number;
}

/** The server's limits when the options do not say otherwise (SECURITY.md documents each). */
export const SERVER_DEFAULTS = Object.freeze({
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  /** Requests to this API are small; 16 KiB (Node's default) leaves room for any real client. */
  maxHeaderBytes: 16 * 1024,
  /** Far above what local tools and the dashboard open, low enough that a flood of sockets cannot exhaust the process. */
  maxConnections: 256,
  /** How often Node checks the headers and request timeouts (its default, 30 s, would let a slow client stay 40 s). */
  timeoutCheckIntervalMs: 1_000,
  /** After an answer to a malformed or timed-out request, how long the client has to read it before its socket is destroyed. */
  refusalLingerMs: 1_000,
});

const JSON_TYPE = "application/json; charset=utf-8";
/** What respond() returns for an answer left to the batch (answerBatch.ts), which accounts for it once written. */
const QUEUED: unique symbol = Symbol("queued");

/** The CORS headers of the request's origin (cors.ts). */
type CorsHeaders = Readonly<Record<string, string>>;

/**
 * What a stream or file answer carries: CORS, nosniff and the keep-alive hint (writeReply lists the same; writeApiError
 * adds the last two itself).
 */
const answerHeaders = (corsHeaders: CorsHeaders): Record<string, string> => ({
  ...corsHeaders,
  "X-Content-Type-Options": "nosniff",
  "Keep-Alive": KEEP_ALIVE_HINT,
});
const noop = () => {};

/** An answer written after its request's turn (a stream, a file, a deferred reply): the client may be gone by then. */
const writesLater = (res: ServerResponse) => res.on("error", noop);

export function createApiServer(options: ApiServerOptions): ApiServer {
  const { source, keyring, logger } = options;
  const host = options.host ?? DEFAULT_HOST;
  const port = options.port ?? DEFAULT_PORT;
  const now = options.now ?? Date.now;
  const isAllowedHost = createHostCheck(options.allowedHosts ?? []);
  const cors = createCors(options.corsOrigins ?? []);
  const limiter = new RateLimiter(options.rateLimit ?? DEFAULT_RATE_LIMIT);
  const matchRoute = createRouteMatcher(ROUTES);
  // The throughput goal (>= 0.85 of a bare node:http server, npm run bench -- server) needs it: see connectionAuth.ts.
  const verifyAuthorization = createConnectionAuth(keyring);
  const notFound = { endpoints: servedEndpoints(ROUTES) };
  const alerts = options.alerts ?? NO_ALERTS;
  const streams = new EventStreams(source, { ...DEFAULT_EVENT_STREAM_LIMITS, ...options.eventStreamLimits }, now, alerts);
  const requestCounts = new RequestCounts();
  const resources: ServerResources = {
    source,
    alerts,
    streams,
    dashboard: new DashboardFiles(options.dashboardDir ?? DEFAULT_DASHBOARD_DIR),
    dashboardAccess: {
      tokenKeyId: options.dashboard === undefined ? undefined : apiKeyIdOf(options.dashboard.token),
      apiKey: options.dashboard?.apiKey ?? (() => undefined),
    },
    openApi: preparedJson(openApiDocument(ROUTES)),
    metrics: new ServiceMetrics({ source, requests: requestCounts, eventStreams: () => streams.size, now }),
    answers: new PreparedAnswerCache(),
    outlooks: new OutlookAnswers(),
    hourlyStats: new HourlyStatsAnswers(),
    scans: new HistoryScans({ ...DEFAULT_HISTORY_SCAN_LIMITS, ...options.historyScans }, (keyId, requests) => limiter.charge(keyId, requests, now())),
    costs: new CostAnswers(options.actions ?? DEFAULT_ACTIONS),
    priceHistory: options.priceHistory ?? NO_PRICE_HISTORY,
  };
  let address: ListeningAddress | undefined;
  // node:http calls process.nextTick about ten times a request: this keeps it fast for the server's life (see the module).
  const tickObjectShape = holdTickObjectShape();
  // A revoked key's open streams end with it.
  const unsubscribeKeys = keyring.subscribe(() => streams.closeRevoked((keyId) => keyring.hasKeyId(keyId)));

  const server = createServer(
    // requireHostHeader off: a request without Host gets our 403 FORBIDDEN_HOST rather than Node's bare 400.
    { maxHeaderSize: SERVER_DEFAULTS.maxHeaderBytes, requireHostHeader: false, connectionsCheckingInterval: SERVER_DEFAULTS.timeoutCheckIntervalMs },
    (req, res) => {
      // No error listeners here: node:http emits a request's errors only to listeners, and a response's only for a
      // write after its end, which an answer written at once never makes; answers written later listen (writesLater).
      // A body on GET means nothing here; reading it lets the connection be kept alive.
      req.resume();
      if (!slowClients.admit(req.socket, res)) return;
      let route: string | typeof QUEUED = UNROUTED;
      try {
        route = respond(req, res);
      } catch (error) {
        answerThrow(req, res, error);
      }
      // A queued answer is accounted for once the batch has written it.
      if (route !== QUEUED) answerWritten(req, res, route);
    },
  );
  server.headersTimeout = options.headersTimeoutMs ?? SERVER_DEFAULTS.headersTimeoutMs;
  server.requestTimeout = options.requestTimeoutMs ?? SERVER_DEFAULTS.requestTimeoutMs;
  // Idle keep-alive connections are closed by the slow-client watch, not by a node:http timer armed after every answer.
  server.keepAliveTimeout = 0;
  server.maxConnections = options.maxConnections ?? SERVER_DEFAULTS.maxConnections;
  const slowClients = watchSlowClients(server, options.slowClientLimits, logger);
  const answerWritten = (req: IncomingMessage, res: ServerResponse, route: string) => {
    slowClients.answered(req.socket, res);
    requestCounts.countAnswer(route, res);
  };
  const batch = new AnswerBatch(answerWritten, answerThrow);
  let droppedSinceLog = 0;
  server.on("drop", () => {
    // Logged once per burst rather than once per socket, so that a flood does not flood the log too.
    if (droppedSinceLog++ === 0) {
      setTimeout(() => {
        logger.warn("connections over the limit were closed unanswered", { dropped: droppedSinceLog, maxConnections: server.maxConnections });
        droppedSinceLog = 0;
      }, 1000).unref();
    }
  });
  server.on("clientError", answerClientError);
  // Node hands CONNECT to this event and, without a listener, drops the connection unanswered: answer it as any other method.
  server.on("connect", (req: IncomingMessage, socket: Socket) => {
    const body = JSON.stringify(new ApiError("METHOD_NOT_ALLOWED", { method: req.method }));
    refuseOnSocket(
      socket,
      `HTTP/1.1 405 Method Not Allowed\r\nAllow: ${ALLOWED_METHODS}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    );
  });

  /** Answers the request; returns its route's path pattern (the metrics' label), UNROUTED, or QUEUED (in the batch). */
  function respond(req: IncomingMessage, res: ServerResponse): string | typeof QUEUED {
    const method = req.method ?? "";
    const head = method === "HEAD";
    if (!isAllowedHost(req.headers.host, address?.port ?? port)) {
      writeApiError(res, new ApiError("FORBIDDEN_HOST", { host: req.headers.host }), head);
      return UNROUTED;
    }
    const origin = req.headers.origin;
    if (method === "OPTIONS") {
      res.writeHead(204, { Allow: ALLOWED_METHODS, ...cors.preflightHeadersFor(origin), "Keep-Alive": KEEP_ALIVE_HINT });
      res.end();
      return UNROUTED;
    }
    // Every answer from here on carries the origin's CORS headers, errors too, so that a page of a listed origin can read
    // why it failed (and nosniff: writeApiError, writeReply and answerHeaders add it).
    const corsHeaders = cors.headersFor(origin);
    if (method !== "GET" && !head) {
      writeApiError(res, new ApiError("METHOD_NOT_ALLOWED", { method }), head, corsHeaders);
      return UNROUTED;
    }

    const match = matchRoute(req.url ?? "");
    if (match === undefined) {
      writeApiError(res, new ApiError("NOT_FOUND", notFound), head, corsHeaders);
      return UNROUTED;
    }
    const { route, params } = match;
    const nowMs = now();
    let keyId: string | undefined;
    if (route.auth === "key") {
      const auth = authorize(req, params, nowMs);
      if (auth instanceof ApiError) {
        writeApiError(res, auth, head, corsHeaders);
        return route.path;
      }
      keyId = auth;
    }
    try {
      const target = req.url ?? "";
      if (route.kind === "json") {
        const reply = route.reply({ params, nowMs, head, keyId, resources, target });
        if ("deferred" in reply) writeDeferredReply(req, res, reply, head, corsHeaders);
        else if (writeReply(req, res, reply, head, corsHeaders, route.path)) return QUEUED;
      } else {
        writesLater(res);
        route.open({ params, nowMs, head, resources, req, res, headers: answerHeaders(corsHeaders), keyId, target });
      }
    } catch (error) {
      if (error instanceof ApiError && !res.headersSent) writeApiError(res, error, head, corsHeaders);
      else answerThrow(req, res, error);
    }
    return route.path;
  }

  /** The keyId of the request's key, or the error to answer (no key, a wrong one, or its rate limit reached). */
  function authorize(req: IncomingMessage, params: Readonly<Record<string, string>>, nowMs: number): string | ApiError {
    const pathKey = params["apiKey"];
    const auth = pathKey === undefined ? verifyAuthorization(req.socket, req.headers.authorization) : keyring.verifyPathKey(pathKey);
    if (!auth.ok) return new ApiError(auth.code);
    const decision = limiter.take(auth.keyId, nowMs);
    if (!decision.ok) return new ApiError("RATE_LIMITED", { retryAfterSeconds: decision.retryAfterSeconds });
    return auth.keyId;
  }

  /** Writes a deferred reply once it settles, or its ApiError; nothing when the client left meanwhile. */
  function writeDeferredReply(req: IncomingMessage, res: ServerResponse, reply: DeferredJsonReply, head: boolean, corsHeaders: CorsHeaders): void {
    writesLater(res);
    const abandoned = () => res.destroyed || req.socket.destroyed;
    reply.deferred(abandoned).then(
      (settled) => {
        if (settled !== undefined && !abandoned()) writeReply(req, res, settled, head, corsHeaders);
      },
      (error: unknown) => {
        if (abandoned()) return;
        if (error instanceof ApiError && !res.headersSent) writeApiError(res, error, head, corsHeaders);
        else answerThrow(req, res, error);
      },
    );
  }

  /**
   * One writeHead with every header in one flat list (headerList.ts): CORS, nosniff, keep-alive, caching, the reply's,
   * type and length. With `queueAs` (a route's label; the reply is the request's own turn's), a 200 joins the batch of
   * the turn's answers, and true says so; a 304 and a reply made later are written at once.
   */
  function writeReply(req: IncomingMessage, res: ServerResponse, reply: JsonReply, head: boolean, corsHeaders: CorsHeaders, queueAs?: string): boolean {
    const headers: string[] = [];
    for (const name in corsHeaders) headers.push(name, corsHeaders[name]!);
    headers.push("X-Content-Type-Options", "nosniff", "Keep-Alive", KEEP_ALIVE_HINT, "Cache-Control", reply.etag === undefined ? "no-store" : REVALIDATE);
    if (reply.headers !== undefined) appendHeaders(headers, reply.headers);
    if (reply.dataAgeMs !== undefined && reply.dataAgeMs !== null) headers.push("X-Data-Age-Ms", String(reply.dataAgeMs));
    if (reply.etag !== undefined) {
      headers.push("ETag", reply.etag);
      if (ifNoneMatchMatches(req.headers["if-none-match"], reply.etag)) {
        res.writeHead(304, headers);
        res.end();
        return false;
      }
    }
    headers.push("Content-Type", JSON_TYPE, "Content-Length", String(reply.body.length));
    if (queueAs !== undefined) {
      batch.add(req, res, headers, head ? undefined : reply.body, queueAs);
      return true;
    }
    res.writeHead(200, headers);
    res.end(head ? undefined : reply.body);
    return false;
  }

  function answerThrow(req: IncomingMessage, res: ServerResponse, error: unknown): void {
    const head = req.method === "HEAD";
    logger.error("a request failed unexpectedly (a bug); the server goes on answering", {
      method: req.method,
      path: redactPath(req.url),
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
    try {
      if (!res.headersSent) writeApiError(res, new ApiError("INTERNAL_ERROR"), head);
      else res.destroy();
    } catch {
      res.destroy();
    }
  }

  function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
    logger.debug("malformed HTTP request refused", { code: error.code });
    // Once bytes went out on this connection, a response may be half written: another would corrupt it.
    if (error.code === "ECONNRESET" || !socket.writable || socket.bytesWritten > 0) {
      socket.destroy();
      return;
    }
    const status =
      error.code === "HPE_HEADER_OVERFLOW"
        ? "431 Request Header Fields Too Large"
        : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
          ? "408 Request Timeout"
          : "400 Bad Request";
    refuseOnSocket(socket, `HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  }

  /**
   * Writes a last answer and frees the connection's slot: the socket is destroyed once the answer is out, or after a
   * short linger whatever the client does (a client that never reads nor closes must not keep the slot).
   */
  function refuseOnSocket(socket: Socket, answer: string): void {
    socket.on("error", noop);
    const linger = setTimeout(() => socket.destroy(), SERVER_DEFAULTS.refusalLingerMs);
    linger.unref();
    socket.once("close", () => clearTimeout(linger));
    socket.end(answer, () => socket.destroy());
  }

  return {
    listen() {
      return new Promise<ListeningAddress>((resolve, reject) => {
        const failed = (error: Error) => reject(error);
        server.once("error", failed);
        server.listen({ host, port }, () => {
          server.off("error", failed);
          server.on("error", (error) => logger.error("the API server failed", { error: String(error) }));
          const bound = (server.address() as AddressInfo).port;
          address = { port: bound, url: `http://${host.includes(":") ? `[${host}]` : host}:${bound}` };
          resolve(address);
        });
      });
    },
    close() {
      unsubscribeKeys();
      slowClients.stop();
      tickObjectShape.release();
      if (!server.listening) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
    get address() {
      return address;
    },
    get eventStreamCount() {
      return streams.size;
    },
  };
}
