import type { ServerResponse } from "node:http";
import { ApiError, writeApiError } from "../apiErrors.ts";
import type { ServiceMetrics } from "../metrics.ts";
import type { StreamRoute } from "../routeTypes.ts";

/** `GET /metrics`: Prometheus' scrape, as of the time of asking. */
export const METRICS_ROUTE: StreamRoute = {
  kind: "stream",
  name: "getMetrics",
  summary:
    "Prometheus metrics (text format 0.0.4): per chain the newest block, base fee, next base fee, percentile, busy threshold, busy, data age, state and history held; per RPC endpoint its state; the server's answers by route and status.",
  path: "/metrics",
  auth: "key",
  textMediaType: "text/plain",
  open: ({ res, head, headers, resources }) => answerMetrics(resources.metrics, res, head, headers),
};

/** Answers a scrape: the metrics as of now in Prometheus' text format, never cached. */
function answerMetrics(metrics: ServiceMetrics, res: ServerResponse, head: boolean, headers: Readonly<Record<string, string>>): void {
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
