import type { FeeSnapshot } from "../core/fees/feeSnapshot.ts";
import type { NetworkStatus } from "../wire/networkStatus.ts";

/** One configured chain as the HTTP server reads it. */
export interface ChainEntry {
  readonly chainId: number;
  /** The newest statistics, or undefined while the chain has no data. Replaced (never mutated) on each new block. */
  readonly snapshot: FeeSnapshot | undefined;
  /** Epoch ms when an RPC endpoint last confirmed the data (a poll or a new head), for the age headers. */
  readonly confirmedAt: number | undefined;
  /** The chain has no EIP-1559 base fee (its blocks carry no baseFeePerGas). */
  readonly noBaseFee: boolean;
  readonly blockTimeMs: number;
  status(): NetworkStatus;
}

/** What the HTTP server needs from the service: the configured chains and word of each change. */
export interface FeeSource {
  chain(chainId: number): ChainEntry | undefined;
  networks(): NetworkStatus[];
  /** Calls `listener` after a chain's snapshot changed; returns the unsubscribe function. */
  subscribe(listener: (chainId: number) => void): () => void;
}
