// The HTTP side of an RPC connection: one JSON POST over node:http(s) with a keep-alive agent. It replaces viem's
// HTTP client, which calls Node's built-in fetch: the first fetch loads undici, and a process that made a few hundred
// fetch calls holds ~30 MB more resident memory than one that made the same requests through node:http.
//
// The endpoint may be hostile: its answer is read up to MAX_RPC_ANSWER_BYTES (decoded), and the moment it passes that,
// reading stops and the socket is dropped. Requests ask for no compression; gzip and deflate (32 KiB windows) are still
// read from servers that compress anyway, under the same cap, and every other coding (brotli, whose 16 MiB window and
// ratio of millions make a 1.6 KB answer decode to a GiB) is refused unread.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { Readable } from "node:stream";
import { createGunzip, createInflate } from "node:zlib";
import { MAX_RPC_ANSWER_BYTES } from "./answerLimits.ts";

/** What the endpoint answered: its status and body, whatever they are (the caller judges them). */
export interface JsonHttpAnswer {
  readonly status: number;
  readonly statusText: string;
  readonly contentType: string;
  /** The Retry-After header as sent ("" without one). */
  readonly retryAfter: string;
  readonly body: string;
}

/**
 * Why a POST got no answer. `kind` is what the caller needs to tell apart; `message` says what happened.
 * encoding: the answer came in a content coding that is refused (only identity, gzip and deflate are read).
 */
export class HttpPostError extends Error {
  override name = "HttpPostError";
  constructor(
    readonly kind: "timeout" | "aborted" | "too-large" | "encoding" | "network",
    message: string,
  ) {
    super(message);
  }
}

/**
 * A keep-alive agent for one endpoint (its connection owns it and destroys it on close): sockets are reused while the
 * server keeps them open (Node honours the server's Keep-Alive timeout hint) and closed after a minute unused.
 */
export function createKeepAliveAgent(target: PostTarget): HttpAgent {
  const options = { keepAlive: true, maxFreeSockets: 4, timeout: 60_000, scheduling: "lifo" as const };
  return target.url.protocol === "https:" ? new HttpsAgent(options) : new HttpAgent(options);
}

export interface JsonPostOptions {
  /** From the request's start to its answer's end. */
  readonly timeoutMs: number;
  /** The endpoint's keep-alive agent (createKeepAliveAgent). */
  readonly agent: HttpAgent;
  /** Aborts the request (e.g. the feed stopped). */
  readonly signal?: AbortSignal;
  readonly maxResponseBytes?: number;
}

/** A target URL split once: credentials in it become a Basic authorization header, as viem did. */
export interface PostTarget {
  readonly url: URL;
  readonly authorization?: string;
}

