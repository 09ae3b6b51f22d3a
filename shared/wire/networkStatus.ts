/** One RPC endpoint of a chain, as `/networks` and the dashboard show it (URL redacted). */
export interface EndpointStatus {
  readonly url: string;
  readonly transport: "http" | "ws";
  /** unknown: not tried yet; ok: answering; failing: backing off until retryAt; wrong-chain: reports another chain id, never used. */
  readonly state: "unknown" | "ok" | "failing" | "wrong-chain";
  readonly active: boolean;
  readonly lastError?: string;
  readonly reportedChainId?: number;
  /** Epoch ms of the next attempt while failing. */
  readonly retryAt?: number;
}

/**
 * The state of one configured chain, the element type of `GET /networks` (JSON: fees as Gwei strings).
 * syncing: no data yet; ok: following; degraded: every endpoint failing, serving the last data held;
 * no-base-fee: the chain has no EIP-1559 base fee.
 */
export interface NetworkStatus {
  readonly chainId: number;
  readonly name: string;
  readonly state: "syncing" | "ok" | "degraded" | "no-base-fee";
  readonly newestBlock: string | null;
  readonly currentBaseFee: string | null;
  readonly baseFeePercentile: string | null;
  readonly busyThreshold: string | null;
  readonly minBaseFee: string | null;
  readonly maxBaseFee: string | null;
  readonly busy: boolean | null;
  readonly historyBlocks: number;
  readonly statsWindowBlocks: number;
  readonly blockTimeMs: number;
  /** Milliseconds since the data was last confirmed by an RPC endpoint; null without data. */
  readonly dataAgeMs: number | null;
  readonly endpoints: readonly EndpointStatus[];
}
