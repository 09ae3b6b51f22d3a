import { existsSync } from "node:fs";
import { join } from "node:path";
import { settingsPath, userConfigDir } from "../config/configDir.ts";
import { historyPath } from "../app/openHistoryStore.ts";
import { DEFAULT_DASHBOARD_DIR } from "../http/dashboardFiles.ts";
import { SettingsError } from "../config/settings.ts";
import { readSettingsFile, readUserSettings } from "../config/settingsFile.ts";
import { type ChainPlan, chainPlansFrom } from "../service/chainPlan.ts";
import { createLogger, type LogLevel } from "../log/logger.ts";
import { type RunningService, startService } from "../app/startService.ts";
import { startDemoChain } from "./demoChain.ts";
import { checkPortFree, PortInUseError } from "./checkPortFree.ts";
import { NO_CHAIN_ANSWERS_HINT, watchForNoChainReachable } from "./noChainReachable.ts";
import { npmSwallowedOptions } from "./npmSwallowedOptions.ts";
import { parseServeOptions, serveUsage, UsageError } from "./serveOptions.ts";
import { watchParent } from "./watchParent.ts";
import { resolveDashboardToken, resolveServeKeys } from "./serveKeys.ts";

const STOP_DEADLINE_MS = 1000;

/** `npm run serve`: the service without a window. Stdout carries one line, the listening address; logs go to stderr. */
async function serve(argv: readonly string[]): Promise<void> {
  const logger = createLogger((process.env.GASFEES_LOG_LEVEL as LogLevel | undefined) ?? "info");
  // First of all, before anything it might make fail: options that npm kept for itself never reached serve. They are
  // what the user meant, so serve takes them back from npm's settings (and says how to type them next time), unless a
  // value npm passed on alone cannot be paired with its option: that is not guessed.
  const swallowed = npmSwallowedOptions(process.env, argv);
  if (swallowed) {
    const kept = `npm kept ${swallowed.options.join(" ")} for itself (npm run passes options to the script only after "--")`;
    if (swallowed.args === undefined) throw new UsageError(`${kept}, and passed their values on alone: type  ${swallowed.command}`);
    logger.info(`${kept}, so serve took ${swallowed.options.length === 1 ? "it" : "them"} from npm: next time, type  ${swallowed.command}`);
  }
  const options = parseServeOptions(swallowed?.args ?? argv);
  if (options.help) {
    process.stdout.write(`${serveUsage()}\n`);
    return;
  }
  const userSettingsPath = settingsPath(userConfigDir());
  const settingsFile = options.configFile ?? userSettingsPath;
  const settings = options.configFile ? await readSettingsFile(options.configFile) : await readUserSettings(userSettingsPath, logger);
  const host = options.host ?? settings.host;
  const port = options.port ?? settings.port;
  // Before anything starts (the demo's node, the feeds): a taken port is said at once, by its number.
  await checkPortFree(host, port);
  const apiKeys = await resolveServeKeys(options.apiKeys, settings, settingsFile, userSettingsPath, logger);
  const dashboardToken = await resolveDashboardToken(userSettingsPath, logger);

  const cleanups: Array<() => Promise<void>> = [];
  let chains: ChainPlan[] = options.chains.length > 0 ? chainPlansFrom(options.chains) : options.demo ? [] : chainPlansFrom(settings.chains);
  if (options.demo) {
    const demo = await startDemoChain(logger);
    cleanups.push(demo.stop);
    chains = [demo.plan, ...chains.filter((chain) => chain.chainId !== demo.plan.chainId)];
  }

  if (!["127.0.0.1", "localhost", "::1"].includes(host)) {
    logger.warn(`listening on ${host}, not only on this computer: other machines on the network can reach the API (they still need a key)`);
  }
  let running: RunningService;
  try {
    const alerts = { rules: settings.alerts, notifications: settings.notifications };
    running = await startService({ ...settings, host, port, chains, apiKeys, dashboardToken, historyFile: historyPath(userConfigDir()), alerts }, logger);
  } catch (error) {
    await Promise.all(cleanups.map((cleanup) => cleanup()));
    // Taken since the check (another program was quicker): said the same way.
    throw (error as NodeJS.ErrnoException).code === "EADDRINUSE" ? new PortInUseError(host, port) : error;
  }
  cleanups.unshift(() => running.stop());
  const stopWatching = watchForNoChainReachable(running.service, () => logger.warn(NO_CHAIN_ANSWERS_HINT));
  cleanups.unshift(() => Promise.resolve(stopWatching()));
  logger.info(`following ${chains.map((chain) => `${chain.name} (${chain.chainId})`).join(", ")}`);
  process.stdout.write(`gasfees listening on ${running.url}\n`);
  // Like Jupyter's: the page's address with its token, on stderr (stdout stays one line). The token is kept in the
  // settings file, so the address stays valid across restarts.
  process.stderr.write(`dashboard: ${running.dashboardUrl}\n`);
  if (!existsSync(join(DEFAULT_DASHBOARD_DIR, "index.html"))) {
    // `npm run serve` builds it first (scripts/serve.mjs); this is serve.ts run some other way.
    logger.warn("the dashboard is not built, so / answers 404: start serve with `npm run serve`, which builds it, or run `npm run build:renderer` once");
  }

  let stopping = false;
  const shutdown = (why: string) => {
    // A second signal (Ctrl-C pressed again, or the group's and npm's copy of one) changes nothing: the stop is under way.
    if (stopping) return;
    stopping = true;
    logger.info(`${why}: stopping`);
    setTimeout(() => process.exit(0), STOP_DEADLINE_MS).unref();
    // In order: the watchers and the service (feeds, server, readers) first, then the demo's node, so that no feed
    // sees its chain go away and warns of it.
    cleanups
      .reduce((done, cleanup) => done.then(cleanup, cleanup), Promise.resolve())
      .then(
        () => process.exit(0),
        () => process.exit(0),
      );
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
  // Whoever started the service is gone (a supervisor killed npm): nobody is left to stop it, so it stops itself.
  const stopWatchingParent = watchParent(() => shutdown("the process that started serve is gone"));
  cleanups.unshift(() => Promise.resolve(stopWatchingParent()));
}

serve(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) {
    process.stderr.write(`gasfees: ${error.message}\n\n${serveUsage()}\n`);
    process.exit(2);
  }
  if (error instanceof SettingsError) {
    process.stderr.write(`gasfees: ${error.message}\n`);
    process.exit(2);
  }
  if (error instanceof PortInUseError) {
    process.stderr.write(`gasfees: ${error.message}\n`);
    process.exit(1);
  }
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "EACCES" || code === "EADDRNOTAVAIL") {
    process.stderr.write(`gasfees: cannot listen there (${(error as Error).message}): check --host and --port\n`);
    process.exit(1);
  }
  process.stderr.write(`gasfees: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
