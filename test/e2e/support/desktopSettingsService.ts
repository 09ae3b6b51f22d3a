// The desktop app's main process without Electron, for the settings page's Chromium tests: in a child process run with
// tsx (Playwright's loader does not reach the Hardhat child that startEvmNode forks), a real Hardhat node replaying
// real mainnet base fees, a settings file in a temporary config folder, and the main process's own settings logic on
// it: SettingsStore, ServiceHost (the real service, started from that file) and the bridge's handlers built from its
// one declaration (electron/bridge/bridgeCalls.ts, with each call's argument schema) around the main process's own
// answers (electron/main/settingsCalls.ts, which electron/main/ipc.ts registers). The Playwright side carries the page's calls here (desktopHarness.ts); this process
// answers them and tells of each settings change as the main process tells the window.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BRIDGE_CALLS } from "../../../electron/bridge/bridgeCalls.ts";
import type { SettingsView } from "../../../electron/bridge/bridgeTypes.ts";
import { bridgeHandlers } from "../../../electron/main/bridgeHandlers.ts";
import { ServiceHost } from "../../../electron/main/serviceHost.ts";
import { settingsCalls } from "../../../electron/main/settingsCalls.ts";
import { SettingsPatchError, settingsViewOf } from "../../../electron/main/settingsView.ts";
import { settingsPath } from "../../../shared/config/configDir.ts";
import { SettingsStore } from "../../../shared/config/settingsStore.ts";
import { plaintextCipher } from "../../../shared/keys/secretCipher.ts";
import { createLogger, silentLogger } from "../../../shared/log/logger.ts";
import { startTestChain } from "../../support/feedHarness.ts";
import { DESKTOP_CHAIN_ID, DESKTOP_CHAIN_NAME } from "./desktopStackConstants.ts";

export type DesktopCommand =
  | { readonly id: number; readonly type: "bridge"; readonly channel: string; readonly args: readonly unknown[] }
  | { readonly id: number; readonly type: "mine"; readonly count: number }
  | { readonly id: number; readonly type: "mineFee"; readonly feeWei: string }
  | { readonly id: number; readonly type: "settingsFile" }
  | { readonly id: number; readonly type: "stop" };

export type DesktopMessage =
  | { readonly type: "ready"; readonly url: string; readonly token: string; readonly settingsPath: string }
  | { readonly type: "done"; readonly id: number; readonly value?: unknown; readonly error?: string }
  /** What the main process sends the window: the settings view after each change (`settings.onChange`). */
  | { readonly type: "event"; readonly channel: string; readonly payload: unknown };

/** As electron/main/index.ts: the window hears of changes at most this often. */
const VIEW_REFRESH_MS = 500;

async function main(): Promise<void> {
  const logger = process.env.GASFEES_TEST_LOG ? createLogger("debug") : silentLogger;
  const chain = await startTestChain(520);
  const configDir = mkdtempSync(join(tmpdir(), "gasfees-e2e-desktop-"));
  const file = settingsPath(configDir);
  // A settings file as a user of the desktop app would have it: one chain of their own, the port left to the system.
  writeFileSync(
    file,
    JSON.stringify({
      port: 0,
      chains: [{ chainId: DESKTOP_CHAIN_ID, name: DESKTOP_CHAIN_NAME, rpcUrls: [chain.node.url], blockTimeMs: 250, statsWindow: "500 blocks" }],
    }),
    { mode: 0o600 },
  );
  const store = await SettingsStore.open(file);
  const send = (message: DesktopMessage) => process.send!(message);

  let refreshTimer: NodeJS.Timeout | undefined;
  const tellWindow = () => {
    if (refreshTimer) return;
    refreshTimer = setTimeout(() => {
      refreshTimer = undefined;
      send({ type: "event", channel: BRIDGE_CALLS.settings.onChange.channel, payload: viewNow() });
    }, VIEW_REFRESH_MS);
  };
  const host = new ServiceHost({ store, cipher: plaintextCipher, logger, onChange: tellWindow });
  store.subscribe(tellWindow);
  const viewNow = (): SettingsView => settingsViewOf(store.current, plaintextCipher, host.state, store.notice?.message, store.path);

  // The main process's own answers (electron/main/settingsCalls.ts, as ipc.ts registers them), with no clipboard, window
  // or browser behind what needs Electron.
  const implementation = settingsCalls({
    store,
    host,
    logger,
    viewNow,
    writeClipboard: () => {
      throw new SettingsPatchError("this test's main process has no clipboard");
    },
    reloadWindow: () => undefined,
    openExternal: () => false,
  });
  // Every call comes from the page under test: the sender check (trustedSender.ts) has no Electron frame to look at.
  const handlers = new Map(
    bridgeHandlers(BRIDGE_CALLS, implementation, { untrustedSenderReason: () => undefined }).map((handler) => [handler.channel, handler]),
  );

  const state = await host.start();
  if (state.state !== "running") throw new Error(`the service did not start: ${JSON.stringify(state)}`);
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      clearTimeout(refreshTimer);
      await host.stop();
      await chain.node.stop();
      rmSync(configDir, { recursive: true, force: true });
    })());

  process.on("message", (command: DesktopCommand) => {
    const run = async (): Promise<unknown> => {
      switch (command.type) {
        case "bridge": {
          const handler = handlers.get(command.channel);
          if (handler === undefined) throw new Error(`no bridge call on ${command.channel}`);
          return handler.handle(undefined, command.args);
        }
        case "mine":
          return String(await chain.mine(command.count));
        case "mineFee":
          return String(await chain.mineFee(BigInt(command.feeWei)));
        case "settingsFile":
          return JSON.parse(readFileSync(file, "utf8")) as unknown;
        case "stop":
          await stop();
          return undefined;
      }
    };
    run().then(
      (value) => {
        send({ type: "done", id: command.id, value });
        if (command.type === "stop") process.disconnect();
      },
      (error: Error) => send({ type: "done", id: command.id, error: `${error.name}: ${error.message}` }),
    );
  });
  process.on("disconnect", () => void stop().finally(() => process.exit(0)));
  send({ type: "ready", url: state.url, token: host.dashboardToken!, settingsPath: file });
}

main().catch((error: Error) => {
  process.stderr.write(`the e2e desktop service failed to start: ${error.stack ?? error.message}\n`);
  process.exit(1);
});
