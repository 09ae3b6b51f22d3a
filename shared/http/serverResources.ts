import type { AlertSource } from "../alerts/alertSource.ts";
import type { FeeSource } from "../service/feeSource.ts";
import type { CostAnswers, PriceHistorySource } from "./costAnswers.ts";
import type { DashboardFiles } from "./dashboardFiles.ts";
import type { EventStreams } from "./eventStreams.ts";
import type { HistoryScans } from "./historyScans.ts";
import type { HourlyStatsAnswers } from "./hourlyStatsAnswers.ts";
import type { ServiceMetrics } from "./metrics.ts";
import type { OutlookAnswers } from "./outlookAnswers.ts";
import type { PreparedAnswerCache } from "./preparedAnswerCache.ts";
import type { PreparedBody } from "./preparedBody.ts";

/** The dashboard's own credential, and the user key its API panel shows. */
export interface DashboardAccess {
  /** The keyId of the dashboard's token: only it may ask for the user's key. */
  readonly tokenKeyId: string | undefined;
  /** The user's key to show, read at the time of asking (keys may be added or revoked meanwhile). */
  readonly apiKey: () => { readonly key: string; readonly secret?: string | undefined } | undefined;
}

/** What the server holds for its routes: made once per server, never per request. */
export interface ServerResources {
  readonly source: FeeSource;
  readonly alerts: AlertSource;
  readonly dashboardAccess: DashboardAccess;
  readonly streams: EventStreams;
  readonly dashboard: DashboardFiles;
  /** This server's OpenAPI description, serialised once. */
  readonly openApi: PreparedBody;
  /** This server's Prometheus metrics (GET /metrics). */
  readonly metrics: ServiceMetrics;
  /** /costs' body of each publication, made once and then only read. */
  readonly costs: CostAnswers;
  /** The gas tokens' price points (GET /networks/{chainId}/priceHistory). */
  readonly priceHistory: PriceHistorySource;
  /** The fee endpoints' bodies and headers of each publication, prepared once and then only read. */
  readonly answers: PreparedAnswerCache;
  /** /outlook's bodies, made once per publication and question. */
  readonly outlooks: OutlookAnswers;
  /** /hourlyStats' and its CSV's bodies, from text kept per summary. */
  readonly hourlyStats: HourlyStatsAnswers;
  /** The reads over long stretches of history: sliced between turns of the event loop, one at a time, charged by blocks read. */
  readonly scans: HistoryScans;
}
