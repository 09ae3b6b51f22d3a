import type { Agent } from "node:http";
import { MalformedRpcResponseError, RpcEndpointError } from "./errors.ts";
import { openWebSocket, type SocketClient } from "./openWebSocket.ts";
import { createKeepAliveAgent, HttpPostError, postJson, postTarget, type JsonHttpAnswer, type PostTarget } from "./postJson.ts";
import { redactUrl, UrlRedactor } from "./redactUrl.ts";

/**
 * One JSON-RPC endpoint, over HTTP or a WebSocket, with no retries of its own (the feed decides what to retry).
 * The endpoint may be hostile: its answers are capped (MAX_RPC_ANSWER_BYTES), and nothing it sends reaches an error
 * text or a result with a secret part of its URL in it (UrlRedactor).
 */
export interface RpcConnection {
  readonly transport: "http" | "ws";
  /** The URL as it may be logged. */
  readonly redactedUrl: string;
  /**
   * Resolves with the `result`, in which any secret part of the endpoint's URL is replaced (no real answer quotes
   * one); rejects with RpcEndpointError (failure) or MalformedRpcResponseError (garbage), their texts redacted.
   */
  request(method: string, params: readonly unknown[]): Promise<unknown>;
  /** ws only: calls `onHead` on each `newHeads` notification, `onError` once if the subscription or socket dies. */
  subscribeNewHeads(onHead: () => void, onError: (error: Error) => void): Promise<void>;
  /** Closes its sockets (both transports); pending requests fail. The next request connects again. */
  close(): void;
}

export function transportOf(url: string): "http" | "ws" {
  const protocol = new URL(url).protocol;
  if (protocol === "http:" || protocol === "https:") return "http";
  if (protocol === "ws:" || protocol === "wss:") return "ws";
  throw new RangeError(`${redactUrl(url)}: an RPC URL must start with http(s):// or ws(s)://`);
}

export function createRpcConnection(url: string, options: { timeoutMs: number }): RpcConnection {
  return transportOf(url) === "http" ? new HttpConnection(url, options.timeoutMs) : new WsConnection(url, options.timeoutMs);
}

interface RpcResponse {
  result?: unknown;
  error?: { code?: unknown; message?: unknown; data?: unknown };
}

/** The `result` of a JSON-RPC response, with the endpoint's secrets hidden; its `error` as an RpcEndpointError. */
function resultOf(response: unknown, redactor: UrlRedactor, method: string): unknown {
  const url = redactor.redactedUrl;
  if (typeof response !== "object" || response === null || Array.isArray(response)) {
    throw new MalformedRpcResponseError(url, method, "the response is not a JSON-RPC object");
  }
  const { error, result } = response as RpcResponse;
  if (error !== undefined && error !== null) {
    const code = typeof error.code === "number" ? error.code : undefined;
    const message = typeof error.message === "string" ? error.message : (JSON.stringify(error) ?? "an error without a message");
    // Redacted before it is cut: a cut could split a URL or a key, and a part of one would no longer be recognised.
    throw new RpcEndpointError(url, method, redactor.redact(message).slice(0, 300), code);
  }
  if (!("result" in response)) throw new MalformedRpcResponseError(url, method, "the response has neither result nor error");
  return redactor.hasSecrets ? withSecretsHidden(result, redactor) : result;
}

/**
 * The parsed value (changed in place) with every string and key that quotes one of the endpoint's secrets redacted,
 * so that the parsers' errors, which quote what they refuse, cannot show one. Iterative: an answer may nest deeply.
 */
function withSecretsHidden(value: unknown, redactor: UrlRedactor): unknown {
  if (typeof value === "string") return redactor.hideSecrets(value);
  if (typeof value !== "object" || value === null) return value;
  const pending: Record<string, unknown>[] = [value as Record<string, unknown>];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    for (const key of Object.keys(node)) {
      const child = node[key];
      let shownKey = key;
      if (!Array.isArray(node) && redactor.quotesSecret(key)) {
        shownKey = redactor.hideSecrets(key);
        delete node[key];
      }
      if (typeof child === "string") node[shownKey] = redactor.hideSecrets(child);
      else {
        node[shownKey] = child;
        if (typeof child === "object" && child !== null) pending.push(child as Record<string, unknown>);
      }
    }
  }
  return value;
}

