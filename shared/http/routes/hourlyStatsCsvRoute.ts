import { HOURLY_STATS_CSV_HEADER } from "../../wire/hourlyStats.ts";
import { chainOfPath } from "../chainOfPath.ts";
import { disputedHeader } from "../disputedHeader.ts";
import { ifNoneMatchMatches, REVALIDATE } from "../ifNoneMatch.ts";
import type { StreamRoute } from "../routeTypes.ts";
import { parseCsvQuery } from "../statsQuery.ts";
import { HOURLY_STATS_QUERY, HOURLY_STATS_SUMMARY } from "./hourlyStatsRoute.ts";

/**
 * `GET /networks/{chainId}/hourlyStats.csv`: the same hours as `/hourlyStats`, as CSV (a header, then a line an hour).
 * Written at once from text kept per summary (hourlyStatsAnswers.ts), with a strong ETag (If-None-Match answers 304).
 */
export const HOURLY_STATS_CSV_ROUTE: StreamRoute = {
  kind: "stream",
  name: "getHourlyStatsCsv",
  summary: `${HOURLY_STATS_SUMMARY} As CSV: a header \`${HOURLY_STATS_CSV_HEADER}\`, then one line per hour, sampled as true or false.`,
  path: "/networks/{chainId}/hourlyStats.csv",
  auth: "key",
  query: HOURLY_STATS_QUERY,
  extraErrors: ["INVALID_QUERY"],
  textMediaType: "text/csv",
  open: (context) => {
    const publication = chainOfPath(context, "base fee");
    const query = parseCsvQuery(context.target, "hourlyStats.csv");
    const { req, res, head, headers } = context;
    const { body, etag } = context.resources.hourlyStats.csv(publication.hourlySummaries, query.fromSeconds, query.toSeconds);
    const replyHeaders = { ...headers, ...disputedHeader(publication), "Cache-Control": REVALIDATE, ETag: etag };
    if (ifNoneMatchMatches(req.headers["if-none-match"], etag)) {
      res.writeHead(304, replyHeaders);
      res.end();
      return;
    }
    res.writeHead(200, { ...replyHeaders, "Content-Type": "text/csv; charset=utf-8", "Content-Length": body.length });
    res.end(head ? undefined : body);
  },
};
