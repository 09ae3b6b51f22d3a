import type { ChainPublication } from "../service/chainPublication.ts";

/**
 * Why a chain's alerts cannot fire now, or null when they can: "no data" while it has none to go by (not followed
 * yet, unreachable, without a base fee), "degraded" while every endpoint fails and its data is getting stale. Only a
 * chain followed now ("ok") moves its rules, so that a stale fee never fires an alert.
 */
export function chainPause(publication: ChainPublication | undefined): "no data" | "degraded" | null {
  if (publication?.snapshot === undefined) return "no data";
  switch (publication.status.state) {
    case "ok":
      return null;
    case "degraded":
      return "degraded";
    default:
      return "no data";
  }
}
