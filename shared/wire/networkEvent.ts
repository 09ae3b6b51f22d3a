import type { NetworkStatus } from "./networkStatus.ts";

/**
 * One Server-Sent Event of `GET /networks/{chainId}/events` (event name `network`, this object as JSON data).
 * The first event of a stream carries the whole state; each later one what changed since the previous event of the
 * same stream. Types only: the dashboard imports this file with `import type`.
 */
export interface NetworkEvent {
  /** The chain's state as `GET /networks` reports it, at the time of the event. */
  readonly status: NetworkStatus;
  /** The blocks that changed since the previous event of this stream; null when only the status changed. */
  readonly blocks: BlockRun | null;
}

/** Consecutive blocks' base fees, oldest first, in Gwei strings as the API writes them. */
export interface BlockRun {
  /**
   * "all": these are the whole history (the first event with data, or after a change deeper than the window);
   * "from": keep the blocks before `firstBlock`, replace the rest by these (new blocks, or a reorganisation's
   * re-mined blocks), then keep the newest 500.
   */
  readonly kind: "all" | "from";
  /** The block number of `baseFees[0]`, a decimal string. */
  readonly firstBlock: string;
  readonly baseFees: readonly string[];
}

/** The SSE event name of a `NetworkEvent`. */
export const NETWORK_EVENT_NAME = "network";
