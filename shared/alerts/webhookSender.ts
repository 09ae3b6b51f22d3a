// Delivers alerts to their rules' webhooks (CONTRACT.md, "Alerts"): a POST of the AlertEvent as JSON, 5 s a try, 3
// tries with backoff, https or loopback http only. One sender per service. `send` only queues, so a slow, hanging or
// failing receiver never delays the feed, the other channels or the API, and what it holds is bounded: at most
// `maxPending` deliveries (the oldest waiting one is dropped for a new one), at most `maxInFlight` requests at once,
// and one delivery at a time per receiver (scheme, host and port), so that a receiver that hangs holds one request
// and never the others' turns.

// package.json for the User-Agent's version: bundled whole (2.5 KB), since esbuild takes a named import of JSON only
// without the import attribute, and plain Node only with it.
import packageJson from "../../package.json" with { type: "json" };
import { quotesWebhookUrl, webhookShown, webhookUrlProblem } from "../core/alerts/webhookUrl.ts";
import type { Logger } from "../log/logger.ts";
import { backoffMs, checkedBackoff, retryAfterMs, type BackoffOptions } from "../rpc/endpoints/backoff.ts";
import { UrlRedactor } from "../rpc/connection/redactUrl.ts";
import type { AlertEvent } from "../wire/alerts.ts";
import { postWebhook, type AnsweredPost, type WebhookPostResult } from "./webhookPost.ts";

/** One alert for one rule's webhook. */
export interface WebhookDelivery {
  readonly ruleId: string;
  readonly url: string;
  /** The POST's body, as JSON.stringify writes it. */
  readonly event: AlertEvent;
}

/** How a delivery ended, after its retries: what `GET /alerts` shows as the rule's `lastWebhook`. */
export interface WebhookOutcome {
  /** When it ended (epoch ms). */
  readonly at: number;
  readonly ok: boolean;
  /** What happened, for a person: never the URL's path or query. */
  readonly detail: string;
}

export type WebhookOutcomeListener = (ruleId: string, outcome: WebhookOutcome) => void;

export interface WebhookSenderOptions {
  readonly logger: Logger;
  /** Each try, from its request's start to its answer's end (default 5 s). */
  readonly timeoutMs?: number;
  /** Tries in all, the first included (default 3). */
  readonly tries?: number;
  /**
   * The waits between tries, by the one backoff policy (rpc/endpoints/backoff.ts): by default 1 s, then 4 s, and a 429's or
   * 503's Retry-After honoured up to 60 s.
   */
  readonly backoff?: Partial<BackoffOptions>;
  /** Deliveries held at once, waiting or in flight, over all rules (default 100). */
  readonly maxPending?: number;
  /** Requests open at once (default 4). */
  readonly maxInFlight?: number;
  /** An answer's body is read and dropped up to this many bytes, then the connection is closed (default 64 KiB). */
  readonly maxAnswerBytes?: number;
  /** The User-Agent header (default gasfees/<version>). */
  readonly userAgent?: string;
  /** Told every delivery's outcome, as onOutcome's listeners are. */
  readonly onOutcome?: WebhookOutcomeListener;
  /** How long stop() lets the deliveries held go on (tries and queued ones) before it drops the rest (default 2 s). */
  readonly shutdownGraceMs?: number;
}

export const DEFAULT_WEBHOOK_TIMEOUT_MS = 5_000;
export const DEFAULT_WEBHOOK_TRIES = 3;
/** 1 s before the second try, 4 s before the third (and any later one); a Retry-After honoured up to 60 s. */
export const DEFAULT_WEBHOOK_BACKOFF: BackoffOptions = { initialMs: 1_000, factor: 4, maxMs: 4_000, maxRetryAfterMs: 60_000 };
export const DEFAULT_WEBHOOK_MAX_PENDING = 100;
export const DEFAULT_WEBHOOK_MAX_IN_FLIGHT = 4;
export const DEFAULT_WEBHOOK_MAX_ANSWER_BYTES = 64 * 1024;
/** Time enough for a queued alert to reach a receiver that answers (a try is ~0.1-1 s), short enough for a shutdown. */
export const DEFAULT_WEBHOOK_SHUTDOWN_GRACE_MS = 2_000;

/** An answer's excerpt, as shown in an outcome: this many characters at most. */
const EXCERPT_SHOWN_CHARS = 120;

/**
 * A delivery held by the sender. `waiting`: for a request slot and its receiver's turn (new, or due for its next try);
 * `backoff`: between two tries (it keeps its receiver's turn); `sending`: a try is open.
 */
class HeldDelivery {
  state: "waiting" | "backoff" | "sending" = "waiting";
  triesMade = 0;
  backoffTimer: ReturnType<typeof setTimeout> | undefined;
  abort: AbortController | undefined;

