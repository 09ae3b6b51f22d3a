import type { EndpointStatus } from "../../wire/networkStatus.ts";
import type { EndpointState } from "./endpointHealth.ts";
import { SuspectEndpointError } from "../connection/errors.ts";
import type { FeeHistoryLimit } from "../feed/fetchBaseFees.ts";
import type { RpcConnection } from "../connection/rpcConnection.ts";
import { type ChainEndpoint, ChainEndpoints } from "./chainEndpoints.ts";

// The backoff is the one policy (backoff.ts), kept by the chain's endpoint layer; re-exported for the feed.
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

/** The feed's view of one endpoint of the chain's layer: its health is the layer's (one record), its lane the feed's. */
class PooledEndpoint implements Endpoint {
  readonly layered: ChainEndpoint;
  readonly #layer: ChainEndpoints;
  attempted = false;
  /** A background check of a failing endpoint is under way. */
  probing = false;

  constructor(layer: ChainEndpoints, layered: ChainEndpoint) {
    this.#layer = layer;
    this.layered = layered;
  }

  get connection(): RpcConnection {
    return this.#layer.connection(this.layered, "feed");
  }

  get health() {
    return this.layered.health;
  }

  get redactedUrl(): string {
    return this.layered.redactedUrl;
  }

  get state(): EndpointState {
    return this.layered.health.state;
  }

  get verified(): boolean {
    return this.layered.health.verified;
  }

  get retryAt(): number | undefined {
    return this.layered.health.retryAt;
  }
}

/**
 * The endpoints of one chain in the configured order (the order of preference), with their health and backoff.
 * The feed uses the first usable one and fails over down the list. The pool is the only writer of endpoint state:
 * it hands out read-only views, and the feed reports what happened through its methods.
 */
export class EndpointPool {
  readonly #endpoints: readonly PooledEndpoint[];
  readonly #layer: ChainEndpoints;

  /** The feed's use of the chain's endpoint layer (shared/rpc/endpoints/chainEndpoints.ts): its lane, the layer's health. */
  constructor(layer: ChainEndpoints) {
    this.#layer = layer;
    this.#endpoints = layer.endpoints.map((endpoint) => new PooledEndpoint(layer, endpoint));
  }

  /** The chain's endpoint layer the pool is a user of. */
  get layer(): ChainEndpoints {
    return this.#layer;
  }

  /** The layer's record of a view the pool handed out (for the layer's own calls: chain-id check, set-aside). */
  layered(endpoint: Endpoint): ChainEndpoint {
    return this.#own(endpoint).layered;
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
    this.#layer.trustAgain(pooled.layered);
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
    this.#layer.trustAgain(pooled.layered);
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
    if (error instanceof SuspectEndpointError) this.#own(endpoint).layered.setAsideFor = error.reason;
  }

  /** Its connection is closed: its chain id and base fee are checked again when its wait is over. */
  #markFailing(endpoint: Endpoint, error: Error, now: number, state: "failing" | "suspect"): void {
    const pooled = this.#own(endpoint);
    this.#tried(pooled);
    pooled.health.markFailing(error, now, state);
    pooled.health.markUnverified();
    this.#layer.reconnect(pooled.layered, "feed");
  }

  /** Never used while it reports another chain; checked again only after the longest wait. */
  markWrongChain(endpoint: Endpoint, error: Error, reportedChainId: number, now: number): void {
    const pooled = this.#own(endpoint);
    this.#tried(pooled);
    pooled.health.recordChainId(reportedChainId);
    this.#layer.setAside(pooled.layered, "wrong-chain", error, { now, by: "feed" });
  }

  /** Closes the endpoint's socket (ws) or aborts its requests (http) while keeping its state: the feed left it. */
  disconnect(endpoint: Endpoint): void {
    this.#layer.reconnect(this.#own(endpoint).layered, "feed");
  }

  /** The JSON-RPC calls made through each endpoint so far and how many failed, in the configured order (URLs redacted). */
  callCounts(): readonly EndpointCallCount[] {
    return Object.freeze(this.#layer.callCounts("feed").map((count) => Object.freeze(count)));
  }

  /** Each endpoint as `/networks` shows it; `active` is the one the feed follows the chain through. */
  statuses(active: Endpoint | undefined): EndpointStatus[] {
    return this.#layer.statuses(active === undefined ? undefined : this.#own(active).layered);
  }

  close(): void {
    for (const endpoint of this.#endpoints) this.#layer.reconnect(endpoint.layered, "feed");
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
