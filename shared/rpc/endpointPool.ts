import type { EndpointStatus } from "../wire/networkStatus.ts";
import type { FeeHistoryLimit } from "./fetchBaseFees.ts";
import { createRpcConnection, type RpcConnection } from "./rpcConnection.ts";

export interface BackoffOptions {
  /** First wait after a failure; doubles with each further failure. Default 1 s. */
  initialMs: number;
  /** Longest wait. Default 60 s. */
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 1000, maxMs: 60_000 };

/** One endpoint of a chain and what the feed knows of it. */
export class Endpoint {
  readonly index: number;
  readonly connection: RpcConnection;
  readonly limit: FeeHistoryLimit = { maxBlocks: Number.POSITIVE_INFINITY };
  state: EndpointStatus["state"] = "unknown";
  /** Its chain id was checked since it last connected (or recovered). */
  verified = false;
  attempted = false;
  /** A background check of a failing endpoint is under way. */
  probing = false;
  lastError: string | undefined;
  reportedChainId: number | undefined;
  retryAt: number | undefined;
  failures = 0;

  constructor(url: string, index: number, timeoutMs: number) {
    this.index = index;
    this.connection = createRpcConnection(url, { timeoutMs });
  }

  get redactedUrl(): string {
    return this.connection.redactedUrl;
  }
}

/**
 * The endpoints of one chain in the configured order (the order of preference), with their health and backoff.
 * The feed uses the first usable one and fails over down the list.
 */
export class EndpointPool {
  readonly endpoints: readonly Endpoint[];
  readonly #backoff: BackoffOptions;

  constructor(urls: readonly string[], options: { timeoutMs: number; backoff: BackoffOptions }) {
    if (urls.length === 0) throw new RangeError("a chain needs at least one RPC URL");
    this.endpoints = urls.map((url, index) => new Endpoint(url, index, options.timeoutMs));
    this.#backoff = options.backoff;
  }

  /** Endpoints the feed may use now, in order: answering, or not tried yet. */
  usable(): Endpoint[] {
    return this.endpoints.filter((endpoint) => endpoint.state === "ok" || endpoint.state === "unknown");
  }

  /** Failing (or wrong-chain) endpoints whose wait is over. */
  due(now: number): Endpoint[] {
    return this.#waiting().filter((endpoint) => (endpoint.retryAt ?? 0) <= now);
  }

  #waiting(): Endpoint[] {
    return this.endpoints.filter((endpoint) => (endpoint.state === "failing" || endpoint.state === "wrong-chain") && !endpoint.probing);
  }

  /** The earliest time a failing endpoint is to be retried. */
  nextRetryAt(): number | undefined {
    const times = this.#waiting().map((endpoint) => endpoint.retryAt ?? 0);
    return times.length === 0 ? undefined : Math.min(...times);
  }

  /** Every endpoint was tried and none answers for this chain. */
  allDown(): boolean {
    return this.endpoints.every((endpoint) => endpoint.attempted && (endpoint.state === "failing" || endpoint.state === "wrong-chain"));
  }

  markOk(endpoint: Endpoint): void {
    endpoint.attempted = true;
    endpoint.state = "ok";
    endpoint.failures = 0;
    endpoint.retryAt = undefined;
    endpoint.lastError = undefined;
  }

  markFailing(endpoint: Endpoint, error: Error, now: number): void {
    endpoint.attempted = true;
    endpoint.state = "failing";
    endpoint.verified = false;
    endpoint.lastError = error.message;
    endpoint.retryAt = now + Math.min(this.#backoff.maxMs, this.#backoff.initialMs * 2 ** Math.min(endpoint.failures, 30));
    endpoint.failures++;
    endpoint.connection.close();
  }

  /** Never used while it reports another chain; checked again only after the longest wait. */
  markWrongChain(endpoint: Endpoint, error: Error, reportedChainId: number, now: number): void {
    endpoint.attempted = true;
    endpoint.state = "wrong-chain";
    endpoint.verified = false;
    endpoint.reportedChainId = reportedChainId;
    endpoint.lastError = error.message;
    endpoint.retryAt = now + this.#backoff.maxMs;
    endpoint.connection.close();
  }

  statuses(active: Endpoint | undefined): EndpointStatus[] {
    return this.endpoints.map((endpoint) => ({
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
    for (const endpoint of this.endpoints) endpoint.connection.close();
  }
}
