import { existsSync } from "node:fs";
import { join } from "node:path";
import { settingsPath, userConfigDir } from "../config/configDir.ts";
import { DEFAULT_DASHBOARD_DIR } from "../http/dashboardFiles.ts";
import { SettingsError } from "../config/settings.ts";
import { readSettingsFile, readUserSettings } from "../config/settingsFile.ts";
import { type ChainPlan, chainPlansFrom } from "../service/chainPlan.ts";
import { createLogger, type LogLevel } from "../log/logger.ts";
import { type RunningService, startService } from "../app/startService.ts";
import { startDemoChain } from "./demoChain.ts";
import { parseServeOptions, SERVE_USAGE, UsageError } from "./serveOptions.ts";
import { resolveDashboardToken, resolveServeKeys } from "./serveKeys.ts";

const STOP_DEADLINE_MS = 1000;

/** `npm run serve`: the service without a window. Stdout carries one line, the listening address; logs go to stderr. */
async function serve(argv: readonly string[]): Promise<void> {
  const logger = createLogger((process.env.GASFEES_LOG_LEVEL as LogLevel | undefined) ?? "info");
  const options = parseServeOptions(argv);
  if (options.help) {
    process.stdout.write(`${SERVE_USAGE}\n`);
    return;
  }
  const userSettingsPath = settingsPath(userConfigDir());
  const settings = options.configFile ? await readSettingsFile(options.configFile) : await readUserSettings(userSettingsPath, logger);
  const apiKeys = await resolveServeKeys(options.apiKeys, settings, userSettingsPath, logger);
  const dashboardToken = await resolveDashboardToken(userSettingsPath, logger);

  const cleanups: Array<() => Promise<void>> = [];
  let chains: ChainPlan[] = options.chains.length > 0 ? chainPlansFrom(options.chains) : options.demo ? [] : chainPlansFrom(settings.chains);
  if (options.demo) {
    const demo = await startDemoChain(logger);
    cleanups.push(demo.stop);
    chains = [demo.plan, ...chains.filter((chain) => chain.chainId !== demo.plan.chainId)];
  }

  const host = options.host ?? settings.host;
  if (!["127.0.0.1", "localhost", "::1"].includes(host)) {
    logger.warn(`listening on ${host}, not only on this computer: other machines on the network can reach the API (they still need a key)`);
  }
  let running: RunningService;
  try {
    running = await startService({ ...settings, host, port: options.port ?? settings.port, chains, apiKeys, dashboardToken }, logger);
  } catch (error) {
    await Promise.all(cleanups.map((cleanup) => cleanup()));
    throw error;
  }
  cleanups.unshift(running.stop);
  logger.info(`following ${chains.map((chain) => `${chain.name} (${chain.chainId})`).join(", ")}`);
  process.stdout.write(`gasfees listening on ${running.url}\n`);
  // Like Jupyter's: the page's address with its token, on stderr (stdout stays one line). The token is kept in the
  // settings file, so the address stays valid across restarts.
  process.stderr.write(`dashboard: ${running.dashboardUrl}\n`);
  if (!existsSync(join(DEFAULT_DASHBOARD_DIR, "index.html"))) {
    logger.warn("the dashboard is not built, so / answers 404: run `npm run build:renderer` once");
  }

  const shutdown = (signal: string) => {
    logger.info(`${signal}: stopping`);
    setTimeout(() => process.exit(0), STOP_DEADLINE_MS).unref();
    Promise.all(cleanups.map((cleanup) => cleanup())).then(
      () => process.exit(0),
      () => process.exit(0),
    );
  };
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
}

serve(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) {
    process.stderr.write(`gasfees: ${error.message}\n\n${SERVE_USAGE}\n`);
    process.exit(2);
  }
  if (error instanceof SettingsError) {
    process.stderr.write(`gasfees: ${error.message}\n`);
    process.exit(2);
  }
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "EADDRINUSE") {
    process.stderr.write("gasfees: the port is already in use: pick another with --port N (or GASFEES_PORT; 0 picks a free port)\n");
    process.exit(1);
  }
  if (code === "EACCES" || code === "EADDRNOTAVAIL") {
    process.stderr.write(`gasfees: cannot listen there (${(error as Error).message}): check --host and --port\n`);
    process.exit(1);
  }
  process.stderr.write(`gasfees: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