  constructor(
    readonly ruleId: string,
    readonly url: URL,
    /** The receiver (scheme, host, port): one delivery at a time per receiver. */
    readonly receiver: string,
    readonly shown: string,
    readonly redactor: UrlRedactor,
    readonly body: Buffer,
  ) {}
}

/** What a finished try means for the delivery. */
type TryVerdict =
  | { readonly kind: "done"; readonly ok: boolean; readonly detail: string }
  | { readonly kind: "retry"; readonly why: string; readonly retryAfterMs?: number | undefined };

export class WebhookSender {
  readonly #logger: Logger;
  readonly #timeoutMs: number;
  readonly #tries: number;
  readonly #backoff: BackoffOptions;
  readonly #maxPending: number;
  readonly #maxInFlight: number;
  readonly #maxAnswerBytes: number;
  readonly #userAgent: string;
  readonly #listeners = new Set<WebhookOutcomeListener>();
  /** Every delivery held, oldest first. */
  readonly #held: HeldDelivery[] = [];
  /** The receivers whose turn a delivery holds, from its first try to its outcome. */
  readonly #busyReceivers = new Set<string>();
  /** Tries open now, to be awaited by stop(). */
  readonly #openTries = new Set<Promise<void>>();
  #stopped = false;
  /** stop() was called: nothing new is accepted, and what is held goes on for the grace. */
  #closing = false;
  readonly #shutdownGraceMs: number;
  /** Resolved once no delivery is held (stop's grace ends early then). */
  readonly #idleWaiters = new Set<() => void>();

  constructor(options: WebhookSenderOptions) {
    this.#logger = options.logger;
    this.#timeoutMs = positive(options.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS, "timeoutMs");
    this.#tries = positiveInteger(options.tries ?? DEFAULT_WEBHOOK_TRIES, "tries");
    this.#backoff = checkedBackoff({ ...DEFAULT_WEBHOOK_BACKOFF, ...options.backoff });
    this.#maxPending = positiveInteger(options.maxPending ?? DEFAULT_WEBHOOK_MAX_PENDING, "maxPending");
    this.#maxInFlight = positiveInteger(options.maxInFlight ?? DEFAULT_WEBHOOK_MAX_IN_FLIGHT, "maxInFlight");
    this.#maxAnswerBytes = positiveInteger(options.maxAnswerBytes ?? DEFAULT_WEBHOOK_MAX_ANSWER_BYTES, "maxAnswerBytes");
    this.#userAgent = options.userAgent ?? `gasfees/${packageJson.version}`;
    this.#shutdownGraceMs = nonNegative(options.shutdownGraceMs ?? DEFAULT_WEBHOOK_SHUTDOWN_GRACE_MS, "shutdownGraceMs");
    if (options.onOutcome) this.#listeners.add(options.onOutcome);
  }

  /** Deliveries held now: waiting, between tries, or being sent. */
  get pendingCount(): number {
    return this.#held.length;
  }

  /** Requests open now. */
  get inFlightCount(): number {
    return this.#openTries.size;
  }

