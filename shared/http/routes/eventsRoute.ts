import type { StreamRoute } from "../routeTypes.ts";

/** `GET /events`: every chain's event stream in one. */
export const EVENTS_ROUTE: StreamRoute = {
  kind: "stream",
  name: "getEvents",
  summary:
    "Server-Sent Events for every chain: each chain's full state at once, then one event per change of any chain (`event: network`), and `event: alert` (an AlertEvent) when any alert rule fires.",
  path: "/events",
  auth: "key",
  open: ({ res, keyId, headers, head, resources }) => resources.streams.open(res, { scope: "all", keyId: keyId ?? "", headers, head }),
};
