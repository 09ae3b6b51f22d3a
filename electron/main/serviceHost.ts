// The service inside the desktop app: the same startService as `npm run serve`, started from the settings file and
// restarted when the settings that shape it change. Imports no Electron, so plain Node tests drive it.
import { createServer } from "node:net";
import { withDashboardToken, withRotatedDashboardToken } from "../../shared/config/dashboardToken.ts";
import type { Settings } from "../../shared/config/settings.ts";
import type { SettingsStore } from "../../shared/config/settingsStore.ts";
import type { SecretCipher } from "../../shared/keys/secretCipher.ts";
import { addNewApiKey, apiKeyIdOf, type NewApiKeyOptions, removeApiKey, revealApiKey, usableApiKeys } from "../../shared/config/storedApiKeys.ts";
import { chainPlansFrom } from "../../shared/service/chainPlan.ts";
import type { Logger } from "../../shared/log/logger.ts";
import { type AlertSettings, type RunningService, startService } from "../../shared/app/startService.ts";
import type { AlertEvent } from "../../shared/wire/alerts.ts";
import type { ServiceState } from "../bridge/bridgeTypes.ts";
import { type AlertNotification, alertNotificationOf } from "./alertNotification.ts";

export interface ServiceHostOptions {
  readonly store: SettingsStore;
  readonly cipher: SecretCipher;
  readonly logger: Logger;
  /** Origins besides the settings' own that may call the API from a browser context: the app's window. */
  readonly extraCorsOrigins?: readonly string[];
  /**
   * Called with each alert the service fires (a user rule, or a built-in busy/calm rule; the settings' notifications
   * switch and muted chains turn the built-ins off), in words for a desktop notification.
   */
  readonly onAlert?: (notification: AlertNotification) => void;
  /** Called whenever the state changes (started, stopped, paused, failed) and on every chain update while running. */
  readonly onChange?: () => void;
  /** How the service is started: `startService` unless a test holds a start half-way to change keys meanwhile. */
  readonly startService?: typeof startService;
  /** The history's SQLite file (shared with `npm run serve` on the same config folder); none: in memory only. */
  readonly historyFile?: string;
}

/** The settings that shape the running service; any change to these restarts it. */
function serviceShapeOf(settings: Settings): string {
  const { port, host, allowedHosts, corsOrigins, chains, rateLimit, currency, actions } = settings;
  return JSON.stringify({ port, host, allowedHosts, corsOrigins, chains, rateLimit, currency, actions });
}

/** The settings the alert rules are read from: changing them reconfigures the running rules without a restart. */
function alertSettingsOf(settings: Settings): AlertSettings {
  return { rules: settings.alerts, notifications: settings.notifications };
}

export function portInUseMessage(port: number): string {
  return (
    `Port ${port} is already in use by another program (perhaps \`npm run serve\` or another copy of gasfees), ` +
    "so the local API is not running. Choose another port in Settings, or let gasfees pick a free one."
  );
}

/** A port that was free a moment ago on 127.0.0.1. */
export function findFreePort(host = "127.0.0.1"): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, host, () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

export class ServiceHost {
  #state: ServiceState = { state: "stopped" };
  #running: RunningService | undefined;
  #unsubscribeChains: (() => void) | undefined;
  #shape: string;
  /** Keys added to the live keyring, by id, so that a revoked sealed key can be removed without opening it again. */
  readonly #liveKeys = new Map<string, string>();
  /** The dashboard token the live keyring holds, so that a rotation removes exactly that one. */
  #liveDashboardToken: string | undefined;
  #transition: Promise<unknown> = Promise.resolve();
  #paused = false;

