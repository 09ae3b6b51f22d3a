import { backoffMs, checkedBackoff, retryAfterOf, type BackoffOptions } from "./backoff.ts";
import { countedConnection, type RpcCallCounts } from "./countedConnection.ts";
import type { EndpointStatus } from "../wire/networkStatus.ts";
import type { FeeHistoryLimit } from "./fetchBaseFees.ts";
import { createRpcConnection, type RpcConnection } from "./rpcConnection.ts";

// The pool's backoff is the one policy (backoff.ts); re-exported for the feed, which configures it through the pool.
export { DEFAULT_BACKOFF, type BackoffOptions } from "./backoff.ts";

/** What the feed may do with an endpoint's connection: use it. Closing it is the pool's (`disconnect`, `close`). */
export type EndpointConnection = Omit<RpcConnection, "close">;

/**
 * One endpoint of a chain and what the feed knows of it, as the pool lets others see it: read-only. Every change
 * goes through a method of the EndpointPool that holds it.
 */
export interface Endpoint {
  readonly connection: EndpointConnection;
  readonly redactedUrl: string;
  readonly state: EndpointStatus["state"];
  /** Its chain id and base fee were checked since it last connected (or recovered). */
  readonly verified: boolean;
  /** Epoch ms of the next attempt while failing (or serving another chain). */
  readonly retryAt: number | undefined;
}

/** An endpoint's JSON-RPC calls so far and how many failed (`/metrics`), by its redacted URL. */
export interface EndpointCallCount {
  readonly url: string;
  readonly calls: number;
  readonly failures: number;
}

/** States in which an endpoint is not used until a background check finds it fit again. */
function isSetAside(state: EndpointStatus["state"]): boolean {
  return state === "failing" || state === "wrong-chain" || state === "suspect";
}

/** The pool's own record of an endpoint: the only place its state is written. */
class PooledEndpoint implements Endpoint {
  readonly connection: RpcConnection;
  /** What the endpoint taught us about its eth_feeHistory block-count limit. */
  maxFeeHistoryBlocks = Number.POSITIVE_INFINITY;
  state: EndpointStatus["state"] = "unknown";
  verified = false;
  attempted = false;
  /** A background check of a failing endpoint is under way. */
  probing = false;
  lastError: string | undefined;
  reportedChainId: number | undefined;
  retryAt: number | undefined;
  /**
   * Failures since the endpoint last served the feed (a sync through it succeeded). Passing the background probe's
   * checks does not reset it, so an endpoint that answers those but fails the requests the feed needs waits longer
   * after each failure instead of being retried at the shortest wait forever.
   */
  failuresSinceServed = 0;
  /** It failed (or served another chain) since it last served the feed. */
  failedSinceServed = false;

  /** Every JSON-RPC call made through the endpoint, and those that failed. */
  readonly counts: RpcCallCounts = { calls: 0, failures: 0 };

  constructor(url: string, timeoutMs: number) {
    this.connection = countedConnection(createRpcConnection(url, { timeoutMs }), this.counts);
  }

  get redactedUrl(): string {
    return this.connection.redactedUrl;
  }
}

/**
 * The endpoints of one chain in the configured order (the order of preference), with their health and backoff.
 * The feed uses the first usable one and fails over down the list. The pool is the only writer of endpoint state:
 * it hands out read-only views, and the feed reports what happened through its methods.
 */
export class EndpointPool {
  readonly #endpoints: readonly PooledEndpoint[];
  readonly #backoff: BackoffOptions;

  constructor(urls: readonly string[], options: { timeoutMs: number; backoff: BackoffOptions }) {
    if (urls.length === 0) throw new RangeError("a chain needs at least one RPC URL");
    this.#backoff = checkedBackoff(options.backoff);
    this.#endpoints = urls.map((url) => new PooledEndpoint(url, options.timeoutMs));
  }

  /** Every endpoint, in the configured order. */
  get endpoints(): readonly Endpoint[] {
    return this.#endpoints;
  }

  /** Endpoints the feed may use now, in order: answering, or not tried yet. */
  usable(): Endpoint[] {
    return this.#endpoints.filter((endpoint) => endpoint.state === "ok" || endpoint.state === "unknown");
  }

  /**
   * Failing (or wrong-chain) endpoints whose wait is over, each marked as being probed so that it is handed out once;
   * the probe ends with `markAnswering`, `markServing`, `markFailing` or `markWrongChain`.
   */
  takeDue(now: number): Endpoint[] {
    const due = this.#waiting().filter((endpoint) => (endpoint.retryAt ?? 0) <= now);
    for (const endpoint of due) endpoint.probing = true;
    return due;
  }

  /** The earliest time a failing endpoint is to be retried. */
  nextRetryAt(): number | undefined {
    const times = this.#waiting().map((endpoint) => endpoint.retryAt ?? 0);
    return times.length === 0 ? undefined : Math.min(...times);
  }

  /** Every endpoint was tried and none answers for this chain. */
  allDown(): boolean {
    return this.#endpoints.every((endpoint) => endpoint.attempted && isSetAside(endpoint.state));
  }

