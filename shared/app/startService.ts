import { AlertService } from "../alerts/alertService.ts";
import { WebhookSender, type WebhookSenderOptions } from "../alerts/webhookSender.ts";
import { loadAlertRules } from "../alerts/loadAlertRules.ts";
import { type ApiKeySettings, type NotificationSettings, notificationSettingsSchema, type Settings } from "../config/settings.ts";
import type { AlertEvent } from "../wire/alerts.ts";
import { createApiServer } from "../http/server.ts";
import { ApiKeyring } from "../keys/apiKeyring.ts";
import { generateApiKey } from "../keys/generateApiKey.ts";
import { ChainBackfill, type ChainBackfillOptions } from "../service/chainBackfill.ts";
import { ChainOutlookBackfill, storedOutlookHours } from "../service/chainOutlookBackfill.ts";
import type { ChainPlan } from "../service/chainPlan.ts";
import { openHistoryStore } from "./openHistoryStore.ts";
import { FeeService } from "../service/feeService.ts";
import { CostReaders, type CostReadersOptions } from "../service/costReaders.ts";
import { actionsWith } from "../core/costs/defaultActions.ts";
import type { Logger } from "../log/logger.ts";
import { ChainEndpoints } from "../rpc/endpoints/chainEndpoints.ts";
import { ChainFeed } from "../rpc/feed/chainFeed.ts";

export type ServiceConfig = Pick<Settings, "host" | "port" | "allowedHosts" | "corsOrigins" | "rateLimit"> &
  Partial<Pick<Settings, "currency" | "actions">> & {
    readonly chains: readonly ChainPlan[];
    readonly apiKeys: readonly ApiKeySettings[];
    /** The dashboard's token (settings' `dashboardToken`); without one, a token is made for this run only. */
    readonly dashboardToken?: string;
    /** The user key the dashboard's API panel shows; default: the first of `apiKeys`. */
    readonly dashboardApiKey?: () => ApiKeySettings | undefined;
    /** The SQLite file the chains' histories are kept in across restarts; without it, in memory only. */
    readonly historyFile?: string;
    /** Fetch each chain's older blocks back to its horizon (default true); tests of other things may turn it off. */
    readonly backfill?: boolean | ChainBackfillOptions["runner"];
    /** The alert rules: the settings' `alerts` and `notifications`; without them, each chain's built-in busy/calm pair alone. */
    readonly alerts?: AlertSettings;
    /** Called with every alert that fires (the desktop app shows a notification), besides the other channels. */
    readonly onAlert?: (event: AlertEvent) => void;
    /** How the rules' webhooks are posted (tests shorten the timeout and the backoff); the contract's defaults otherwise. */
    readonly webhook?: Omit<WebhookSenderOptions, "logger" | "onOutcome">;
    /** How the prices and L1 fees are read (tests shorten the interval); once a minute otherwise. */
    readonly costReads?: Pick<CostReadersOptions, "intervalMs" | "requestTimeoutMs" | "now">;
  };

/** The settings the alert rules are read from. */
export interface AlertSettings {
  /** The settings' `alerts`, as the file holds them: each one is checked on its own (loadAlertRules). */
  readonly rules: readonly unknown[];
  /** The built-in busy/calm rules' settings. */
  readonly notifications: NotificationSettings;
}

export interface RunningService {
  /** Base URL of the API, with the port actually bound. */
  readonly url: string;
  readonly port: number;
  readonly service: FeeService;
  readonly keyring: ApiKeyring;
  /** The dashboard's token: in the keyring beside the user's keys. */
  readonly dashboardToken: string;
  /** The dashboard's address with the session token: `<url>/?token=<token>`. */
  readonly dashboardUrl: string;
  /** The alert rules running (GET /alerts reads them). */
  readonly alerts: AlertService;
  /** The prices' and L1 fees' readers (their call counts, a read at once in tests). */
  readonly costReaders: CostReaders;
  /** Reads changed alert settings against the chains followed and runs them (alerts.configure); refused rules are logged. */
  configureAlerts(settings: AlertSettings): void;
  stop(): Promise<void>;
}

/**
 * Starts the service exactly as both the headless command and the desktop app run it: the HTTP server
 * first (so that the port is known and every endpoint answers, with 503 NO_DATA until data arrives), then the feeds.
 */
