import type { NetworkStatus } from "./dataClient.ts";

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
