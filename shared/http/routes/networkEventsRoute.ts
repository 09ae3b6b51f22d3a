import { chainOfPath } from "../chainOfPath.ts";
import type { StreamRoute } from "../routeTypes.ts";

/** `GET /networks/{chainId}/events`: one chain's event stream, open whatever state the chain is in. */
export const NETWORK_EVENTS_ROUTE: StreamRoute = {
  kind: "stream",
  name: "getNetworkEvents",
  summary:
    "Server-Sent Events: the chain's full state at once, then one event per change (`event: network`: new blocks, status), and `event: alert` (an AlertEvent) when one of the chain's alert rules fires.",
  path: "/networks/{chainId}/events",
  auth: "key",
  open: (context) => {
    const { chainId } = chainOfPath(context, "configured");
    const { res, keyId, headers, head, resources } = context;
    resources.streams.open(res, { scope: { chainId }, keyId: keyId ?? "", headers, head });
  },
};