export async function startService(config: ServiceConfig, logger: Logger): Promise<RunningService> {
  const backfill = config.backfill ?? true;
  const store = config.historyFile === undefined ? undefined : openHistoryStore(config.historyFile, logger);
  // One endpoint layer per chain: its feed, its backfill and its contract reads are users of it (one health per endpoint).
  const layers = new Map(
    config.chains.map((plan) => [
      plan.chainId,
      new ChainEndpoints(plan.chainId, plan.rpcUrls, {
        labels: plan.rpcLabels,
        ...(plan.requestTimeoutMs === undefined ? {} : { timeoutMs: plan.requestTimeoutMs }),
      }),
    ]),
  );
  const service = new FeeService(config.chains, {
    logger,
    createFeed: (options) => new ChainFeed({ ...options, endpoints: layers.get(options.chainId)! }),
    ...(config.currency === undefined ? {} : { currency: config.currency }),
    ...(store ? { store } : {}),
    ...(backfill === false
      ? {}
      : {
          startBackfill: (plan, record, republish, storeWriter) => {
            const endpoints = layers.get(plan.chainId)!;
            // The hours before the history, once it reaches its horizon: kept in the history file (none without one).
            const outlook =
              storeWriter === undefined
                ? undefined
                : new ChainOutlookBackfill(plan, record, {
                    logger,
                    endpoints,
                    hours: storedOutlookHours(storeWriter, plan.chainId),
                    republish,
                    ...(backfill === true ? {} : { runner: backfill }),
                  });
            const chainBackfill = new ChainBackfill(plan, record, {
              logger,
              republish,
              endpoints,
              ...(outlook === undefined ? {} : { outlook }),
              ...(backfill === true ? {} : { runner: backfill }),
            });
            chainBackfill.start();
            return chainBackfill;
          },
        }),
  });
  const currency = config.currency ?? "USD";
  const actions = actionsWith(config.actions ?? []);
  const costReaders = new CostReaders({
    plans: config.chains,
    currency,
    txSizes: actions.map((action) => action.txBytes),
    gasAmounts: actions.map((action) => action.gas),
    logger,
    onMoney: (chainId, money) => service.setMoney(chainId, money),
    chainAnswers: (chainId) => service.get(chainId)?.snapshot !== undefined,
    endpointsOf: (chainId) => layers.get(chainId),
    ...(store ? { pricePointLog: store.pricePoints } : {}),
    ...config.costReads,
  });
  const webhooks = new WebhookSender({ logger, ...config.webhook });
  // With a history file, the rules' last firings are kept in it: their cooldowns and GET /alerts' lastFired outlive a restart.
  const alerts = new AlertService({ source: service, logger, webhooks, ...(store ? { firings: store.alertFirings } : {}) });
  const configureAlerts = (settings: AlertSettings) => {
    const { rules, problems } = loadAlertRules(settings.rules, config.chains, settings.notifications, actions);
    alerts.configure(rules, problems);
  };
  configureAlerts(config.alerts ?? { rules: [], notifications: notificationSettingsSchema.parse({}) });
  if (config.onAlert) alerts.subscribe(config.onAlert);
  const keyring = new ApiKeyring(config.apiKeys);
  const dashboardToken = config.dashboardToken ?? generateApiKey();
  keyring.add(dashboardToken);
  const server = createApiServer({
    source: service,
    alerts,
    keyring,
    logger,
    host: config.host,
    port: config.port,
    allowedHosts: config.allowedHosts,
    corsOrigins: config.corsOrigins,
    rateLimit: config.rateLimit,
    dashboard: { token: dashboardToken, apiKey: config.dashboardApiKey ?? (() => config.apiKeys[0]) },
    actions,
    priceHistory: costReaders,
  });
  const { port, url } = await server.listen().catch(async (error: unknown) => {
    alerts.stop();
    await webhooks.stop();
    throw error;
  });
  service.start();
  costReaders.start();
  let stopping: Promise<void> | undefined;
  return {
    url,
    port,
    service,
    keyring,
    dashboardToken,
    dashboardUrl: `${url}/?token=${dashboardToken}`,
    alerts,
    costReaders,
    configureAlerts,
    stop: () => {
      alerts.stop();
      return (stopping ??= Promise.all([server.close(), service.stop(), webhooks.stop(), costReaders.stop()]).then(() => {
        for (const layer of layers.values()) layer.close();
        store?.close();
      }));
    },
  };
}