/**
 * Turns whatever the transport (ours over HTTP, viem's over ws) threw into our errors, keeping the HTTP status and the
 * reason, redacted before it is cut.
 */
function endpointError(error: unknown, redactor: UrlRedactor, method: string): Error {
  const url = redactor.redactedUrl;
  if (error instanceof RpcEndpointError || error instanceof MalformedRpcResponseError) return error;
  if (error instanceof SyntaxError) return new MalformedRpcResponseError(url, method, `the body is not JSON (${redactor.redact(error.message).slice(0, 80)})`);
  const viemError = error as { name?: string; status?: number; shortMessage?: string; message?: string; details?: string };
  const status = typeof viemError.status === "number" ? viemError.status : undefined;
  const reason =
    viemError.name === "TimeoutError" || (error instanceof HttpPostError && error.kind === "timeout")
      ? "timed out"
      : status !== undefined
        ? `HTTP ${status}${viemError.details ? ` ${redactor.redact(String(viemError.details)).slice(0, 120)}` : ""}`
        : redactor.redact(String(viemError.details ?? viemError.shortMessage ?? viemError.message ?? String(error))).slice(0, 200);
  return new RpcEndpointError(url, method, reason, undefined, status);
}

/**
 * What viem's HTTP client made of a non-2xx answer, kept so that errors read as before: "HTTP <status>" and the
 * JSON-RPC error's message, or the body (JSON-quoted, as viem did), or the status text.
 */
function httpStatusError(answer: JsonHttpAnswer, redactor: UrlRedactor, method: string): RpcEndpointError {
  let data: unknown;
  try {
    data = JSON.parse(answer.body || "{}");
  } catch {
    data = { error: answer.body };
  }
  const error = typeof data === "object" && data !== null ? (data as RpcResponse).error : undefined;
  let details: string | undefined;
  if (typeof error === "object" && error !== null && typeof error.code === "number" && typeof error.message === "string") details = error.message;
  else if (error !== undefined) details = JSON.stringify(error);
  details ||= answer.statusText;
  const reason = `HTTP ${answer.status}${details ? ` ${redactor.redact(details).slice(0, 120)}` : ""}`;
  return new RpcEndpointError(redactor.redactedUrl, method, reason, undefined, answer.status);
}

/**
 * JSON-RPC over HTTP(S) through node:http(s) (postJson.ts), not viem's HTTP client: that one calls Node's fetch,
 * whose undici holds ~30 MB of resident memory once used, a third of the whole service's.
 */
class HttpConnection implements RpcConnection {
  readonly transport = "http";
  readonly #redactor: UrlRedactor;
  readonly #target: PostTarget;
  readonly #timeoutMs: number;
  #abort = new AbortController();
  /** This endpoint's keep-alive sockets; made on the first request after each close(). */
  #agent: Agent | undefined;
  #nextId = 1;

  constructor(url: string, timeoutMs: number) {
    this.#redactor = new UrlRedactor(url);
    this.#target = postTarget(url);
    this.#timeoutMs = timeoutMs;
  }

  get redactedUrl(): string {
    return this.#redactor.redactedUrl;
  }

