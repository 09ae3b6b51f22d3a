// The page's side of the bridge, built from its channel list (electron/bridge/bridgeChannels.ts, derived from the one
// declaration): a function per call that sends its arguments on the call's channel, and a subscription per event.
// Pure (no Electron): the preload gives it ipcRenderer's invoke and on/off, and plain Node tests give it the main
// process's handlers directly.
import type { BridgeApiOf, BridgeDeclarations, ChannelEntry } from "../bridge/defineCalls.ts";

export interface BridgeTransport {
  invoke(channel: string, args: unknown[]): Promise<unknown>;
  /** Calls `listener` with each payload sent on `channel`; returns the function that stops it. */
  subscribe(channel: string, listener: (payload: unknown) => void): () => void;
}

/** The page's functions for the declarations `T` whose channel list is `channels` (`channelListOf(declarations)`). */
export function buildBridgeApi<T extends BridgeDeclarations>(channels: readonly ChannelEntry[], transport: BridgeTransport): BridgeApiOf<T> {
  const api: Record<string, unknown> = {};
  for (const { path, channel, kind } of channels) {
    const member =
      kind === "invoke"
        ? (...args: unknown[]) => transport.invoke(channel, args)
        : (listener: (payload: unknown) => void) => transport.subscribe(channel, (payload) => listener(payload));
    let group = api;
    for (const name of path.slice(0, -1)) group = (group[name] ??= {}) as Record<string, unknown>;
    group[path[path.length - 1]!] = member;
  }
  return api as BridgeApiOf<T>;
}
