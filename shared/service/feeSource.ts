import type { HistoryView } from "../core/history/historyView.ts";
import type { ChainPublication } from "./chainPublication.ts";
import type { ChainOutlook } from "./chainOutlook.ts";

/** The followed chains as their readers (the HTTP server, event streams, alerts, tray, metrics) see them. */
export interface FeeSource {
  /** The newest publication of a configured chain; undefined for a chain that is not configured. */
  get(chainId: number): ChainPublication | undefined;
  /** The newest publication of every configured chain, in the configured order. */
  list(): readonly ChainPublication[];
  /** The chain's held history (live, read-only), for baseFeeStats and the CSV export; undefined for an unknown chain. */
  history(chainId: number): HistoryView | undefined;
  /** The chain's outlook (prepared from its hourly summaries); undefined for an unknown chain. */
  outlook(chainId: number): ChainOutlook | undefined;
  /** Calls `listener` with each new publication of any chain; returns the unsubscribe function. */
  subscribe(listener: (publication: ChainPublication) => void): () => void;
}
