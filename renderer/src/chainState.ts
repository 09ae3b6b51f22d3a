import { type Congestion, congestionOf } from "../../shared/wire/congestion.ts";
import type { NetworkStatus } from "../../shared/wire/networkStatus.ts";

/**
 * What a chain looks like at a glance in the switcher: one word, one colour (see styles.css, `.state-*`). A chain
 * that follows its RPC shows its congestion (congestionOf, the one vocabulary of busy and normal); otherwise what
 * keeps it from having one. `unknown` is also every chain's state while the service itself is not answering: then
 * nothing the page holds is known to be current.
 */
export type GlanceState = Congestion | "degraded" | "unreachable" | "syncing" | "no-base-fee";

export function glanceState(status: NetworkStatus, serviceAnswering: boolean): GlanceState {
  if (!serviceAnswering) return "unknown";
  switch (status.state) {
    case "ok":
      return congestionOf(status);
    case "degraded":
    case "unreachable":
    case "syncing":
    case "no-base-fee":
      return status.state;
  }
}

export const GLANCE_WORDS: Readonly<Record<GlanceState, string>> = {
  busy: "busy",
  normal: "normal",
  unknown: "unknown",
  degraded: "RPC failing",
  unreachable: "RPC failing",
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