  /** Calls `listener` with every delivery's outcome from now on; returns what stops that. */
  onOutcome(listener: WebhookOutcomeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Queues one delivery and returns at once; never throws. A URL that webhookUrlProblem refuses is not sent (its
   * outcome says why). When `maxPending` deliveries are held already, the oldest one not being sent is dropped.
   */
  send(delivery: WebhookDelivery): void {
    try {
      this.#accept(delivery);
    } catch (error) {
      this.#logger.error("webhook delivery could not be queued", { rule: delivery.ruleId, to: webhookShown(delivery.url), error: String(error) });
    }
  }

  /**
   * Ends the sender: nothing new is accepted; the deliveries held go on for `graceMs` (tries open, queued ones sent as
   * slots free up), then those left are dropped: open requests aborted, waits cleared, and each told (its outcome and
   * a log line naming its rule) as not delivered, dropped at shutdown. An alert whose webhook never went out is never
   * taken for a delivered one. Resolves once every request is closed.
   */
  async stop(graceMs = this.#shutdownGraceMs): Promise<void> {
    this.#closing = true;
    if (graceMs > 0 && this.#held.length > 0 && !this.#stopped) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      let idle: (() => void) | undefined;
      await new Promise<void>((resolve) => {
        idle = resolve;
        this.#idleWaiters.add(resolve);
        timer = setTimeout(resolve, graceMs);
      });
      clearTimeout(timer);
      if (idle) this.#idleWaiters.delete(idle);
    }
    this.#stopped = true;
    const left = this.#held.splice(0);
    for (const held of left) {
      clearTimeout(held.backoffTimer);
      held.abort?.abort();
    }
    this.#busyReceivers.clear();
    for (const held of left) {
      const when =
        held.triesMade === 0
          ? "before its first try (the service stopped"
          : `after ${held.triesMade} ${held.triesMade === 1 ? "try" : "tries"} (the service stopped${held.state === "sending" ? " before an answer came" : ""}`;
      this.#conclude(held.ruleId, held.shown, false, `not delivered: dropped at shutdown ${when}; it is not sent later)`);
    }
    await Promise.all(this.#openTries);
  }

  #accept(delivery: WebhookDelivery): void {
    const shown = webhookShown(delivery.url);
    if (this.#closing) {
      this.#logger.warn("webhook not sent: the service is stopping", { rule: delivery.ruleId, to: shown });
      return;
    }
    const problem = webhookUrlProblem(delivery.url);
    if (problem !== undefined) {
      this.#conclude(delivery.ruleId, shown, false, `not sent: the webhook URL ${problem}`);
      return;
    }
    const url = new URL(delivery.url);
    const body = Buffer.from(JSON.stringify(delivery.event), "utf8");
    const receiver = `${url.protocol}//${url.host}`;
    this.#held.push(new HeldDelivery(delivery.ruleId, url, receiver, shown, new UrlRedactor(delivery.url), body));
    if (this.#held.length > this.#maxPending) this.#dropOldestWaiting();
    this.#pump();
  }

  /** Makes room for one more: the oldest delivery not being sent goes, with its outcome (a receiver is slow or down). */
  #dropOldestWaiting(): void {
    const index = this.#held.findIndex((held) => held.state !== "sending");
    if (index < 0) return;
    const [dropped] = this.#held.splice(index, 1);
    if (dropped === undefined) return;
    clearTimeout(dropped.backoffTimer);
    // After its first try, a delivery holds its receiver's turn until its outcome.
    if (dropped.triesMade > 0) this.#busyReceivers.delete(dropped.receiver);
    this.#conclude(
      dropped.ruleId,
      dropped.shown,
      false,
      `not sent: dropped for a newer alert, since ${this.#maxPending} webhook deliveries were waiting already (a receiver is slow or down)`,
    );
  }

