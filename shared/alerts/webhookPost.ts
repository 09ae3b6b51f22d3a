// One try of a webhook delivery: a JSON POST over node:http(s), bounded in time and in what it reads back. Node's
// fetch is not used: its undici holds ~30 MB of resident memory once loaded (see shared/rpc/connection/postJson.ts), and its
// redirect and body handling would need undoing. The receiver may be hostile or broken: its answer's body is read and
// discarded up to a cap, the whole try (answer included) ends at its timeout, and a redirect is never followed (a
// redirect to a remote http URL would carry the alert off this computer unencrypted).
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from "node:dns";
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { isLoopbackAddress } from "../core/alerts/webhookUrl.ts";

/** The first bytes of an answer kept to show why a receiver refused (Slack's `invalid_token`, Discord's JSON error). */
const ANSWER_EXCERPT_BYTES = 240;

export interface WebhookPostOptions {
  /** The whole try: from the request's start to its answer's end. */
  readonly timeoutMs: number;
  /** The answer's body is read and dropped up to this many bytes; past it, the connection is closed. */
  readonly maxAnswerBytes: number;
  readonly userAgent: string;
  /** Ends the try at once (the sender stopped). */
  readonly signal: AbortSignal;
}

/**
 * How one try ended. `answered`: the receiver sent a status (judged by the caller), with the start of its body and
 * its Location and Retry-After headers; the body may have been cut (too long, or still arriving at the timeout).
 * `failed`: no status came: `timeout`, `network` (no connection, reset, TLS), `not-loopback` (an http URL's host
 * resolved to an address off this computer: nothing was sent) or `aborted`.
 */
export type WebhookPostResult = AnsweredPost | FailedPost;

export interface AnsweredPost {
  readonly kind: "answered";
  readonly status: number;
  readonly statusText: string;
  /** The Location header as sent ("" without one): where a redirect would lead. */
  readonly location: string;
  /** The Retry-After header as sent ("" without one). */
  readonly retryAfter: string;
  /** The body's first bytes as text (UTF-8, possibly cut mid-character). */
  readonly excerpt: string;
}

export interface FailedPost {
  readonly kind: "failed";
  readonly reason: "timeout" | "network" | "not-loopback" | "aborted";
  readonly message: string;
}

/** POSTs `body` (JSON) to `url`, already checked with webhookUrlProblem. Resolves with how the try ended; never rejects. */
export function postWebhook(url: URL, body: Buffer, options: WebhookPostOptions): Promise<WebhookPostResult> {
  return new Promise<WebhookPostResult>((resolve) => {
    const { signal } = options;
    if (signal.aborted) return resolve({ kind: "failed", reason: "aborted", message: "stopped before sending" });
    const isHttps = url.protocol === "https:";
    // A fresh agent per try, closed with it: no socket outlives a delivery, and no state is shared between senders.
    const agent = isHttps ? new HttpsAgent({ keepAlive: false }) : new HttpAgent({ keepAlive: false });
    const request = (isHttps ? httpsRequest : httpRequest)({
      protocol: url.protocol,
      hostname: url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname,
      port: url.port === "" ? undefined : Number(url.port),
      path: `${url.pathname}${url.search}`,
      method: "POST",
      headers: {
        "content-type": "application/json",
        "content-length": body.length,
        "user-agent": options.userAgent,
        "accept-encoding": "identity",
      },
      agent,
      // http is allowed only to this computer: a name (localhost) must resolve to a loopback address, or nothing is sent.
      ...(isHttps ? {} : { lookup: loopbackOnlyLookup() }),
    });

    let settled = false;
    /** The answer's status line and headers, once they came: from then on, they decide the try. */
    let head: Omit<AnsweredPost, "excerpt"> | undefined;
    const excerpt = new AnswerExcerpt(ANSWER_EXCERPT_BYTES);
    const finish = (result: WebhookPostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      // Whatever the receiver still sends is neither read nor waited for.
      request.destroy();
      agent.destroy();
      resolve(result);
    };
    const finishAnswered = () => {
      if (head !== undefined) finish({ ...head, excerpt: excerpt.text() });
    };
    const failUnlessAnswered = (reason: "timeout" | "network" | "aborted", message: string) => {
      if (head !== undefined) finishAnswered();
      else finish({ kind: "failed", reason, message });
    };
    const onAbort = () => failUnlessAnswered("aborted", "stopped while sending");
    const timer = setTimeout(() => failUnlessAnswered("timeout", `no answer within ${secondsText(options.timeoutMs)}`), options.timeoutMs);
    signal.addEventListener("abort", onAbort, { once: true });

    request.on("error", (error: Error) => {
      if (error instanceof NotLoopbackError) finish({ kind: "failed", reason: "not-loopback", message: error.message });
      else failUnlessAnswered("network", error.message || String(error));
    });
    request.on("response", (response: IncomingMessage) => {
      head = {
        kind: "answered",
        status: response.statusCode ?? 0,
        statusText: response.statusMessage ?? "",
        location: headerText(response.headers.location),
        retryAfter: headerText(response.headers["retry-after"]),
      };
      let answerBytes = 0;
      response.on("data", (chunk: Buffer) => {
        answerBytes += chunk.length;
        excerpt.append(chunk);
        if (answerBytes > options.maxAnswerBytes) finishAnswered();
      });
      response.on("end", finishAnswered);
      response.on("error", finishAnswered);
      response.on("close", finishAnswered);
    });
    request.end(body);
  });
}

/** The first bytes of an answer, copied out of the socket's chunks (which are not kept). */
class AnswerExcerpt {
  readonly #chunks: Buffer[] = [];
  #bytes = 0;

  constructor(readonly maxBytes: number) {}

  append(chunk: Buffer): void {
    if (this.#bytes >= this.maxBytes) return;
    const kept = Buffer.from(chunk.subarray(0, this.maxBytes - this.#bytes));
    this.#chunks.push(kept);
    this.#bytes += kept.length;
  }

  text(): string {
    return Buffer.concat(this.#chunks).toString("utf8");
  }
}

/** Raised by the lookup of an http URL's host when it resolves off this computer; nothing has been sent then. */
export class NotLoopbackError extends Error {
  override name = "NotLoopbackError";
}

/** The resolver of loopbackOnlyLookup: dns.lookup's form with `all: true`. */
export type ResolveAll = (
  hostname: string,
  options: LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/**
 * A lookup for node:http that refuses any name resolving to an address off this computer (http may reach only this
 * computer): the connection then fails with NotLoopbackError, before anything is sent. `resolveAll` is dns.lookup.
 */
export function loopbackOnlyLookup(resolveAll: ResolveAll = dnsLookup): LookupFunction {
  return (hostname, options, callback) => {
    resolveAll(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, "", 4);
      const outside = addresses.find((entry) => !isLoopbackAddress(entry.address));
      if (outside !== undefined || addresses.length === 0) {
        const where = outside?.address ?? "no address";
        return callback(new NotLoopbackError(`${hostname} resolves to ${where}, not to this computer: use https, or 127.0.0.1`), "", 4);
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    });
  };
}

function headerText(value: string | string[] | undefined): string {
  return Array.isArray(value) ? (value[0] ?? "") : (value ?? "");
}

function secondsText(ms: number): string {
  return ms % 1_000 === 0 ? `${ms / 1_000} s` : `${ms} ms`;
}
