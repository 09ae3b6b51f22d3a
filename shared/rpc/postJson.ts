// The HTTP side of an RPC connection: one JSON POST over node:http(s) with a keep-alive agent. It replaces viem's
// HTTP client, which calls Node's built-in fetch: the first fetch loads undici, and a process that made a few hundred
// fetch calls holds ~30 MB more resident memory than one that made the same requests through node:http.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";

/** What the endpoint answered: its status and body, whatever they are (the caller judges them). */
export interface JsonHttpAnswer {
  readonly status: number;
  readonly statusText: string;
  readonly contentType: string;
  readonly body: string;
}

/** Why a POST got no answer. `kind` is what the caller needs to tell apart; `message` says what happened. */
export class HttpPostError extends Error {
  override name = "HttpPostError";
  constructor(
    readonly kind: "timeout" | "aborted" | "too-large" | "network",
    message: string,
  ) {
    super(message);
  }
}

/** As viem's HTTP client: an answer larger than this is refused rather than held. */
export const MAX_RESPONSE_BYTES = 10_485_760;

// Shared by every endpoint: sockets are kept per host and port, reused while the server keeps them open (Node honours
// the server's Keep-Alive timeout hint), and closed after a minute unused.
const agentOptions = { keepAlive: true, maxFreeSockets: 4, timeout: 60_000, scheduling: "lifo" as const };
const httpAgent = new HttpAgent(agentOptions);
const httpsAgent = new HttpsAgent(agentOptions);

export interface JsonPostOptions {
  readonly timeoutMs: number;
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
 * there is none: timed out (from the request's start to its body's end), aborted, too large, or a network failure.
 */
export function postJson(target: PostTarget, json: string, options: JsonPostOptions): Promise<JsonHttpAnswer> {
  const maxBytes = options.maxResponseBytes ?? MAX_RESPONSE_BYTES;
  return new Promise<JsonHttpAnswer>((resolve, reject) => {
    const { signal } = options;
    if (signal?.aborted) return reject(new HttpPostError("aborted", "aborted"));
    const body = Buffer.from(json, "utf8");
    const https = target.url.protocol === "https:";
    const headers: Record<string, string | number> = {
      "content-type": "application/json",
      "content-length": body.length,
      accept: "application/json",
    };
    if (target.authorization !== undefined) headers.authorization = target.authorization;
    const url = target.url;
    const request = (https ? httpsRequest : httpRequest)({
      protocol: url.protocol,
      hostname: url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname,
      port: url.port === "" ? undefined : Number(url.port),
      path: `${url.pathname}${url.search}`,
      method: "POST",
      headers,
      agent: https ? httpsAgent : httpAgent,
    });

    let settled = false;
    const finish = (error: HttpPostError | undefined, answer?: JsonHttpAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      if (error) {
        // The socket is not reused: a half-read answer would corrupt the next one.
        request.destroy();
        reject(error);
      } else resolve(answer!);
    };
    const onAbort = () => finish(new HttpPostError("aborted", "aborted"));
    const timer = setTimeout(() => finish(new HttpPostError("timeout", "timed out")), options.timeoutMs);
    signal?.addEventListener("abort", onAbort, { once: true });

    request.on("error", (error: Error) => finish(new HttpPostError("network", error.message || String(error))));
    request.on("response", (response: IncomingMessage) => {
      const declared = Number(response.headers["content-length"]);
      if (Number.isFinite(declared) && declared > maxBytes) return finish(tooLarge(maxBytes, declared));
      const stream = decoded(response);
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) return finish(tooLarge(maxBytes, size));
        chunks.push(chunk);
      });
      stream.on("error", (error: Error) => finish(new HttpPostError("network", error.message || String(error))));
      response.on("close", () => {
        if (!response.complete) finish(new HttpPostError("network", "the connection closed before the answer ended"));
      });
      stream.on("end", () =>
        finish(undefined, {
          status: response.statusCode ?? 0,
          statusText: response.statusMessage ?? "",
          contentType: String(response.headers["content-type"] ?? ""),
          body: Buffer.concat(chunks, size).toString("utf8"),
        }),
      );
    });
    request.end(body);
  });
}

function tooLarge(maxBytes: number, size: number): HttpPostError {
  // "exceeded", as viem's message said: a size refusal the feed answers by asking for fewer blocks.
  return new HttpPostError("too-large", `HTTP response body exceeded the size limit (${size} bytes, at most ${maxBytes})`);
}

/** The body as sent, or decompressed when a server compressed it although the request did not offer to accept that. */
function decoded(response: IncomingMessage): Readable {
  const encoding = String(response.headers["content-encoding"] ?? "")
    .trim()
    .toLowerCase();
  const decoder =
    encoding === "gzip" || encoding === "x-gzip"
      ? createGunzip()
      : encoding === "deflate"
        ? createInflate()
        : encoding === "br"
          ? createBrotliDecompress()
          : undefined;
  if (decoder === undefined) return response;
  response.on("error", (error) => decoder.destroy(error));
  return response.pipe(decoder);
}
