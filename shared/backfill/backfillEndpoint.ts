import type { BackoffOptions } from "../rpc/backoff.ts";
import { checkChainId } from "../rpc/checkChainId.ts";
import { EndpointHealth } from "../rpc/endpointHealth.ts";
import { EndpointRateLimit } from "../rpc/endpointRateLimit.ts";
import { WrongChainError } from "../rpc/errors.ts";
import type { FeeHistoryLimit } from "../rpc/fetchBaseFees.ts";
import { createRpcConnection, type RpcConnection } from "../rpc/rpcConnection.ts";
import type { BackfillPageConnection } from "./backfillPage.ts";
import { untilAborted, waitMs } from "./backfillWait.ts";

export interface BackfillEndpointOptions {
  readonly requestsPerSecond: number;
  readonly requestTimeoutMs: number;
  /** The wait after failures in a row (the one policy, as the live feed's). */
  readonly backoff: BackoffOptions;
  /** Aborts every wait and request of the endpoint: the backfill stopped. */
  readonly signal: AbortSignal;
  /** Monotonic milliseconds (the rate limit, the backoff and the waits are measured on it). */
  readonly monotonicMs: () => number;
  /** How the endpoint is named in logs and errors (endpointNamesOf), as the live feed names it. */
  readonly shownAs?: string;
}

/**
 * One endpoint as the backfill uses it: its own connection (never the live feed's, so the head is never delayed),
 * with the same answer bounds and timeout; every JSON-RPC call it makes waits for the endpoint's rate limit; and its
 * health as the live feed's pool keeps its endpoints' (rpc/endpointHealth.ts): its chain id checked, its
 * `eth_feeHistory` cap, its failures in a row and when it may be asked again.
 */
export class BackfillEndpoint {
  readonly redactedUrl: string;
  /** The rate-limited connection pages are fetched through. */
  readonly connection: BackfillPageConnection;
  readonly #connection: RpcConnection;
  readonly #health: EndpointHealth;
  readonly #rateLimit: EndpointRateLimit;
  readonly #options: BackfillEndpointOptions;
  #requests = 0;

  constructor(url: string, options: BackfillEndpointOptions) {
    this.#connection = createRpcConnection(url, { timeoutMs: options.requestTimeoutMs, shownAs: options.shownAs });
    this.#health = new EndpointHealth(options.backoff);
    this.#rateLimit = new EndpointRateLimit(options.requestsPerSecond);
    this.#options = options;
    this.redactedUrl = this.#connection.redactedUrl;
    this.connection = { redactedUrl: this.redactedUrl, request: (method, params) => this.#request(method, params) };
  }

  /** The endpoint's `eth_feeHistory` block-count cap, learned from its refusals and short answers. */
  get limit(): FeeHistoryLimit {
    return this.#health.feeHistoryLimit;
  }

  /** JSON-RPC calls sent so far (each counted against the rate limit). */
  get requests(): number {
    return this.#requests;
  }

  /** Its chain id was checked since it was last set aside. */
  get verified(): boolean {
    return this.#health.verified;
  }

  get failuresInARow(): number {
    return this.#health.failuresInARow;
  }

  /** Milliseconds (monotonic) until the endpoint may be asked again; 0 when it may be now. */
  get waitMs(): number {
    return this.#health.waitMs(this.#options.monotonicMs());
  }

  /** Checks its chain id (throws WrongChainError for another chain's); it is used once that passed. */
  async verify(chainId: number): Promise<void> {
    this.#health.recordChainId(await checkChainId(this.connection, chainId));
    this.#health.markVerified();
    this.#health.markAnswering();
  }

  /** A page came through: the backoff starts again from its shortest wait. */
  markServing(): void {
    this.#health.markServing();
  }

  /**
   * A failure (unreachable, an HTTP or JSON-RPC error): waits longer after each one in a row, and at least what the
   * endpoint asked for (a 429's Retry-After) up to the longest wait. Returns the wait.
   */
  markFailing(error: Error): number {
    return this.#health.markFailing(error, this.#options.monotonicMs());
  }

  /**
   * Its answers cannot be trusted (another chain, garbage, inconsistent pages): not asked for `ms`, then its chain id
   * is checked again, through a new connection.
   */
  setAside(error: Error, ms: number): void {
    if (error instanceof WrongChainError) this.#health.recordChainId(error.reportedChainId);
    this.#health.setAside(error instanceof WrongChainError ? "wrong-chain" : "suspect", error, this.#options.monotonicMs(), ms);
    this.#connection.close();
  }

  /** Closes its sockets and aborts its requests. */
  close(): void {
    this.#connection.close();
  }

  async #request(method: string, params: readonly unknown[]): Promise<unknown> {
    const { signal, monotonicMs } = this.#options;
    for (let wait = this.#rateLimit.waitMs(monotonicMs()); wait > 0; wait = this.#rateLimit.waitMs(monotonicMs())) await waitMs(wait, signal);
    this.#rateLimit.record(monotonicMs());
    this.#requests++;
    return untilAborted(this.#connection.request(method, params), signal);
  }
}