  /** Starts tries while a request slot is free: the oldest waiting delivery whose receiver has no other open. */
  #pump(): void {
    while (!this.#stopped && this.#openTries.size < this.#maxInFlight) {
      const next = this.#held.find((held) => held.state === "waiting" && (held.triesMade > 0 || !this.#busyReceivers.has(held.receiver)));
      if (next === undefined) return;
      this.#startTry(next);
    }
  }

  #startTry(held: HeldDelivery): void {
    held.state = "sending";
    held.triesMade += 1;
    held.abort = new AbortController();
    this.#busyReceivers.add(held.receiver);
    const options = { timeoutMs: this.#timeoutMs, maxAnswerBytes: this.#maxAnswerBytes, userAgent: this.#userAgent, signal: held.abort.signal };
    const open: Promise<void> = postWebhook(held.url, held.body, options)
      .then((result) => this.#afterTry(held, result))
      .catch((error: unknown) => this.#giveUp(held, `failed unexpectedly (${String(error)})`))
      .finally(() => {
        this.#openTries.delete(open);
        this.#pump();
      });
    this.#openTries.add(open);
  }

  #afterTry(held: HeldDelivery, result: WebhookPostResult): void {
    held.abort = undefined;
    if (this.#stopped || !this.#held.includes(held)) return;
    const verdict = this.#judge(held, result);
    if (verdict.kind === "retry" && held.triesMade < this.#tries) {
      held.state = "backoff";
      held.backoffTimer = setTimeout(
        () => {
          held.backoffTimer = undefined;
          held.state = "waiting";
          this.#pump();
        },
        backoffMs(held.triesMade, this.#backoff, verdict.retryAfterMs),
      );
      return;
    }
    this.#release(held);
    if (verdict.kind === "done") this.#conclude(held.ruleId, held.shown, verdict.ok, verdict.detail);
    else this.#conclude(held.ruleId, held.shown, false, `gave up after ${held.triesMade} ${held.triesMade === 1 ? "try" : "tries"}: ${verdict.why}`);
  }

  /** Ends a delivery that broke in the sender itself (a defect): it is not held for ever. */
  #giveUp(held: HeldDelivery, detail: string): void {
    if (!this.#held.includes(held)) return;
    clearTimeout(held.backoffTimer);
    this.#release(held);
    this.#conclude(held.ruleId, held.shown, false, detail);
  }

  /** Lets a delivery go: it is no longer held, and its receiver's turn passes on. */
  #release(held: HeldDelivery): void {
    this.#held.splice(this.#held.indexOf(held), 1);
    this.#busyReceivers.delete(held.receiver);
    if (this.#held.length === 0) for (const idle of this.#idleWaiters) idle();
  }

  /** What one try's result means: 2xx delivered; 408, 429, 5xx and no answer retried; any other status final. */
  #judge(held: HeldDelivery, result: WebhookPostResult): TryVerdict {
    if (result.kind === "failed") {
      const message = held.redactor.redact(result.message);
      if (result.reason === "not-loopback") return { kind: "done", ok: false, detail: `not sent: ${message}` };
      return { kind: "retry", why: result.reason === "network" ? `could not reach it (${message})` : message };
    }
    const { status } = result;
    // Neither the status text nor the body is shown when it quotes the URL (a secret path segment may be any word).
    const statusText =
      result.statusText === "" || quotesWebhookUrl(held.url, result.statusText) ? "" : ` ${held.redactor.redact(oneLine(result.statusText, 60))}`;
    const answered = `answered ${status}${statusText}`;
    if (status >= 200 && status <= 299) {
      return { kind: "done", ok: true, detail: `delivered: ${answered}${held.triesMade > 1 ? ` at try ${held.triesMade}` : ""}` };
    }
    const said = excerptShown(held, result);
    if (status === 408 || status === 429 || (status >= 500 && status <= 599)) {
      return { kind: "retry", why: `${answered}${said}`, retryAfterMs: retryAfterMs(status, result.retryAfter, Date.now()) };
    }
    if (status >= 300 && status <= 399) {
      const to = result.location === "" ? "" : ` to ${redirectShown(result.location, held.url)}`;
      return {
        kind: "done",
        ok: false,
        detail: `${answered}, a redirect${to}, which is not followed: set the webhook URL to the address it leads to`,
      };
    }
    const refusal = status >= 400 && status <= 499 ? "the receiver refuses this request: check the webhook URL" : "not a status a webhook answers";
    return { kind: "done", ok: false, detail: `${answered}${said} (not retried: ${refusal})` };
  }

  #conclude(ruleId: string, shown: string, ok: boolean, detail: string): void {
    const outcome: WebhookOutcome = { at: Date.now(), ok, detail };
    if (ok) this.#logger.info("webhook delivered", { rule: ruleId, to: shown, detail });
    else this.#logger.warn("webhook not delivered", { rule: ruleId, to: shown, detail });
    // Never from within send(): a caller is not called back while it is still sending.
    queueMicrotask(() => {
      for (const listener of this.#listeners) {
        try {
          listener(ruleId, outcome);
        } catch (error) {
          this.#logger.error("a webhook outcome listener threw", { rule: ruleId, error: String(error) });
        }
      }
    });
  }
}

/** Where a redirect leads, as a webhook URL is shown (its path may hold a secret too), relative to the URL it came from. */
function redirectShown(location: string, from: URL): string {
  try {
    return webhookShown(new URL(location, from).href);
  } catch {
    return "an address that is not a URL";
  }
}

/** The start of an answer's body as an outcome shows it (`: "invalid_token"`), or "" when it is empty. */
function excerptShown(held: HeldDelivery, answer: AnsweredPost): string {
  // The whole excerpt is looked at, not only what is shown: a quote cut where the shown text ends is still a quote.
  if (quotesWebhookUrl(held.url, answer.excerpt)) return ", with an answer that quotes the webhook URL (not shown)";
  const text = oneLine(answer.excerpt, EXCERPT_SHOWN_CHARS);
  return text === "" ? "" : `: "${held.redactor.redact(text)}"`;
}

/** Text on one line, control characters as spaces, cut to `maxChars` (with … when cut). */
function oneLine(text: string, maxChars: number): string {
  // Control characters, and the replacement character of a UTF-8 sequence cut at the excerpt's end.
  const flat = text
    .replace(/[\p{Cc}\ufffd]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  return flat.length > maxChars ? `${flat.slice(0, maxChars - 1)}…` : flat;
}

function nonNegative(value: number, name: string): number {
  if (!(value >= 0) || !Number.isFinite(value)) throw new RangeError(`WebhookSender: ${name} must be a number of milliseconds, 0 or more, not ${value}`);
  return value;
}

function positive(value: number, name: string): number {
  if (!(value > 0) || !Number.isFinite(value)) throw new RangeError(`WebhookSender: ${name} must be a positive number of milliseconds, not ${value}`);
  return value;
}

function positiveInteger(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`WebhookSender: ${name} must be a whole number of 1 or more, not ${value}`);
  return value;
}
