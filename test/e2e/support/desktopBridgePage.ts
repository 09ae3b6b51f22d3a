// What the Electron preload does for the page, done by Playwright instead: `window.gasfeesDesktop`, installed before the
// page's scripts run, with the base URL and token and a function per bridge call built from the bridge's channel list
// (electron/bridge/bridgeChannels.ts, as the preload builds it in electron/preload/buildBridgeApi.ts). Each call is
// carried to the main process's handlers (desktopSettingsService.ts) by page.exposeBinding instead of Electron's IPC;
// each event the main process sends the window reaches the page's listeners through page.evaluate.
import type { Page } from "@playwright/test";
import { BRIDGE_CHANNELS } from "../../../electron/bridge/bridgeChannels.ts";
import type { ChannelEntry } from "../../../electron/bridge/defineCalls.ts";
import type { DesktopStack } from "./desktopHarness.ts";

/** The page's one way to the main process (its IPC): a binding that returns the handler's answer, or rejects. */
const INVOKE_BINDING = "__gasfeesTestBridgeInvoke";
/** How an event reaches the page's listeners (ipcRenderer.on's part). */
const EMIT_FUNCTION = "__gasfeesTestBridgeEmit";

interface InstallArgs {
  readonly channels: readonly ChannelEntry[];
  readonly connection: { readonly baseUrl: string; readonly token: string; readonly platform: "linux" };
  readonly invokeName: string;
  readonly emitName: string;
}

export interface InstalledBridge {
  /** The channel of every call the page made, in order. */
  readonly calls: readonly string[];
  /** Stops carrying the main process's events to the page. */
  stop(): void;
}

/**
 * Installs the bridge in `page`; call before its first navigation. `baseUrl`: the local API's address now, when a
 * settings change restarted the service on another port (the stack's settings say port 0), as the window is reloaded on it.
 */
export async function installDesktopBridge(page: Page, stack: DesktopStack, baseUrl = stack.url): Promise<InstalledBridge> {
  const calls: string[] = [];
  await page.exposeBinding(INVOKE_BINDING, (_source, channel: string, args: unknown[]) => {
    calls.push(channel);
    return stack.invoke(channel, args);
  });
  const args: InstallArgs = {
    channels: BRIDGE_CHANNELS,
    connection: { baseUrl, token: stack.token, platform: "linux" },
    invokeName: INVOKE_BINDING,
    emitName: EMIT_FUNCTION,
  };
  await page.addInitScript(({ channels, connection, invokeName, emitName }: InstallArgs) => {
    const page = window as unknown as Record<string, unknown>;
    const listeners = new Map<string, Set<(payload: unknown) => void>>();
    const api: Record<string, unknown> = {};
    for (const { path, channel, kind } of channels) {
      const member =
        kind === "invoke"
          ? (...callArgs: unknown[]) => (page[invokeName] as (channel: string, args: unknown[]) => Promise<unknown>)(channel, callArgs)
          : (listener: (payload: unknown) => void) => {
              const set = listeners.get(channel) ?? new Set();
              listeners.set(channel, set);
              set.add(listener);
              return () => set.delete(listener);
            };
      let group = api;
      for (const name of path.slice(0, -1)) group = (group[name] ??= {}) as Record<string, unknown>;
      group[path[path.length - 1]!] = member;
    }
    Object.defineProperty(window, emitName, {
      value: (channel: string, payload: unknown) => {
        for (const listener of listeners.get(channel) ?? []) listener(payload);
      },
    });
    Object.defineProperty(window, "gasfeesDesktop", { value: Object.freeze({ ...connection, ...api }) });
  }, args);
  const stop = stack.onEvent((channel, payload) => {
    // A page that is navigating or closed misses the event, as a window that is reloading does.
    page
      .evaluate(
        ([emitName, eventChannel, eventPayload]) =>
          (window as unknown as Record<string, (c: unknown, p: unknown) => void>)[emitName]?.(eventChannel, eventPayload),
        [EMIT_FUNCTION, channel, payload] as const,
      )
      .catch(() => undefined);
  });
  return { calls, stop };
}
