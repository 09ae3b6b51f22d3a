import { backoffMs, type BackoffOptions } from "../rpc/backoff.ts";
import type { FeeHistoryLimit } from "../rpc/fetchBaseFees.ts";
import { createRpcConnection, type RpcConnection } from "../rpc/rpcConnection.ts";
import type { BackfillPageConnection } from "./backfillPage.ts";
import { BackfillRateLimiter } from "./backfillRateLimiter.ts";
import { untilAborted, waitMs } from "./backfillWait.ts";

export interface BackfillEndpointOptions {
  readonly requestsPerSecond: number;
  readonly requestTimeoutMs: number;
  /** Aborts every wait and request of the endpoint: the backfill stopped. */
  readonly signal: AbortSignal;
  /** Monotonic milliseconds (the rate limit and the waits are measured on it). */
  readonly monotonicMs: () => number;
}

/**
 * One endpoint as the backfill uses it: its own connection (never the live feed's, so the head is never delayed),
 * with the same answer bounds and timeout; every JSON-RPC call it makes waits for the endpoint's rate limit; and what
 * the backfill learned of it: its chain id checked, its `eth_feeHistory` cap, its failures and when it may be asked again.
 */
export class BackfillEndpoint {
  readonly redactedUrl: string;
  /** The rate-limited connection pages are fetched through. */
  readonly connection: BackfillPageConnection;
  /** The endpoint's `eth_feeHistory` block-count cap, learned from its refusals and short answers. */
  readonly limit: FeeHistoryLimit;
  readonly #connection: RpcConnection;
  readonly #limiter: BackfillRateLimiter;
  readonly #options: BackfillEndpointOptions;
  #maxBlocks = Number.POSITIVE_INFINITY;
  #requests = 0;
  #verified = false;
  #failuresInARow = 0;
  #resumeAtMs = 0;

  constructor(url: string, options: BackfillEndpointOptions) {
    this.#connection = createRpcConnection(url, { timeoutMs: options.requestTimeoutMs });
    this.#limiter = new BackfillRateLimiter(options.requestsPerSecond);
    this.#options = options;
    this.redactedUrl = this.#connection.redactedUrl;
    this.connection = { redactedUrl: this.redactedUrl, request: (method, params) => this.#request(method, params) };
    const currentCap = () => this.#maxBlocks;
    const lowerCap = (maxBlocks: number) => {
      if (maxBlocks >= 1 && maxBlocks < this.#maxBlocks) this.#maxBlocks = maxBlocks;
    };
    this.limit = {
      get maxBlocks() {
        return currentCap();
      },
      lower: lowerCap,
    };
  }

  /** JSON-RPC calls sent so far (each counted against the rate limit). */
  get requests(): number {
    return this.#requests;
  }

  /** Its chain id was checked since it was last set aside. */
  get verified(): boolean {
    return this.#verified;
  }

  get failuresInARow(): number {
    return this.#failuresInARow;
  }

  /** Milliseconds (monotonic) until the endpoint may be asked again; 0 when it may be now. */
  get waitMs(): number {
    return Math.max(0, this.#resumeAtMs - this.#options.monotonicMs());
  }

  markVerified(): void {
    this.#verified = true;
  }

  /** A page came through: the backoff starts again from its shortest wait. */
  markServing(): void {
    this.#failuresInARow = 0;
  }

  /** A failure (unreachable, an HTTP or JSON-RPC error): waits longer after each one in a row. Returns the wait. */
  markFailing(backoff: BackoffOptions, retryAfterMs?: number): number {
    this.#failuresInARow++;
    const wait = backoffMs(this.#failuresInARow, backoff, retryAfterMs);
    this.#resumeAtMs = this.#options.monotonicMs() + wait;
    return wait;
  }

  /** Its answers cannot be trusted (another chain, inconsistent pages): not asked for `ms`, then checked again. */
  setAside(ms: number): void {
    this.#verified = false;
    this.#resumeAtMs = this.#options.monotonicMs() + ms;
    this.#connection.close();
  }

  /** Closes its sockets and aborts its requests. */
  close(): void {
    this.#connection.close();
  }

  async #request(method: string, params: readonly unknown[]): Promise<unknown> {
    const { signal, monotonicMs } = this.#options;
    for (let wait = this.#limiter.waitMs(monotonicMs()); wait > 0; wait = this.#limiter.waitMs(monotonicMs())) await waitMs(wait, signal);
    this.#limiter.record(monotonicMs());
    this.#requests++;
    return untilAborted(this.#connection.request(method, params), signal);
  }
}