export function postTarget(url: string): PostTarget {
  const parsed = new URL(url);
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new RangeError("an HTTP RPC URL must start with http(s)://");
  if (parsed.username === "" && parsed.password === "") return { url: parsed };
  const authorization = `Basic ${Buffer.from(`${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`).toString("base64")}`;
  parsed.username = "";
  parsed.password = "";
  return { url: parsed, authorization };
}

/**
 * POSTs `json` (already serialised) and resolves with the answer, of any status. Rejects with HttpPostError when
 * there is none: timed out (from the request's start to its body's end), aborted, too large, in a refused coding, or
 * a network failure. Once settled, nothing the endpoint still sends is read: the socket is destroyed.
 */
export function postJson(target: PostTarget, json: string, options: JsonPostOptions): Promise<JsonHttpAnswer> {
  const maxBytes = options.maxResponseBytes ?? MAX_RPC_ANSWER_BYTES;
  return new Promise<JsonHttpAnswer>((resolve, reject) => {
    const { signal } = options;
    if (signal?.aborted) return reject(new HttpPostError("aborted", "aborted"));
    const requestBody = Buffer.from(json, "utf8");
    const headers: Record<string, string | number> = {
      "content-type": "application/json",
      "content-length": requestBody.length,
      accept: "application/json",
      "accept-encoding": "identity",
    };
    if (target.authorization !== undefined) headers.authorization = target.authorization;
    const url = target.url;
    const request = (url.protocol === "https:" ? httpsRequest : httpRequest)({
      protocol: url.protocol,
      hostname: url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname,
      port: url.port === "" ? undefined : Number(url.port),
      path: `${url.pathname}${url.search}`,
      method: "POST",
      headers,
      agent: options.agent,
    });

    let settled = false;
    let reading: Readable | undefined;
    let body = new AnswerBody(maxBytes);
    const settle = () => {
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    };
    const fail = (error: HttpPostError) => {
      if (settled) return;
      settle();
      body = new AnswerBody(maxBytes);
      // Stop decoding at once and drop the socket: a half-read answer would corrupt the next one, and whatever the
      // endpoint still sends is neither read nor decoded.
      reading?.destroy();
      request.destroy();
      reject(error);
    };
    const onAbort = () => fail(new HttpPostError("aborted", "aborted"));
    const timer = setTimeout(() => fail(new HttpPostError("timeout", "timed out")), options.timeoutMs);
    signal?.addEventListener("abort", onAbort, { once: true });

    // Kept for the request's whole life: a socket error after settling is ignored, never thrown.
    request.on("error", (error: Error) => fail(new HttpPostError("network", error.message || String(error))));
    request.on("response", (response: IncomingMessage) => {
      response.on("error", (error: Error) => fail(new HttpPostError("network", error.message || String(error))));
      if (settled) {
        response.destroy();
        return;
      }
      const declared = Number(response.headers["content-length"]);
      if (Number.isFinite(declared) && declared > maxBytes) return fail(tooLarge(maxBytes, declared));
      const encoding = contentEncodingOf(response);
      const decoder = encoding === "gzip" || encoding === "x-gzip" ? createGunzip() : encoding === "deflate" ? createInflate() : undefined;
      if (decoder === undefined && encoding !== "" && encoding !== "identity") {
        return fail(
          new HttpPostError(
            "encoding",
            `the answer is compressed with "${encoding.slice(0, 40)}" although the request asked for none; only gzip and deflate are read`,
          ),
        );
      }
      const stream: Readable = decoder === undefined ? response : response.pipe(decoder);
      reading = decoder;
      stream.on("data", (chunk: Buffer) => {
        if (settled) return;
        if (body.size + chunk.length > maxBytes) return fail(tooLarge(maxBytes, body.size + chunk.length));
        body.append(chunk);
      });
      stream.on("error", (error: Error) => fail(new HttpPostError("network", error.message || String(error))));
      response.on("close", () => {
        if (!response.complete) fail(new HttpPostError("network", "the connection closed before the answer ended"));
      });
      stream.on("end", () => {
        if (settled) return;
        const text = body.text();
        settle();
        body = new AnswerBody(maxBytes);
        resolve({
          status: response.statusCode ?? 0,
          statusText: response.statusMessage ?? "",
          contentType: String(response.headers["content-type"] ?? ""),
          retryAfter: String(response.headers["retry-after"] ?? ""),
          body: text,
        });
      });
    });
    request.end(requestBody);
  });
}

/**
 * An answer's bytes as they arrive, copied into one buffer that doubles as needed (up to the cap) rather than kept as
 * the socket's chunks: an answer near the cap then leaves no trail of 64 KB blocks scattered through the heap, which
 * the allocator would keep resident long after they are freed.
 */
class AnswerBody {
  #bytes = Buffer.alloc(0);
  #size = 0;

  constructor(readonly maxBytes: number) {}

  get size(): number {
    return this.#size;
  }

  append(chunk: Buffer): void {
    const needed = this.#size + chunk.length;
    if (needed > this.#bytes.length) {
      const grown = Buffer.allocUnsafeSlow(Math.min(this.maxBytes, Math.max(needed, 2 * this.#bytes.length, 16_384)));
      this.#bytes.copy(grown, 0, 0, this.#size);
      this.#bytes = grown;
    }
    chunk.copy(this.#bytes, this.#size);
    this.#size = needed;
  }

  text(): string {
    return this.#bytes.toString("utf8", 0, this.#size);
  }
}

function tooLarge(maxBytes: number, size: number): HttpPostError {
  // "exceeded", as viem's message said: a size refusal the feed answers by asking for fewer blocks.
  return new HttpPostError("too-large", `HTTP response body exceeded the size limit (${size} bytes, at most ${maxBytes})`);
}

function contentEncodingOf(response: IncomingMessage): string {
  return String(response.headers["content-encoding"] ?? "")
    .trim()
    .toLowerCase();
}
