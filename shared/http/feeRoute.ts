import { chainOfPath, type PublicationWithData } from "./chainOfPath.ts";
import type { OpenApiSchemaName } from "./openApiSchemas.ts";
import type { PublishedAnswers } from "./preparedAnswerCache.ts";
import type { FeeAnswerName } from "./preparedAnswers.ts";
import type { JsonRoute } from "./routeTypes.ts";

/** What makes one fee endpoint: which prepared body it answers, and what the OpenAPI description says of it. */
export interface FeeRouteSpec {
  readonly name: FeeAnswerName;
  readonly summary: string;
  /** The body's schema in the OpenAPI description. */
  readonly schema: OpenApiSchemaName;
  /** Computed over the statistics window: the answer carries the window's X-Stats-* headers (the history does not). */
  readonly windowed: boolean;
}

/**
 * `GET /networks/{chainId}/<name>`: the chain's prepared body of that name with its strong ETag, and headers that say
 * how new the data is (the contract keeps the bodies free of extra fields). Nothing is serialised per request.
 */
export function feeRoute({ name, summary, schema, windowed }: FeeRouteSpec): JsonRoute {
  return {
    kind: "json",
    name,
    summary,
    path: `/networks/{chainId}/${name}`,
    auth: "key",
    reply: (context) => {
      const publication = chainOfPath(context, "data");
      const published = context.resources.answers.of(publication);
      const prepared = published.answers[name];
      const fresh = freshnessHeaders(publication, published, context.nowMs);
      return { body: prepared.body, etag: prepared.etag, headers: windowed ? { ...fresh, ...published.answers.statsHeaders } : fresh };
    },
    response: { schema, fresh: true, ...(windowed ? { windowed: true } : {}) },
  };
}

/** `X-Block-Number`, and once an RPC endpoint confirmed the data, `X-Data-Age-Ms` at `nowMs` and `Last-Modified`. */
function freshnessHeaders(publication: PublicationWithData, { answers, lastModified }: PublishedAnswers, nowMs: number): Record<string, string> {
  const { confirmedAt } = publication;
  if (confirmedAt === undefined || lastModified === undefined) return { "X-Block-Number": answers.blockNumber };
  return {
    "X-Block-Number": answers.blockNumber,
    "X-Data-Age-Ms": String(Math.max(0, Math.round(nowMs - confirmedAt))),
    "Last-Modified": lastModified,
  };
}
