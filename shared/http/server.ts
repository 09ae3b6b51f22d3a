import { createServer, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { settingsSchema } from "../config/settings.ts";
import type { ApiKeyring } from "../keys/apiKeyring.ts";
import type { FeeSource } from "../service/feeSource.ts";
import type { Logger } from "../log/logger.ts";
import { ALLOWED_METHODS, ApiError, writeApiError } from "./apiErrors.ts";
import { createConnectionAuth } from "./connectionAuth.ts";
import { createCors } from "./cors.ts";
import { createHostCheck } from "./hostCheck.ts";
import { ifNoneMatchMatches } from "./ifNoneMatch.ts";
import { createRouteMatcher } from "./matchRoute.ts";
import { preparedResponsesOf } from "./preparedResponses.ts";
import { RateLimiter, type RateLimit } from "./rateLimiter.ts";
import { redactPath } from "./redactPath.ts";
import { ROUTES, type JsonReply, type Route } from "./routes.ts";

export interface ApiServerOptions {
  readonly source: FeeSource;
  readonly keyring: ApiKeyring;
  readonly logger: Logger;
  /** Interface to bind; defaults to the settings' default, 127.0.0.1. */
  readonly host?: string;
  /** 0 picks a free port (see `listen()`'s answer); defaults to the settings' default, 8950. */
  readonly port?: number;
  /** Host header names allowed besides 127.0.0.1, localhost and [::1] with our port. */
  readonly allowedHosts?: readonly string[];
  /** Origins that CORS lets read answers; never `*`. */
  readonly corsOrigins?: readonly string[];
  /** Per API key; defaults to the settings' default. `requestsPerSecond: 0` turns it off. */
  readonly rateLimit?: RateLimit;
  /** Defaults to the server's own. Replaced by other route lists in tests, or extended by the service. */
  readonly routes?: readonly Route[];
  /** Epoch ms, for the data age and the rate limit; tests replace it. */
  readonly now?: () => number;
  /** Open connections at most; those over it are closed at once, unanswered. Default 256. */
  readonly maxConnections?: number;
  /** A client must send its headers within this (else 408 and closed); default 10 s. Shortened by tests. */
  readonly headersTimeoutMs?: number;
  /** ...and its whole request within this; default 30 s. */
  readonly requestTimeoutMs?: number;
}

export interface ListeningAddress {
  readonly port: number;
  /** `http://<host>:<port>` without a trailing slash. */
  readonly url: string;
}

export interface ApiServer {
  listen(): Promise<ListeningAddress>;
  /** Stops at once: open connections, idle keep-alive ones included, are closed. */
  close(): Promise<void>;
  /** Where the server listens, once `listen()` has resolved. */
  readonly address: ListeningAddress | undefined;
}

const JSON_TYPE = "application/json; charset=utf-8";
const REVALIDATE = "private, max-age=0, must-revalidate";
const HEADERS_TIMEOUT_MS = 10_000;
const REQUEST_TIMEOUT_MS = 30_000;
const KEEP_ALIVE_TIMEOUT_MS = 5_000;
/** Requests to this API are small; 16 KiB (Node's default) leaves room for any real client. */
const MAX_HEADER_BYTES = 16 * 1024;
/** Far above what local tools and the dashboard open, low enough that a flood of sockets cannot exhaust the process. */
const MAX_CONNECTIONS = 256;
/** How often Node checks the headers and request timeouts (its default, 30 s, would let a slow client stay 40 s). */
const TIMEOUT_CHECK_INTERVAL_MS = 1_000;

const noop = () => {};

function setHeaders(res: ServerResponse, headers: Readonly<Record<string, string>>): void {
  for (const name in headers) res.setHeader(name, headers[name]!);
}

function writeApiErrorWith(res: ServerResponse, corsHeaders: Readonly<Record<string, string>>, error: ApiError, head: boolean): void {
  setHeaders(res, corsHeaders);
  writeApiError(res, error, head);
}

export function createApiServer(options: ApiServerOptions): ApiServer {
  const { source, keyring, logger } = options;
  const host = options.host ?? settingsSchema.shape.host.parse(undefined);
  const port = options.port ?? settingsSchema.shape.port.parse(undefined);
  const now = options.now ?? Date.now;
  const isAllowedHost = createHostCheck(options.allowedHosts ?? []);
  const cors = createCors(options.corsOrigins ?? []);
  const limiter = new RateLimiter(options.rateLimit ?? settingsSchema.shape.rateLimit.parse(undefined));
  const matchRoute = createRouteMatcher(options.routes ?? ROUTES);
  const verifyAuthorization = createConnectionAuth(keyring);
  let address: ListeningAddress | undefined;
  let unsubscribe: (() => void) | undefined;

  const server = createServer(
    // requireHostHeader off: a request without Host gets our 403 FORBIDDEN_HOST rather than Node's bare 400.
    { maxHeaderSize: MAX_HEADER_BYTES, requireHostHeader: false, connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS },
    (req, res) => {
      req.on("error", noop);
      res.on("error", noop);
      // A body on GET means nothing here; reading it lets the connection be kept alive.
      req.resume();
      try {
        respond(req, res);
      } catch (error) {
        answerThrow(req, res, error);
      }
    },
  );
  server.headersTimeout = options.headersTimeoutMs ?? HEADERS_TIMEOUT_MS;
  server.requestTimeout = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.maxConnections = options.maxConnections ?? MAX_CONNECTIONS;
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
    socket.on("error", noop);
    const body = JSON.stringify(new ApiError("METHOD_NOT_ALLOWED", { method: req.method }));
    socket.end(
      `HTTP/1.1 405 Method Not Allowed\r\nAllow: ${ALLOWED_METHODS}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    );
  });

  function respond(req: IncomingMessage, res: ServerResponse): void {
    const method = req.method ?? "";
    const head = method === "HEAD";
    if (!isAllowedHost(req.headers.host, address?.port ?? port)) {
      return writeApiError(res, new ApiError("FORBIDDEN_HOST", { host: req.headers.host }), head);
    }
    const origin = req.headers.origin;
    if (method === "OPTIONS") {
      res.writeHead(204, { Allow: ALLOWED_METHODS, ...cors.preflightHeadersFor(origin) });
      res.end();
      return;
    }
    // On errors too, so that a page of a listed origin can read why its request failed. A JSON reply gets them in
    // the same writeHead as its own headers (setting them first would send every header through setHeader).
    const corsHeaders = cors.headersFor(origin);
    if (method !== "GET" && !head) return writeApiErrorWith(res, corsHeaders, new ApiError("METHOD_NOT_ALLOWED", { method }), head);

    const match = matchRoute(req.url ?? "");
    if (match === undefined) return writeApiErrorWith(res, corsHeaders, new ApiError("NOT_FOUND"), head);
    const { route, params } = match;
    const nowMs = now();
    if (route.auth === "key") {
      const refusal = authorize(req, params, nowMs);
      if (refusal !== undefined) return writeApiErrorWith(res, corsHeaders, refusal, head);
    }
    const repliesJson = route.repliesJson === true;
    if (!repliesJson) setHeaders(res, corsHeaders);
    let reply: JsonReply | "handled";
    try {
      reply = route.handle({ req, res, params, source, nowMs });
    } catch (error) {
      // Answered by answerThrow, with the CORS headers as any other error.
      if (repliesJson && !res.headersSent) setHeaders(res, corsHeaders);
      throw error;
    }
    if (reply !== "handled") writeReply(req, res, reply, head, repliesJson ? corsHeaders : undefined);
  }

  /** Why the request may not go on (its key, or its key's rate limit), or undefined when it may. */
  function authorize(req: IncomingMessage, params: Readonly<Record<string, string>>, nowMs: number): ApiError | undefined {
    const pathKey = params["apiKey"];
    const auth = pathKey === undefined ? verifyAuthorization(req.socket, req.headers.authorization) : keyring.verifyPathKey(pathKey);
    if (!auth.ok) return new ApiError(auth.code);
    const decision = limiter.take(auth.keyId, nowMs);
    if (!decision.ok) return new ApiError("RATE_LIMITED", { retryAfterSeconds: decision.retryAfterSeconds });
    return undefined;
  }

  /** One writeHead with every header: Node then validates and writes them in one pass. */
  function writeReply(
    req: IncomingMessage,
    res: ServerResponse,
    reply: JsonReply,
    head: boolean,
    corsHeaders: Readonly<Record<string, string>> | undefined,
  ): void {
    // Copied name by name: spreading the frozen CORS headers took V8's slow path for object spreads.
    const headers: OutgoingHttpHeaders = {};
    if (corsHeaders !== undefined) for (const name in corsHeaders) headers[name] = corsHeaders[name];
    headers["Cache-Control"] = reply.etag === undefined ? "no-store" : REVALIDATE;
    headers["X-Content-Type-Options"] = "nosniff";
    if (reply.headers !== undefined) for (const name in reply.headers) headers[name] = reply.headers[name];
    if (reply.etag !== undefined) {
      headers["ETag"] = reply.etag;
      if (ifNoneMatchMatches(req.headers["if-none-match"], reply.etag)) {
        res.writeHead(304, headers);
        res.end();
        return;
      }
    }
    headers["Content-Type"] = JSON_TYPE;
    headers["Content-Length"] = reply.body.length;
    res.writeHead(200, headers);
    res.end(head ? undefined : reply.body);
  }

  function answerThrow(req: IncomingMessage, res: ServerResponse, error: unknown): void {
    const head = req.method === "HEAD";
    if (error instanceof ApiError) {
      if (!res.headersSent) writeApiError(res, error, head);
      else res.destroy();
      return;
    }
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
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  }

  /** Serialises a chain's bodies when its snapshot changes, so that requests only authenticate and write. */
  function prepare(chainId: number): void {
    try {
      const snapshot = source.chain(chainId)?.snapshot;
      if (snapshot !== undefined) preparedResponsesOf(snapshot);
    } catch (error) {
      logger.warn("could not prepare the answers for a chain; they will be made on the next request", { chainId, error: String(error) });
    }
  }

  function prepareAll(): void {
    try {
      for (const network of source.networks()) prepare(network.chainId);
    } catch (error) {
      logger.warn("could not list the chains to prepare their answers; they will be made on the first requests", { error: String(error) });
    }
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
          unsubscribe = source.subscribe(prepare);
          prepareAll();
          resolve(address);
        });
      });
    },
    close() {
      unsubscribe?.();
      unsubscribe = undefined;
      if (!server.listening) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
    get address() {
      return address;
    },
  };
}
