import type { JsonRoute } from "../routeTypes.ts";

/** `GET /alerts`: the alert rules and their state, read-only. */
export const ALERTS_ROUTE: JsonRoute = {
  kind: "json",
  name: "getAlerts",
  summary:
    "The alert rules of the settings (the built-in busy/calm pair of each chain included), each with its state: armed or firing, why it is paused, its threshold now, its last firing and webhook outcome; and the rules that were refused, with the field at fault. Read-only: rules are changed in the settings.",
  path: "/alerts",
  auth: "key",
  reply: ({ resources }) => ({ body: Buffer.from(JSON.stringify(resources.alerts.status())) }),
  response: { schema: "Alerts" },
};
