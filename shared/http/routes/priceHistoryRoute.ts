import { MAX_DURATION_SECONDS } from "../../core/history/duration.ts";
import type { PriceHistory } from "../../wire/costs.ts";
import { disputedHeaderList } from "../disputedHeader.ts";
import { chainOfPath } from "../chainOfPath.ts";
import type { JsonRoute } from "../routeTypes.ts";
import { MAX_UNIX_SECONDS, parseCsvQuery } from "../statsQuery.ts";

const UNIX_SECONDS = { type: "string", pattern: "^(0|[1-9][0-9]*)$" } as const;

/**
 * `GET /networks/{chainId}/priceHistory`: the gas token's price points held, so that a past range can be shown in
 * money (docs/api.md, "Costs in money"). The range is `from` and `to` (unix seconds, each optional: default the
 * history horizon up to now), as the CSV export's.
 */
export const PRICE_HISTORY_ROUTE: JsonRoute = {
  kind: "json",
  name: "getPriceHistory",
  summary:
    "The gas token's price points held (one per feed round seen, for the history horizon), oldest first, led by the point in force at the range's start: " +
    "the cost of an action at a past time t is gas x the base fee at t x the newest point's value at or before t / 10^18.",
  path: "/networks/{chainId}/priceHistory",
  auth: "key",
  query: [
    {
      name: "from",
      description: `The range's start, unix seconds (0 to ${MAX_UNIX_SECONDS}), included; default the history horizon's start.`,
      schema: UNIX_SECONDS,
    },
    {
      name: "to",
      description: `The range's end, unix seconds (0 to ${MAX_UNIX_SECONDS}), included; default: every point held. Not before from.`,
      schema: UNIX_SECONDS,
    },
  ],
  extraErrors: ["INVALID_QUERY"],
  response: { schema: "PriceHistory" },
  reply: (context) => {
    const publication = chainOfPath(context, "configured");
    const query = parseCsvQuery(context.target, "priceHistory");
    const nowS = Math.floor(context.nowMs / 1000);
    // Without `to`, every point held from `from` on (a round may be dated a little ahead of this computer's clock).
    const toS = query.toSeconds ?? MAX_UNIX_SECONDS;
    const fromS = query.fromSeconds ?? Math.max(0, Math.min(toS, nowS) - MAX_DURATION_SECONDS);
    const body: PriceHistory = context.resources.priceHistory.pricePoints(publication.chainId, fromS, toS);
    return { body: Buffer.from(JSON.stringify(body)), headers: disputedHeaderList(publication) };
  },
};
