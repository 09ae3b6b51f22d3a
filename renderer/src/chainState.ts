import type { NetworkStatus } from "../../shared/wire/networkStatus.ts";

/** What a chain looks like at a glance: one word, one colour (see styles.css, `.state-*`). */
export type GlanceState = "busy" | "normal" | "degraded" | "syncing" | "no-base-fee";

export function glanceState(status: NetworkStatus): GlanceState {
  if (status.state === "no-base-fee") return "no-base-fee";
  if (status.state === "syncing") return "syncing";
  if (status.state === "degraded") return "degraded";
  return status.busy ? "busy" : "normal";
}

export const GLANCE_WORDS: Readonly<Record<GlanceState, string>> = {
  busy: "busy",
  normal: "normal",
  degraded: "RPC failing",
  syncing: "syncing",
  "no-base-fee": "no base fee",
};

/**
 * The RPC endpoints in a few words: "1 of 2 endpoints answering" alone would read as one endpoint broken, when the
 * other is a fallback not needed yet (never tried), so those are named as on standby and failing ones as failing.
 */
export function endpointsSummary(endpoints: NetworkStatus["endpoints"]): string {
  const count = (state: NetworkStatus["endpoints"][number]["state"]) => endpoints.filter((endpoint) => endpoint.state === state).length;
  const answering = count("ok");
  const parts = [`${answering} of ${endpoints.length} endpoint${endpoints.length === 1 ? "" : "s"} answering`];
  const failing = count("failing") + count("wrong-chain");
  const standby = count("unknown");
  if (failing > 0) parts.push(`${failing} failing`);
  if (standby > 0 && answering > 0) parts.push(`${standby} on standby`);
  return parts.join(", ");
}
