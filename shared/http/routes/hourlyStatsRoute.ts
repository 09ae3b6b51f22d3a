import { chainOfPath } from "../chainOfPath.ts";
import { disputedHeaderList } from "../disputedHeader.ts";
import type { JsonRoute, QueryParameter } from "../routeTypes.ts";
import { MAX_UNIX_SECONDS, parseCsvQuery } from "../statsQuery.ts";

const UNIX_SECONDS = { type: "string", pattern: "^(0|[1-9][0-9]*)$" } as const;

/** hourlyStats' and hourlyStats.csv's query parameters, for the OpenAPI description. */
export const HOURLY_STATS_QUERY: readonly QueryParameter[] = [
  {
    name: "from",
    description: `The earliest hour's start, unix seconds (0 to ${MAX_UNIX_SECONDS}), included; default the oldest hour held.`,
    schema: UNIX_SECONDS,
  },
  {
    name: "to",
    description: `The latest hour's start, unix seconds (0 to ${MAX_UNIX_SECONDS}), included; default the newest hour held. Not before from.`,
    schema: UNIX_SECONDS,
  },
];

export const HOURLY_STATS_SUMMARY =
  "The chain's hourly base-fee summaries (kept for its summaryHorizon, default 52 weeks) whose hour starts within [from, to], oldest first: " +
  "per hour its start, the blocks it was built from, whether they were a sample of the hour's blocks (the outlook backfill of a fast chain), " +
  "and min, p10, p50, p90 (nearest rank), max and the newest block's base fee, in Gwei, exact. An hour without a summary is missing, never invented. " +
  "An hour is summarised once it is closed (the chain's reorg depth past its end) from every one of its blocks, and again when one of them changes.";

/**
 * `GET /networks/{chainId}/hourlyStats`: the chain's hourly summaries (CONTRACT.md, "Outlook: wait or pay now"), from
 * its publication (the service's book of them), ETag'd: the same hours give the same tag, and a 304.
 */
export const HOURLY_STATS_ROUTE: JsonRoute = {
  kind: "json",
  name: "getHourlyStats",
  summary: HOURLY_STATS_SUMMARY,
  path: "/networks/{chainId}/hourlyStats",
  auth: "key",
  query: HOURLY_STATS_QUERY,
  extraErrors: ["INVALID_QUERY"],
  response: { schema: "HourlyStats" },
  reply: (context) => {
    const publication = chainOfPath(context, "base fee");
    const query = parseCsvQuery(context.target, "hourlyStats");
    const prepared = context.resources.hourlyStats.json(publication.hourlySummaries, query.fromSeconds, query.toSeconds);
    return { body: prepared.body, etag: prepared.etag, headers: disputedHeaderList(publication) };
  },
};
