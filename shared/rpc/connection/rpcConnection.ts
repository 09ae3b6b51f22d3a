import type { Agent } from "node:http";
import { retryAfterMs } from "../endpoints/backoff.ts";
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
  /**
   * Several calls at once: over HTTP one JSON-RPC batch in one request, under the same bounds as `request` (answer
   * size, timeout, redaction), its answers matched to the calls by id; over ws separate messages on the one socket.
   * Resolves with one outcome per call, in the calls' order: its result (redacted as `request`'s), or the error it
   * would have thrown alone. An endpoint that answers the whole batch with one JSON-RPC error (as endpoints that take
   * no batches do) gives every call that error. Rejects only when the exchange itself fails: the transport, an HTTP
   * status, or an answer that is not a batch's answer (MalformedRpcResponseError).
   */
  requestBatch(calls: readonly RpcCall[]): Promise<readonly RpcOutcome[]>;
  /**
   * ws only: calls `onHead` with the header of each `newHeads` notification (as sent, secrets hidden: parse it before
   * use), `onError` once if the subscription or socket dies.
   */
  subscribeNewHeads(onHead: (header: unknown) => void, onError: (error: Error) => void): Promise<void>;
  /** Closes its sockets (both transports); pending requests fail. The next request connects again. */
  close(): void;
}

/** One call of a batch. */
export interface RpcCall {
  readonly method: string;
  readonly params: readonly unknown[];
}

/** What one call of a batch came to: its result, or the error the call would have thrown alone. */
export type RpcOutcome = { readonly ok: true; readonly result: unknown } | { readonly ok: false; readonly error: Error };

/** More calls than any caller here makes at once; a batch beyond it is a bug of the caller. */
export const MAX_BATCH_CALLS = 32;

export function transportOf(url: string): "http" | "ws" {
  const protocol = new URL(url).protocol;
  if (protocol === "http:" || protocol === "https:") return "http";
  if (protocol === "ws:" || protocol === "wss:") return "ws";
  throw new RangeError(`${redactUrl(url)}: an RPC URL must start with http(s):// or ws(s)://`);
}

