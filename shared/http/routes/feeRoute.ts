import { dataAgeMsAt } from "../../service/chainPublication.ts";
import { ApiError } from "../apiErrors.ts";
import { chainOfPath } from "../chainOfPath.ts";
import type { PreparedBody } from "../preparedBody.ts";
import type { OpenApiSchemaName } from "../openApiSchemas.ts";
import type { FeeAnswerName } from "../preparedAnswers.ts";
import type { JsonRoute } from "../routeTypes.ts";

/** What makes one fee endpoint: which prepared body it answers, and what the OpenAPI description says of it. */
export interface FeeRouteSpec {
  readonly name: FeeAnswerName;
  readonly summary: string;
  /** The body's schema in the OpenAPI description. */
  readonly schema: OpenApiSchemaName;
  /** Computed over the statistics window: the answer carries the window's X-Stats-* headers (the history does not). */
  readonly windowed: boolean;
  /** A blob fee endpoint: answered from the snapshot's blob part, NO_BLOB_FEE for a chain without one. */
  readonly blob?: boolean;
}

/**
 * `GET /networks/{chainId}/<name>`: the chain's prepared body of that name with its strong ETag, and headers that say
 * how new the data is (the contract keeps the bodies free of extra fields). Nothing is serialised per request.
 */
export function feeRoute({ name, summary, schema, windowed, blob = false }: FeeRouteSpec): JsonRoute {
  return {
    kind: "json",
    name,
    summary,
    path: `/networks/{chainId}/${name}`,
    auth: "key",
    reply: (context) => {
      const publication = chainOfPath(context, "data");
      const published = context.resources.answers.of(publication);
      const answers = blob ? published.answers.blob : published.answers;
      if (answers === undefined) throw new ApiError("NO_BLOB_FEE", { chainId: context.params["chainId"] ?? "" });
      const prepared = (answers as Partial<Record<FeeAnswerName, PreparedBody>>)[name]!;
      const headers = !windowed ? published.freshHeaders : blob ? published.blobWindowHeaders : published.windowHeaders;
      return { body: prepared.body, etag: prepared.etag, headers, dataAgeMs: dataAgeMsAt(publication, context.nowMs) };
    },
    response: { schema, fresh: true, ...(windowed ? { windowed: true } : {}) },
    ...(blob ? { extraErrors: ["NO_BLOB_FEE"] as const } : {}),
  };
}
