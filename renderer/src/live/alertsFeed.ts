// The alert rules as the page knows them: the newest answer of `GET /alerts` and the alerts fired while it is open
// (`event: alert`). Pure: each change gives a new value.
import type { AlertEvent, AlertsBody } from "../../../shared/wire/alerts.ts";

/**
 * - loading: not asked yet, or no answer yet;
 * - known: the service's rules and their state, as of its last answer;
 * - unavailable: the service has no alerts (an older gasfees answers 404): the page stops asking.
 */
export type AlertsState =
  { readonly kind: "loading" } | { readonly kind: "known"; readonly body: AlertsBody } | { readonly kind: "unavailable"; readonly reason: string };

/** An alert the stream delivered, numbered in arrival order (for the page's toasts). */
export interface FiredAlert {
  readonly seq: number;
  readonly event: AlertEvent;
  /** Epoch ms when it arrived. */
  readonly receivedAt: number;
}

export interface AlertsFeed {
  readonly state: AlertsState;
  /** The newest fired alerts, oldest first, at most FIRED_KEPT. */
  readonly fired: readonly FiredAlert[];
}

/** Fired alerts kept for the toasts: more at once would cover the page. */
export const FIRED_KEPT = 4;

export const EMPTY_ALERTS: AlertsFeed = { state: { kind: "loading" }, fired: [] };

export function withFiredAlert(feed: AlertsFeed, event: AlertEvent, receivedAt: number): AlertsFeed {
  const seq = (feed.fired[feed.fired.length - 1]?.seq ?? 0) + 1;
  return { ...feed, fired: [...feed.fired, { seq, event, receivedAt }].slice(-FIRED_KEPT) };
}

export function withAlertsState(feed: AlertsFeed, state: AlertsState): AlertsFeed {
  return { ...feed, state };
}
