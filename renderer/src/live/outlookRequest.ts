// What the dashboard asks of GET /networks/{chainId}/outlook: a horizon in hours and at most one threshold, in one of
// the contract's three kinds (CONTRACT.md, "Outlook: wait or pay now"), and what it answers.
import type { OutlookBody } from "../../../shared/wire/outlook.ts";

/** A threshold of the outlook: a base fee in Gwei, a share of the current base fee, or what one action should cost. */
export type OutlookThreshold =
  | { readonly kind: "gwei"; readonly gwei: string }
  | { readonly kind: "ratio"; readonly ratio: number }
  | { readonly kind: "money"; readonly action: string; readonly fiat: string };

export interface OutlookQuery {
  /** The horizon H, in whole hours. */
  readonly withinHours: number;
  readonly threshold?: OutlookThreshold | undefined;
}

/** The query string of `query`, its parameters in a fixed order (so that it also serves as a cache key). */
export function outlookQueryString(query: OutlookQuery): string {
  const parameters = new URLSearchParams({ within: `${query.withinHours}h` });
  const threshold = query.threshold;
  if (threshold?.kind === "gwei") parameters.set("below", threshold.gwei);
  else if (threshold?.kind === "ratio") parameters.set("belowRatio", String(threshold.ratio));
  else if (threshold?.kind === "money") {
    parameters.set("action", threshold.action);
    parameters.set("fiat", threshold.fiat);
  }
  return parameters.toString();
}

/**
 * An answer of GET /networks/{chainId}/outlook: the outlook, or the service's plain "not enough history yet" (422
 * NOT_ENOUGH_HISTORY), which is a state of the chain to show, not a failure: how much is held and how much is needed.
 */
export type OutlookAnswer =
  | { readonly kind: "outlook"; readonly body: OutlookBody }
  | { readonly kind: "not-enough-history"; readonly held: string; readonly needed: string; readonly message: string };