  constructor(private readonly options: ServiceHostOptions) {
    this.#shape = serviceShapeOf(options.store.current);
    options.store.subscribe((settings, previous) => {
      const shape = serviceShapeOf(settings);
      if (shape !== this.#shape && !this.#paused) {
        // The restart reads the alert settings with the rest.
        this.#shape = shape;
        void this.restart();
        return;
      }
      // Every update parses the settings anew, so the rules are compared by content.
      if (JSON.stringify(alertSettingsOf(settings)) !== JSON.stringify(alertSettingsOf(previous))) this.#configureAlerts();
      if (settings.trayChainId !== previous.trayChainId || settings.trayAction !== previous.trayAction) {
        this.options.onChange?.();
      }
    });
  }

  /**
   * The dashboard's token (settings' `dashboardToken`, the same one `npm run serve` uses): not a user key. Made and
   * stored by the first start; the preload hands it to the page.
   */
  get dashboardToken(): string | undefined {
    return this.#liveDashboardToken ?? this.options.store.current.dashboardToken;
  }

  get state(): ServiceState {
    return this.#state;
  }

  get running(): RunningService | undefined {
    return this.#running;
  }

  /** The base URL the dashboard uses: the running one, else the configured one. */
  get baseUrl(): string {
    if (this.#state.state === "running") return this.#state.url;
    return `http://127.0.0.1:${this.options.store.current.port}`;
  }

  start(): Promise<ServiceState> {
    this.#paused = false;
    return this.#serially(() => this.#start());
  }

  stop(): Promise<void> {
    return this.#serially(() => this.#stop()).then(() => undefined);
  }

  restart(): Promise<ServiceState> {
    return this.#serially(async () => {
      await this.#stop();
      return this.#paused ? this.#state : this.#start();
    });
  }

  /** Pause: stop serving and following (no RPC traffic, the port is freed) until resumed. */
  pause(): Promise<ServiceState> {
    this.#paused = true;
    return this.#serially(async () => {
      await this.#stop();
      this.#setState({ state: "paused" });
      return this.#state;
    });
  }

  get paused(): boolean {
    return this.#paused;
  }

  /** Makes a key, stores it (sealed where the system has a key store) and lets it in at once. */
  async createApiKey(options: NewApiKeyOptions): Promise<{ id: string; key: string; secret?: string }> {
    let created: { id: string; key: string; secret?: string } | undefined;
    await this.options.store.update((settings) => {
      const result = addNewApiKey(settings, options, this.options.cipher);
      created = result.created;
      return result.settings;
    });
    const { id, key, secret } = created!;
    await this.#changeLiveKeys((running) => {
      running?.keyring.add(key, secret);
      this.#liveKeys.set(id, key);
    });
    return created!;
  }

  /** Removes a key from the settings and refuses it at once. */
  async revokeApiKey(id: string): Promise<void> {
    await this.options.store.update((settings) => removeApiKey(settings, id));
    await this.#changeLiveKeys((running) => {
      const key = this.#liveKeys.get(id);
      if (key !== undefined) running?.keyring.remove(key);
      this.#liveKeys.delete(id);
    });
  }

  /**
   * Stores a new dashboard token and refuses the old one at once (the caller reloads the page with the new one).
   * Like a key change, it reaches the live keyring in turn with any start in progress.
   */
  async rotateDashboardToken(): Promise<void> {
    const { dashboardToken } = await this.options.store.update(withRotatedDashboardToken);
    await this.#changeLiveKeys((running) => {
      if (this.#liveDashboardToken !== undefined) running?.keyring.remove(this.#liveDashboardToken);
      running?.keyring.add(dashboardToken!);
      this.#liveDashboardToken = dashboardToken;
    });
  }

  revealApiKey(id: string): { key: string; secret?: string } | undefined {
    return revealApiKey(this.options.store.current, id, this.options.cipher);
  }

  /**
   * Applies a key change, already stored in the settings, to the live keyring. It waits its turn behind any start or
   * restart in progress: such a start may have read the settings before the change, and would otherwise bring up a
   * service that still accepts a revoked key (or refuses a new one). A start queued after it reads the new settings.
   */
  #changeLiveKeys(change: (running: RunningService | undefined) => void): Promise<void> {
    return this.#serially(() => Promise.resolve(change(this.#running)));
  }

  #serially<T>(step: () => Promise<T>): Promise<T> {
    const run = this.#transition.then(step);
    this.#transition = run.catch(() => undefined);
    return run;
  }

  #setState(state: ServiceState): void {
    this.#state = state;
    this.options.onChange?.();
  }

  async #start(): Promise<ServiceState> {
    if (this.#running) return this.#state;
    const { store, cipher, logger } = this.options;
    // The first start makes the dashboard's token and keeps it in the settings, so that the page's address (and
    // `npm run serve`'s) stays the same across restarts until the user rotates it.
    if (store.current.dashboardToken === undefined) {
      // Without it stored, the service makes one for this run only (the page still gets it, through #liveDashboardToken).
      await store.update(withDashboardToken).catch((error: unknown) => logger.warn("could not store the dashboard's token", { error: String(error) }));
    }
    const settings = store.current;
    this.#shape = serviceShapeOf(settings);
    const { keys, unreadable } = usableApiKeys(settings, cipher);
    if (unreadable > 0) logger.warn(`${unreadable} API key(s) are sealed by a key store this app cannot open; they are not accepted until created again`);
    this.#setState({ state: "starting", port: settings.port });
    try {
      const running = await (this.options.startService ?? startService)(
        {
          host: settings.host,
          port: settings.port,
          allowedHosts: settings.allowedHosts,
          corsOrigins: [...settings.corsOrigins, ...(this.options.extraCorsOrigins ?? [])],
          rateLimit: settings.rateLimit,
          chains: chainPlansFrom(settings.chains),
          apiKeys: keys,
          dashboardToken: settings.dashboardToken,
          // Read when the page asks: keys are created and revoked while the service runs.
          dashboardApiKey: () => usableApiKeys(store.current, cipher).keys[0],
          alerts: alertSettingsOf(settings),
          // Costs in money: the currency and the user's own actions, as npm run serve reads them from the same file.
          currency: settings.currency,
          actions: settings.actions,
          onAlert: (event) => this.#alerted(event),
          ...(this.options.historyFile === undefined ? {} : { historyFile: this.options.historyFile }),
        },
        logger,
      );
      this.#liveDashboardToken = running.dashboardToken;
      this.#liveKeys.clear();
      for (const { key } of keys) this.#liveKeys.set(apiKeyIdOf(key), key);
      this.#running = running;
      this.#unsubscribeChains = running.service.subscribe(() => this.options.onChange?.());
      this.#setState({ state: "running", url: running.url, port: running.port });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EADDRINUSE") this.#setState({ state: "port-in-use", port: settings.port, message: portInUseMessage(settings.port) });
      else this.#setState({ state: "failed", message: `The local API could not start: ${(error as Error).message}` });
      logger.error("the service did not start", { code, error: (error as Error).message });
    }
    return this.#state;
  }

  /**
   * Hands the running rules the alert settings as they are now, in turn behind any start in progress (which may have
   * read the settings before the change). A refused rule does not stop the others: the service logs it, GET /alerts
   * lists it, and the settings page shows it.
   */
  #configureAlerts(): void {
    void this.#serially(() => Promise.resolve(this.#running?.configureAlerts(alertSettingsOf(this.options.store.current))));
  }

  #alerted(event: AlertEvent): void {
    const rule = this.#running?.alerts.status().rules.find((status) => status.id === event.ruleId);
    this.options.onAlert?.(alertNotificationOf(event, rule));
  }

  async #stop(): Promise<void> {
    const running = this.#running;
    if (!running) return;
    this.#running = undefined;
    this.#unsubscribeChains?.();
    this.#unsubscribeChains = undefined;
    await running.stop();
    this.#setState({ state: "stopped" });
  }
}