  async request(method: string, params: readonly unknown[]): Promise<unknown> {
    let answer: JsonHttpAnswer;
    try {
      this.#agent ??= createKeepAliveAgent(this.#target);
      answer = await postJson(this.#target, JSON.stringify({ jsonrpc: "2.0", id: this.#nextId++, method, params }), {
        timeoutMs: this.#timeoutMs,
        signal: this.#abort.signal,
        agent: this.#agent,
      });
    } catch (error) {
      throw endpointError(error, this.#redactor, method);
    }
    if (answer.status < 200 || answer.status > 299) throw httpStatusError(answer, this.#redactor, method);
    let response: unknown;
    try {
      response = JSON.parse(answer.body || (answer.contentType.startsWith("application/json") ? "" : "{}"));
    } catch (error) {
      throw endpointError(error, this.#redactor, method);
    }
    return resultOf(response, this.#redactor, method);
  }

  subscribeNewHeads(): Promise<void> {
    return Promise.reject(new RangeError("newHeads subscriptions need a ws(s) endpoint"));
  }

  /** Aborts the requests in flight and closes the kept sockets, so that none keeps the process busy. */
  close(): void {
    this.#abort.abort();
    this.#abort = new AbortController();
    this.#agent?.destroy();
    this.#agent = undefined;
  }
}

class WsConnection implements RpcConnection {
  readonly transport = "ws";
  readonly #redactor: UrlRedactor;
  readonly #url: string;
  readonly #timeoutMs: number;
  #client: Promise<SocketClient> | undefined;
  #nextId = 1;

  constructor(url: string, timeoutMs: number) {
    this.#url = url;
    this.#redactor = new UrlRedactor(url);
    this.#timeoutMs = timeoutMs;
  }

  get redactedUrl(): string {
    return this.#redactor.redactedUrl;
  }

  /**
   * viem's socket client, connected on first use. Reconnection is ours (the feed's backoff), not viem's: a socket
   * that failed is closed, which also drops it from viem's cache, and the next request opens a fresh one.
   */
  #socket(): Promise<SocketClient> {
    this.#client ??= openWebSocket(this.#url, { openTimeoutMs: this.#timeoutMs });
    const client = this.#client;
    return client.catch((error: unknown) => {
      if (this.#client === client) this.#client = undefined;
      throw error;
    });
  }

  async request(method: string, params: readonly unknown[]): Promise<unknown> {
    let response: unknown;
    try {
      const socket = await withTimeout(this.#socket(), this.#timeoutMs);
      response = await socket.requestAsync({ body: { id: this.#nextId++, method, params: [...params] }, timeout: this.#timeoutMs });
    } catch (error) {
      this.close();
      throw endpointError(error, this.#redactor, method);
    }
    return resultOf(response, this.#redactor, method);
  }

  async subscribeNewHeads(onHead: () => void, onError: (error: Error) => void): Promise<void> {
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      this.close();
      onError(endpointError(error ?? new Error("socket closed"), this.#redactor, "eth_subscribe"));
    };
    let socket: SocketClient;
    try {
      socket = await withTimeout(this.#socket(), this.#timeoutMs);
    } catch (error) {
      this.close();
      throw endpointError(error, this.#redactor, "eth_subscribe");
    }
    await new Promise<void>((resolve, reject) => {
      let subscribed = false;
      const timer = setTimeout(() => {
        if (subscribed) return;
        this.close();
        reject(new RpcEndpointError(this.redactedUrl, "eth_subscribe", "timed out"));
      }, this.#timeoutMs);
      socket.request({
        body: { id: this.#nextId++, method: "eth_subscribe", params: ["newHeads"] },
        onError: (error) => {
          if (!subscribed) {
            clearTimeout(timer);
            this.close();
            reject(endpointError(error, this.#redactor, "eth_subscribe"));
          } else fail(error);
        },
        onResponse: (message) => {
          const response = message as RpcResponse & { method?: string; id?: unknown };
          if (!subscribed) {
            clearTimeout(timer);
            try {
              const id = resultOf(response, this.#redactor, "eth_subscribe");
              if (typeof id !== "string") throw new MalformedRpcResponseError(this.redactedUrl, "eth_subscribe", "the subscription id is not a string");
            } catch (error) {
              this.close();
              reject(error instanceof Error ? error : new Error(String(error)));
              return;
            }
            subscribed = true;
            resolve();
            return;
          }
          if (response.method === "eth_subscription") onHead();
        },
      });
    });
  }

  close(): void {
    const client = this.#client;
    this.#client = undefined;
    client?.then((socket) => socket.close()).catch(() => {});
  }
}

function withTimeout<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(Object.assign(new Error("timed out"), { name: "TimeoutError" })), timeoutMs);
    }),
  ]).finally(() => clearTimeout(timer));
}
