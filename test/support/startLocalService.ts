import type { ApiKeySettings } from "../../shared/config/settings.ts";
import type { ChainPlan } from "../../shared/service/chainPlan.ts";
import { type Logger, silentLogger } from "../../shared/log/logger.ts";
import { type RunningService, type ServiceConfig, startService } from "../../shared/app/startService.ts";

/** What a test may set beyond chains and keys: the history's file, the backfill's pace, and costs in money. */
export type LocalServiceExtras = Pick<ServiceConfig, "historyFile" | "backfill" | "actions" | "currency" | "costReads">;

/**
 * The real service as tests run it: 127.0.0.1 on a free port, no extra hosts, CORS closed, no rate limit (tests
 * that prove the rate limit set their own), quiet logs unless a test reads them.
 */
export function startLocalService(
  chains: readonly ChainPlan[],
  apiKeys: readonly ApiKeySettings[],
  extras: LocalServiceExtras = {},
  logger: Logger = silentLogger,
): Promise<RunningService> {
  return startService(
    { host: "127.0.0.1", port: 0, allowedHosts: [], corsOrigins: [], rateLimit: { requestsPerSecond: 0, burst: 1 }, apiKeys, chains, ...extras },
    logger,
  );
}
