import { checkedBackoff, type BackoffOptions } from "./backoff.ts";
import { countedConnection, type RpcCallCounts } from "./countedConnection.ts";
import type { EndpointStatus } from "../wire/networkStatus.ts";
import { EndpointHealth, type EndpointState } from "./endpointHealth.ts";
import type { FeeHistoryLimit } from "./fetchBaseFees.ts";
import { createRpcConnection, type RpcConnection } from "./rpcConnection.ts";
import { endpointNamesOf } from "./redactUrl.ts";

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
  readonly state: EndpointState;
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
function isSetAside(state: EndpointState): boolean {
  return state === "failing" || state === "wrong-chain" || state === "suspect";
}

/** The pool's own record of an endpoint: the only place its state is written. */
class PooledEndpoint implements Endpoint {
  readonly connection: RpcConnection;
  /** Its state, chain id, failures and backoff, as the backfill keeps its endpoints' too. */
  readonly health: EndpointHealth;
  attempted = false;
  /** A background check of a failing endpoint is under way. */
  probing = false;

  /** Every JSON-RPC call made through the endpoint, and those that failed. */
  readonly counts: RpcCallCounts = { calls: 0, failures: 0 };

  constructor(url: string, shownAs: string, timeoutMs: number, backoff: BackoffOptions) {
    this.connection = countedConnection(createRpcConnection(url, { timeoutMs, shownAs }), this.counts);
    this.health = new EndpointHealth(backoff);
  }

  get redactedUrl(): string {
    return this.connection.redactedUrl;
  }

  get state(): EndpointState {
    return this.health.state;
  }

  get verified(): boolean {
    return this.health.verified;
  }

  get retryAt(): number | undefined {
    return this.health.retryAt;
  }
}

/**
 * The endpoints of one chain in the configured order (the order of preference), with their health and backoff.
 * The feed uses the first usable one and fails over down the list. The pool is the only writer of endpoint state:
 * it hands out read-only views, and the feed reports what happened through its methods.
 */
export class EndpointPool {
  readonly #endpoints: readonly PooledEndpoint[];
  readonly #backoff: Required<BackoffOptions>;

  /** `labels`: the user's name of an endpoint, by its URL (settings' `rpcLabels`), shown after its origin. */
  constructor(urls: readonly string[], options: { timeoutMs: number; backoff: BackoffOptions; labels?: Readonly<Record<string, string>> | undefined }) {
    if (urls.length === 0) throw new RangeError("a chain needs at least one RPC URL");
    this.#backoff = checkedBackoff(options.backoff);
    const names = endpointNamesOf(urls, options.labels);
    this.#endpoints = urls.map((url, index) => new PooledEndpoint(url, names[index]!, options.timeoutMs, this.#backoff));
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
    return this.#own(endpoint).health.feeHistoryLimit;
  }

  /** The chain id the endpoint reported (whether or not it is the chain's). */
  recordChainId(endpoint: Endpoint, reportedChainId: number): void {
    this.#own(endpoint).health.recordChainId(reportedChainId);
  }

  /** Its chain id and base fee were checked; not checked again until it fails. */
  markVerified(endpoint: Endpoint): void {
    this.#own(endpoint).health.markVerified();
  }

  /**
   * The endpoint served the feed what it needs (a sync through it succeeded): healthy, and its backoff starts again
   * from the shortest wait. True when it was failing before (it recovered).
   */
  markServing(endpoint: Endpoint): boolean {
    const pooled = this.#own(endpoint);
    this.#tried(pooled);
    return pooled.health.markServing();
  }

  /**
   * A failing endpoint passed the background probe's checks (its chain id and latest block): usable again, but its
   * backoff keeps growing until it serves the feed (`markServing`), so an endpoint that answers the checks and fails
   * the feed's requests is not retried at the shortest wait forever.
   */
  markAnswering(endpoint: Endpoint): void {
    const pooled = this.#own(endpoint);
    this.#tried(pooled);
    pooled.health.markAnswering();
  }

  /**
   * Backs off from the endpoint: the wait doubles with each failure since it last served the feed, and is at least
   * what the endpoint asked for (a 429's or 503's Retry-After), up to the backoff's bound.
   */
  markFailing(endpoint: Endpoint, error: Error, now: number): void {
    this.#markFailing(endpoint, error, now, "failing");
  }

  /**
   * Its answers do not fit what the chain has shown (a head too far ahead or behind, a rewrite too deep): set aside
   * and backed off like a failing endpoint, its chain id and head checked again when its wait is over.
   */
  markSuspect(endpoint: Endpoint, error: Error, now: number): void {
    this.#markFailing(endpoint, error, now, "suspect");
  }

  /** Its connection is closed: its chain id and base fee are checked again when its wait is over. */
  #markFailing(endpoint: Endpoint, error: Error, now: number, state: "failing" | "suspect"): void {
    const pooled = this.#own(endpoint);
    this.#tried(pooled);
    pooled.health.markFailing(error, now, state);
    pooled.health.markUnverified();
    pooled.connection.close();
  }

  /** Never used while it reports another chain; checked again only after the longest wait. */
  markWrongChain(endpoint: Endpoint, error: Error, reportedChainId: number, now: number): void {
    const pooled = this.#own(endpoint);
    this.#tried(pooled);
    pooled.health.recordChainId(reportedChainId);
    pooled.health.setAside("wrong-chain", error, now, this.#backoff.maxMs);
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
    return this.#endpoints.map((endpoint) => {
      const { health } = endpoint;
      return {
        url: endpoint.redactedUrl,
        transport: endpoint.connection.transport,
        state: health.state,
        active: endpoint === active,
        ...(health.lastError === undefined ? {} : { lastError: health.lastError }),
        ...(health.reportedChainId === undefined ? {} : { reportedChainId: health.reportedChainId }),
        ...(health.retryAt === undefined ? {} : { retryAt: health.retryAt }),
      };
    });
  }

  close(): void {
    for (const endpoint of this.#endpoints) endpoint.connection.close();
  }

  /** It was tried, and the check or attempt that handed it out is over. */
  #tried(pooled: PooledEndpoint): void {
    pooled.attempted = true;
    pooled.probing = false;
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
