// The route list: what the server answers, in the order it matches paths. Each route is a file of its own
// (`*Route.ts`); their shared shapes are routeTypes.ts, so that no route file imports this list.
import { ALERTS_ROUTE } from "./routes/alertsRoute.ts";
import { BASE_FEE_HISTORY_CSV_ROUTE } from "./routes/baseFeeHistoryCsvRoute.ts";
import { BASE_FEE_HISTORY_ROUTE } from "./routes/baseFeeHistoryRoute.ts";
import { BASE_FEE_PERCENTILE_ROUTE } from "./routes/baseFeePercentileRoute.ts";
import { BASE_FEE_STATS_ROUTE } from "./routes/baseFeeStatsRoute.ts";
import { BLOB_BASE_FEE_HISTORY_ROUTE } from "./routes/blobBaseFeeHistoryRoute.ts";
import { BLOB_BASE_FEE_PERCENTILE_ROUTE } from "./routes/blobBaseFeePercentileRoute.ts";
import { BLOB_BUSY_THRESHOLD_ROUTE } from "./routes/blobBusyThresholdRoute.ts";
import { BUSY_THRESHOLD_ROUTE } from "./routes/busyThresholdRoute.ts";
import { COSTS_ROUTE } from "./routes/costsRoute.ts";
import { DASHBOARD_ASSET_ROUTE } from "./routes/dashboardAssetRoute.ts";
import { DASHBOARD_CREDENTIALS_ROUTE } from "./routes/dashboardCredentialsRoute.ts";
import { DASHBOARD_ROUTE } from "./routes/dashboardRoute.ts";
import { EVENTS_ROUTE } from "./routes/eventsRoute.ts";
import { HEALTH_ROUTE } from "./routes/healthRoute.ts";
import { HOURLY_STATS_CSV_ROUTE } from "./routes/hourlyStatsCsvRoute.ts";
import { HOURLY_STATS_ROUTE } from "./routes/hourlyStatsRoute.ts";
import { METRICS_ROUTE } from "./routes/metricsRoute.ts";
import { NETWORK_EVENTS_ROUTE } from "./routes/networkEventsRoute.ts";
import { NETWORKS_ROUTE } from "./routes/networksRoute.ts";
import { OPEN_API_ROUTE } from "./routes/openApiRoute.ts";
import { OUTLOOK_ROUTE } from "./routes/outlookRoute.ts";
import { PRICE_HISTORY_ROUTE } from "./routes/priceHistoryRoute.ts";
import type { Route } from "./routeTypes.ts";
import { SUGGESTED_GAS_FEES_ROUTE } from "./routes/suggestedGasFeesRoute.ts";
import { SUPPORTED_CHAIN_NAMES_ROUTE } from "./routes/supportedChainNamesRoute.ts";
import { SUPPORTED_NETWORKS_ROUTE } from "./routes/supportedNetworksRoute.ts";

/** The routes in their Basic-auth form; every keyed route also answers under /v3/{apiKey} (EventSource sends no headers). */
const BASE_ROUTES: readonly Route[] = [
  HEALTH_ROUTE,
  OPEN_API_ROUTE,
  NETWORKS_ROUTE,
  BUSY_THRESHOLD_ROUTE,
  BASE_FEE_PERCENTILE_ROUTE,
  BASE_FEE_HISTORY_ROUTE,
  BLOB_BUSY_THRESHOLD_ROUTE,
  BLOB_BASE_FEE_PERCENTILE_ROUTE,
  BLOB_BASE_FEE_HISTORY_ROUTE,
  SUGGESTED_GAS_FEES_ROUTE,
  COSTS_ROUTE,
  PRICE_HISTORY_ROUTE,
  BASE_FEE_STATS_ROUTE,
  BASE_FEE_HISTORY_CSV_ROUTE,
  OUTLOOK_ROUTE,
  HOURLY_STATS_ROUTE,
  HOURLY_STATS_CSV_ROUTE,
  NETWORK_EVENTS_ROUTE,
  DASHBOARD_CREDENTIALS_ROUTE,
  EVENTS_ROUTE,
  ALERTS_ROUTE,
  METRICS_ROUTE,
  SUPPORTED_NETWORKS_ROUTE,
  SUPPORTED_CHAIN_NAMES_ROUTE,
];

/** The dashboard's built files (no key: the page holds no data; the data it fetches needs the key or its token). */
const DASHBOARD_ROUTES: readonly Route[] = [DASHBOARD_ROUTE, DASHBOARD_ASSET_ROUTE];

/** Every route the server answers: the one list that the server, the OpenAPI description and the tests read. */
export const ROUTES: readonly Route[] = [...BASE_ROUTES, ...DASHBOARD_ROUTES, ...BASE_ROUTES.filter((route) => route.auth === "key").map(withKeyInPath)];

function withKeyInPath(route: Route): Route {
  return { ...route, name: `${route.name}WithKeyInPath`, path: `/v3/{apiKey}${route.path}` };
}
