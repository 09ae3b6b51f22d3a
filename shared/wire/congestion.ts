import type { ChainState } from "./networkStatus.ts";

/**
 * How busy a chain is, in one word everywhere (badge, tray, notifications): busy while its current base fee is above
 * the busy threshold, normal while at or below, unknown without data, or while the data is stale (every endpoint
 * failing) or missing.
 */
export type Congestion = "busy" | "normal" | "unknown";

export function congestionOf(status: { readonly state: ChainState; readonly busy: boolean | null }): Congestion {
  if (status.busy === null || status.state !== "ok") return "unknown";
  return status.busy ? "busy" : "normal";
}
