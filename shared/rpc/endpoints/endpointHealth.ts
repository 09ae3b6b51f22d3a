import type { EndpointStatus } from "../../wire/networkStatus.ts";
import { backoffMs, checkedBackoff, retryAfterOf, type BackoffOptions } from "./backoff.ts";
import type { FeeHistoryLimit } from "../feed/fetchBaseFees.ts";

export type EndpointState = EndpointStatus["state"];

/**
 * What is known of one RPC endpoint's health, one record per endpoint for every reader of the chain (the live feed,
 * the backfill, the contract reads): its state, its chain id checked, the chain id it reported, its last error, its
 * failures since it last served and when it may be asked again (by the one backoff policy, a Retry-After honoured),
 * and its `eth_feeHistory` cap as it taught it.
 *
 * Times are epoch ms. It is held by the chain's endpoint layer (endpoints/chainEndpoints.ts) and written through it and
 * the feed's pool (endpointPool.ts, its view of the layer).
 */
export class EndpointHealth {
  readonly #backoff: Required<BackoffOptions>;
  #state: EndpointState = "unknown";
  #verified = false;
  #reportedChainId: number | undefined;
  #lastError: string | undefined;
  #retryAt: number | undefined;
  #failuresInARow = 0;
  #failedSinceServed = false;
  #maxFeeHistoryBlocks = Number.POSITIVE_INFINITY;
  /** The endpoint's `eth_feeHistory` block-count cap, learned from its refusals and short answers: it only goes down. */
  readonly feeHistoryLimit: FeeHistoryLimit;

  constructor(backoff: BackoffOptions) {
    this.#backoff = checkedBackoff(backoff);
    const maxBlocks = () => this.#maxFeeHistoryBlocks;
    const lower = (blocks: number) => {
      if (blocks >= 1 && blocks < this.#maxFeeHistoryBlocks) this.#maxFeeHistoryBlocks = blocks;
    };
    this.feeHistoryLimit = {
      get maxBlocks() {
        return maxBlocks();
      },
      lower,
    };
  }

  get state(): EndpointState {
    return this.#state;
  }

  /** Its chain id was checked (the pool: and its base fee) since it last connected, recovered or was set aside. */
  get verified(): boolean {
    return this.#verified;
  }

  /** The chain id it reported last, whether or not it is the chain's. */
  get reportedChainId(): number | undefined {
    return this.#reportedChainId;
  }

  get lastError(): string | undefined {
    return this.#lastError;
  }

  /** When it may be asked again while failing or set aside (the owner's clock); undefined while usable. */
  get retryAt(): number | undefined {
    return this.#retryAt;
  }

  /** Failures since it last served (a sync of the feed, a backfill page): what its backoff counts. */
  get failuresInARow(): number {
    return this.#failuresInARow;
  }

  /** Milliseconds from `now` until it may be asked again; 0 when it may be now. */
  waitMs(now: number): number {
    return Math.max(0, (this.#retryAt ?? now) - now);
  }

  recordChainId(reportedChainId: number): void {
    this.#reportedChainId = reportedChainId;
  }

  markVerified(): void {
    this.#verified = true;
  }

  /** Its chain id is to be checked again before it is used (its owner closed its connection). */
  markUnverified(): void {
    this.#verified = false;
  }

  /**
   * It served what it is used for (a sync, a page): healthy, and its backoff starts again from the shortest wait.
   * True when it had failed (or been set aside) since it last served: it recovered.
   */
  markServing(): boolean {
    const recovered = this.#failedSinceServed;
    this.markAnswering();
    this.#failuresInARow = 0;
    this.#failedSinceServed = false;
    return recovered;
  }

  /**
   * It passed a check (its chain id, its latest block): usable again, but its backoff keeps growing until it serves,
   * so an endpoint that answers the checks and fails the real requests is not retried at the shortest wait forever.
   */
  markAnswering(): void {
    this.#state = "ok";
    this.#retryAt = undefined;
    this.#lastError = undefined;
  }

  /**
   * A failure (unreachable, an HTTP or JSON-RPC error, garbage), or (`suspect`) an answer that does not fit the chain:
   * backed off, the wait growing with each failure since it last served and no shorter than the Retry-After the
   * failure carried (up to the policy's bound). Returns the wait.
   */
  markFailing(error: Error, now: number, state: "failing" | "suspect" = "failing"): number {
    this.#failuresInARow++;
    const waitMs = backoffMs(this.#failuresInARow, this.#backoff, retryAfterOf(error));
    this.#failed(state, error, now + waitMs);
    return waitMs;
  }

  /**
   * Set aside for `waitMs` whatever its backoff, its chain id checked again after: it serves another chain
   * (`wrong-chain`), or its answers cannot be true (`suspect`).
   */
  setAside(state: "wrong-chain" | "suspect", error: Error, now: number, waitMs: number): void {
    this.#failed(state, error, now + waitMs);
    this.#verified = false;
  }

  #failed(state: "failing" | "suspect" | "wrong-chain", error: Error, retryAt: number): void {
    this.#state = state;
    this.#lastError = error.message;
    this.#retryAt = retryAt;
    this.#failedSinceServed = true;
  }
}