  /** The endpoint's eth_feeHistory block-count limit, which fetchBaseFees lowers when the endpoint refuses or truncates. */
  feeHistoryLimit(endpoint: Endpoint): FeeHistoryLimit {
    const pooled = this.#own(endpoint);
    return {
      get maxBlocks() {
        return pooled.maxFeeHistoryBlocks;
      },
      lower(maxBlocks: number) {
        if (maxBlocks >= 1 && maxBlocks < pooled.maxFeeHistoryBlocks) pooled.maxFeeHistoryBlocks = maxBlocks;
      },
    };
  }

  /** The chain id the endpoint reported (whether or not it is the chain's). */
  recordChainId(endpoint: Endpoint, reportedChainId: number): void {
    this.#own(endpoint).reportedChainId = reportedChainId;
  }

  /** Its chain id and base fee were checked; not checked again until it fails. */
  markVerified(endpoint: Endpoint): void {
    this.#own(endpoint).verified = true;
  }

  /**
   * The endpoint served the feed what it needs (a sync through it succeeded): healthy, and its backoff starts again
   * from the shortest wait. True when it was failing before (it recovered).
   */
  markServing(endpoint: Endpoint): boolean {
    const pooled = this.#own(endpoint);
    const recovered = pooled.failedSinceServed;
    this.#markAnswering(pooled);
    pooled.failuresSinceServed = 0;
    pooled.failedSinceServed = false;
    return recovered;
  }

  /**
   * A failing endpoint passed the background probe's checks (its chain id and latest block): usable again, but its
   * backoff keeps growing until it serves the feed (`markServing`), so an endpoint that answers the checks and fails
   * the feed's requests is not retried at the shortest wait forever.
   */
  markAnswering(endpoint: Endpoint): void {
    this.#markAnswering(this.#own(endpoint));
  }

  #markAnswering(pooled: PooledEndpoint): void {
    pooled.attempted = true;
    pooled.probing = false;
    pooled.state = "ok";
    pooled.retryAt = undefined;
    pooled.lastError = undefined;
  }

  /**
   * Backs off from the endpoint: the wait doubles with each failure since it last served the feed, and is at least
   * what the endpoint asked for (a 429's or 503's Retry-After), up to the backoff's bound.
   */
  markFailing(endpoint: Endpoint, error: Error, now: number): void {
    const pooled = this.#own(endpoint);
    pooled.attempted = true;
    pooled.probing = false;
    pooled.state = "failing";
    pooled.verified = false;
    pooled.lastError = error.message;
    pooled.failuresSinceServed++;
    pooled.retryAt = now + backoffMs(pooled.failuresSinceServed, this.#backoff, retryAfterOf(error));
    pooled.failedSinceServed = true;
    pooled.connection.close();
  }

  /**
   * Its answers do not fit what the chain has shown (a head too far ahead or behind, a rewrite too deep): set aside
   * and backed off like a failing endpoint, its chain id and head checked again when its wait is over.
   */
  markSuspect(endpoint: Endpoint, error: Error, now: number): void {
    this.markFailing(endpoint, error, now);
    this.#own(endpoint).state = "suspect";
  }

  /** Never used while it reports another chain; checked again only after the longest wait. */
  markWrongChain(endpoint: Endpoint, error: Error, reportedChainId: number, now: number): void {
    const pooled = this.#own(endpoint);
    pooled.attempted = true;
    pooled.probing = false;
    pooled.state = "wrong-chain";
    pooled.verified = false;
    pooled.reportedChainId = reportedChainId;
    pooled.lastError = error.message;
    pooled.retryAt = now + this.#backoff.maxMs;
    pooled.failedSinceServed = true;
    pooled.connection.close();
  }

  /** Closes the endpoint's socket (ws) or aborts its requests (http) while keeping its state: the feed left it. */
  disconnect(endpoint: Endpoint): void {
    this.#own(endpoint).connection.close();
  }

  /** The JSON-RPC calls made through each endpoint so far and how many failed, in the configured order (URLs redacted). */
  callCounts(): readonly EndpointCallCount[] {
    return Object.freeze(
      this.#endpoints.map((endpoint) => Object.freeze({ url: endpoint.redactedUrl, calls: endpoint.counts.calls, failures: endpoint.counts.failures })),
    );
  }

  /** Each endpoint as `/networks` shows it; `active` is the one the feed follows the chain through. */
  statuses(active: Endpoint | undefined): EndpointStatus[] {
    return this.#endpoints.map((endpoint) => ({
      url: endpoint.redactedUrl,
      transport: endpoint.connection.transport,
      state: endpoint.state,
      active: endpoint === active,
      ...(endpoint.lastError === undefined ? {} : { lastError: endpoint.lastError }),
      ...(endpoint.reportedChainId === undefined ? {} : { reportedChainId: endpoint.reportedChainId }),
      ...(endpoint.retryAt === undefined ? {} : { retryAt: endpoint.retryAt }),
    }));
  }

  close(): void {
    for (const endpoint of this.#endpoints) endpoint.connection.close();
  }

  #waiting(): PooledEndpoint[] {
    return this.#endpoints.filter((endpoint) => isSetAside(endpoint.state) && !endpoint.probing);
  }

  /** The pool's record behind a view it handed out; a view from another pool is a programming error. */
  #own(endpoint: Endpoint): PooledEndpoint {
    const pooled = this.#endpoints.find((candidate) => candidate === endpoint);
    if (!pooled) throw new Error(`${endpoint.redactedUrl} is not an endpoint of this pool`);
    return pooled;
  }
}