/** `shownAs`: how the endpoint is named in errors and logs (endpointNamesOf); its origin alone by default. */
export function createRpcConnection(url: string, options: { timeoutMs: number; shownAs?: string | undefined }): RpcConnection {
  return transportOf(url) === "http" ? new HttpConnection(url, options.timeoutMs, options.shownAs) : new WsConnection(url, options.timeoutMs, options.shownAs);
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

/** A call's outcome: its result, or the error its answer carries (or its answer's garbage). */
function outcomeOf(response: unknown, redactor: UrlRedactor, method: string): RpcOutcome {
  try {
    return { ok: true, result: resultOf(response, redactor, method) };
  } catch (error) {
    return { ok: false, error: error as Error };
  }
}

function checkBatchSize(calls: readonly RpcCall[]): void {
  if (calls.length < 1 || calls.length > MAX_BATCH_CALLS) {
    throw new RangeError(`a batch holds 1 to ${MAX_BATCH_CALLS} calls (got ${calls.length}); split it into several`);
  }
}

/** How a batch is named in errors: its methods, in order. */
function batchLabel(calls: readonly RpcCall[]): string {
  return `batch(${calls.map((call) => call.method).join(", ")})`;
}

/** A JSON-RPC error that an endpoint answered (as opposed to a transport failure or garbage). */
function isErrorAnswer(error: unknown): boolean {
  return error instanceof RpcEndpointError && error.rpcCode !== undefined && error.httpStatus === undefined;
}

/**
 * Matches a batch's answer to its calls by id (JSON-RPC lets an endpoint answer in any order). Every call must be
 * answered once: an answer to a call not made, a second answer to one, or a call left unanswered makes the whole answer
 * garbage. Errors that concern the batch rather than a call (one error object instead of an array, or an element with
 * a null id) go to every call they may concern.
 */
function outcomesOfBatch(response: unknown, calls: readonly RpcCall[], ids: readonly number[], redactor: UrlRedactor, label: string): RpcOutcome[] {
  const url = redactor.redactedUrl;
  if (!Array.isArray(response)) {
    if (isObject(response) && response.error !== undefined && response.error !== null) return calls.map((call) => outcomeOf(response, redactor, call.method));
    throw new MalformedRpcResponseError(url, label, "the answer to a batch is not an array");
  }
  const answers = new Map<number, unknown>();
  let batchError: unknown;
  for (const element of response) {
    const id = isObject(element) ? element.id : undefined;
    if (isObject(element) && id === null && element.error !== undefined && element.error !== null) {
      batchError = element;
      continue;
    }
    if (typeof id !== "number" || !ids.includes(id)) {
      throw new MalformedRpcResponseError(url, label, `it answers a call that was not made (id ${redactor.redact(String(JSON.stringify(id))).slice(0, 24)})`);
    }
    if (answers.has(id)) throw new MalformedRpcResponseError(url, label, `it answers call ${id} twice`);
    answers.set(id, element);
  }
  return calls.map((call, i) => {
    const answer = answers.get(ids[i]!) ?? batchError;
    if (answer === undefined) throw new MalformedRpcResponseError(url, label, `it leaves ${call.method} (id ${ids[i]}) unanswered`);
    return outcomeOf(answer, redactor, call.method);
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
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
  return new RpcEndpointError(redactor.redactedUrl, method, reason, undefined, answer.status, retryAfterMs(answer.status, answer.retryAfter, Date.now()));
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

  constructor(url: string, timeoutMs: number, shownAs: string | undefined) {
    this.#redactor = new UrlRedactor(url, shownAs);
    this.#target = postTarget(url);
    this.#timeoutMs = timeoutMs;
  }

  get redactedUrl(): string {
    return this.#redactor.redactedUrl;
  }

  async request(method: string, params: readonly unknown[]): Promise<unknown> {
    const response = await this.#post({ jsonrpc: "2.0", id: this.#nextId++, method, params }, method);
    return resultOf(response, this.#redactor, method);
  }

  async requestBatch(calls: readonly RpcCall[]): Promise<readonly RpcOutcome[]> {
    checkBatchSize(calls);
    const ids = calls.map(() => this.#nextId++);
    const label = batchLabel(calls);
    const response = await this.#post(
      calls.map((call, i) => ({ jsonrpc: "2.0", id: ids[i], method: call.method, params: call.params })),
      label,
    );
    return outcomesOfBatch(response, calls, ids, this.#redactor, label);
  }

  /** POSTs one JSON-RPC payload and parses the answer; the transport's failures, statuses and non-JSON become our errors. */
  async #post(payload: unknown, method: string): Promise<unknown> {
    let answer: JsonHttpAnswer;
    try {
      this.#agent ??= createKeepAliveAgent(this.#target);
      answer = await postJson(this.#target, JSON.stringify(payload), { timeoutMs: this.#timeoutMs, signal: this.#abort.signal, agent: this.#agent });
    } catch (error) {
      throw endpointError(error, this.#redactor, method);
    }
    if (answer.status < 200 || answer.status > 299) throw httpStatusError(answer, this.#redactor, method);
    try {
      return JSON.parse(answer.body || (answer.contentType.startsWith("application/json") ? "" : "{}"));
    } catch (error) {
      throw endpointError(error, this.#redactor, method);
    }
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

  constructor(url: string, timeoutMs: number, shownAs: string | undefined) {
    this.#url = url;
    this.#redactor = new UrlRedactor(url, shownAs);
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

  /**
   * Separate messages on the one socket (a ws request costs no connection), answered as a batch is: a call's JSON-RPC
   * error is its outcome; a failure of the socket rejects.
   */
  async requestBatch(calls: readonly RpcCall[]): Promise<readonly RpcOutcome[]> {
    checkBatchSize(calls);
    const settled = await Promise.allSettled(calls.map((call) => this.request(call.method, call.params)));
    const broken = settled.find((each) => each.status === "rejected" && !isErrorAnswer(each.reason));
    if (broken?.status === "rejected") throw broken.reason;
    return settled.map((each) => (each.status === "fulfilled" ? { ok: true, result: each.value } : { ok: false, error: each.reason as Error }));
  }

  async subscribeNewHeads(onHead: (header: unknown) => void, onError: (error: Error) => void): Promise<void> {
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
          if (response.method === "eth_subscription") onHead(this.#headerOf(response));
        },
      });
    });
  }

  /** The header a `newHeads` notification carries, with the endpoint's secrets hidden (a parser may quote it). */
  #headerOf(notification: object): unknown {
    const params = (notification as { params?: unknown }).params;
    const header = typeof params === "object" && params !== null ? (params as { result?: unknown }).result : undefined;
    return this.#redactor.hasSecrets ? withSecretsHidden(header, this.#redactor) : header;
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
