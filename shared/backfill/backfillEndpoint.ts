import { WrongChainError } from "../rpc/connection/errors.ts";
import type { FeeHistoryLimit } from "../rpc/feed/fetchBaseFees.ts";
import type { ChainEndpoint, ChainEndpoints } from "../rpc/endpoints/chainEndpoints.ts";
import { EndpointRateLimit } from "../rpc/endpoints/endpointRateLimit.ts";
import { LaneBackoff } from "../rpc/endpoints/laneBackoff.ts";
import type { BackfillPageConnection } from "./backfillPage.ts";
import { untilAborted, waitMs } from "./backfillWait.ts";

export interface BackfillEndpointOptions {
  readonly requestsPerSecond: number;
  readonly requestTimeoutMs: number;
  /** Aborts every wait and request of the endpoint: the backfill stopped. */
  readonly signal: AbortSignal;
  /** Monotonic milliseconds (the rate limit, the lane's backoff and the waits are measured on it). */
  readonly monotonicMs: () => number;
  /** The layer's lane it reads through: the history's "backfill" (default), or the outlook's own. */
  readonly lane?: "backfill" | "outlook";
}

/**
 * One endpoint of the chain's layer as the backfill uses it: the backfill's own lane to it (never the live feed's
 * connection, so the head is never delayed) with the same answer bounds and timeout; every JSON-RPC call it makes
 * waits for the backfill's rate limit. Its health is the layer's, one for every reader: the chain-id check, its
 * `eth_feeHistory` cap, a Retry-After, and the set-aside of an endpoint of another chain or one found lying. Only the
 * pace of the lane after its own failures (LaneBackoff) is the backfill's.
 */
export class BackfillEndpoint {
  readonly layered: ChainEndpoint;
  readonly redactedUrl: string;
  /** The rate-limited connection pages are fetched through. */
  readonly connection: BackfillPageConnection;
  readonly #layer: ChainEndpoints;
  readonly #pace: LaneBackoff;
  readonly #rateLimit: EndpointRateLimit;
  readonly #options: BackfillEndpointOptions;
  #requests = 0;

  get #lane(): "backfill" | "outlook" {
    return this.#options.lane ?? "backfill";
  }

  constructor(layer: ChainEndpoints, layered: ChainEndpoint, options: BackfillEndpointOptions) {
    this.#layer = layer;
    this.layered = layered;
    this.#pace = new LaneBackoff(layer.backoff);
    this.#rateLimit = new EndpointRateLimit(options.requestsPerSecond);
    this.#options = options;
    this.redactedUrl = layered.redactedUrl;
    this.connection = { redactedUrl: this.redactedUrl, request: (method, params) => this.#request(method, params) };
  }

  /** The endpoint's `eth_feeHistory` block-count cap, learned by any reader from its refusals and short answers. */
  get limit(): FeeHistoryLimit {
    return this.layered.health.feeHistoryLimit;
  }

  /** JSON-RPC calls sent so far (each counted against the rate limit). */
  get requests(): number {
    return this.#requests;
  }

  /** The layer trusts it: not failing, not set aside. */
  get trusted(): boolean {
    return this.layered.trusted;
  }

  get failuresInARow(): number {
    return this.#pace.failuresInARow;
  }

  /** Milliseconds (monotonic) until the lane may ask again after its own failures; 0 when it may now. */
  get waitMs(): number {
    return this.#pace.waitMs(this.#options.monotonicMs());
  }

  /** The layer's chain-id check through the backfill's lane (asked once per connection; WrongChainError sets it aside). */
  async verify(): Promise<void> {
    await this.#slot();
    await untilAborted(this.#layer.checkChainId(this.layered, this.#lane, { timeoutMs: this.#options.requestTimeoutMs }), this.#options.signal);
  }

  /** A page came through: the lane's backoff starts again from its shortest wait. */
  markServing(): void {
    this.#pace.served();
    // The endpoint served after a wait it asked for: its backoff starts again from the shortest wait.
    if (this.layered.trusted && this.layered.health.failuresInARow > 0) this.layered.health.markServing();
    else if (this.layered.health.state === "unknown") this.layered.health.markAnswering();
  }

  /**
   * A failure (unreachable, an HTTP or JSON-RPC error). One that asked for a wait (a 429's Retry-After) is the
   * endpoint's, waited out by every reader (the layer); others pace the backfill's lane alone, longer after each one
   * in a row. Returns the wait in ms, the failures in a row it counts, and whether the endpoint asked for it.
   */
  markFailing(error: Error): { readonly waitMs: number; readonly failuresInARow: number; readonly askedByEndpoint: boolean } {
    if (this.#layer.askedToWait(this.layered, error, "backfill")) {
      const { health } = this.layered;
      return { waitMs: health.waitMs(Date.now()), failuresInARow: health.failuresInARow, askedByEndpoint: true };
    }
    const waitMs = this.#pace.failed(this.#options.monotonicMs());
    return { waitMs, failuresInARow: this.#pace.failuresInARow, askedByEndpoint: false };
  }

  /** Its answers cannot be true (another chain, garbage, inconsistent pages, a lie): set aside for every reader. */
  setAside(error: Error): void {
    this.#layer.setAside(this.layered, error instanceof WrongChainError ? "wrong-chain" : "disagrees", error, { by: this.#lane });
  }

  /** Closes the lane (its chain id is asked again at its next use). */
  close(): void {
    this.#layer.reconnect(this.layered, this.#lane);
  }

  async #slot(): Promise<void> {
    const { signal, monotonicMs } = this.#options;
    for (let wait = this.#rateLimit.waitMs(monotonicMs()); wait > 0; wait = this.#rateLimit.waitMs(monotonicMs())) await waitMs(wait, signal);
    this.#rateLimit.record(monotonicMs());
    this.#requests++;
  }

  async #request(method: string, params: readonly unknown[]): Promise<unknown> {
    await this.#slot();
    const connection = this.#layer.connection(this.layered, this.#lane, this.#options.requestTimeoutMs);
    return untilAborted(connection.request(method, params), this.#options.signal);
  }
}
