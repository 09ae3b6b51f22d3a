import type { ServerResponse } from "node:http";
import { ApiError, writeApiError } from "./apiErrors.ts";
import type { ServiceMetrics } from "./metrics.ts";

/** Answers a scrape: the metrics as of now in Prometheus' text format, never cached. */
export function answerMetrics(metrics: ServiceMetrics, res: ServerResponse, head: boolean, headers: Readonly<Record<string, string>>): void {
  metrics.render().then(
    (text) => {
      if (res.destroyed || res.headersSent) return;
      const body = Buffer.from(text);
      res.writeHead(200, { ...headers, "Content-Type": metrics.contentType, "Content-Length": body.length, "Cache-Control": "no-store" });
      res.end(head ? undefined : body);
    },
    () => {
      if (!res.destroyed && !res.headersSent) writeApiError(res, new ApiError("INTERNAL_ERROR"), head, headers);
    },
  );
}
