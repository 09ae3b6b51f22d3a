import type { AlertEvent, AlertsBody } from "../wire/alerts.ts";

/** What the HTTP server reads of the alerts: `GET /alerts`, and each firing for the event streams' `event: alert`. */
export interface AlertSource {
  /** The rules, each one's state now, and the problems of the rules that were refused. */
  status(): AlertsBody;
  /** Calls `listener` with each alert delivered from now on (every chain's); returns the unsubscribe function. */
  subscribe(listener: (event: AlertEvent) => void): () => void;
}

/** The source of a server that runs no alerts (tests of other things): no rules, no problems, no event ever. */
export const NO_ALERTS: AlertSource = Object.freeze({
  status: () => ({ rules: [], problems: [] }),
  subscribe: () => () => {},
});
