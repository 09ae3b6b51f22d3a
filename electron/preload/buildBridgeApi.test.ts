import assert from "node:assert/strict";
import { test } from "node:test";
import { BRIDGE_CALLS, type BridgeCalls } from "../bridge/bridgeCalls.ts";
import { BRIDGE_CHANNELS } from "../bridge/bridgeChannels.ts";
import { declarationsOf } from "../bridge/defineCalls.ts";
import { BridgeArgumentsError, bridgeHandlers } from "../main/bridgeHandlers.ts";
import { APP_ENTRY_URL } from "../main/security.ts";
import { type IpcSenderOf, untrustedSenderReason } from "../main/trustedSender.ts";
import { buildBridgeApi, type BridgeTransport } from "./buildBridgeApi.ts";

function recordingTransport() {
  const sent: Array<{ channel: string; args: unknown[] }> = [];
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const transport: BridgeTransport = {
    invoke: (channel, args) => {
      sent.push({ channel, args });
      return Promise.resolve(`answer on ${channel}`);
    },
    subscribe(channel, listener) {
      const set = listeners.get(channel) ?? new Set();
      listeners.set(channel, set.add(listener));
      return () => set.delete(listener);
    },
  };
  const push = (channel: string, payload: unknown) => listeners.get(channel)?.forEach((listener) => listener(payload));
  return { transport, sent, push };
}

test("the page gets a function per declared call, in the declared groups, and nothing else", () => {
  const api = buildBridgeApi<BridgeCalls>(BRIDGE_CHANNELS, recordingTransport().transport);
  assert.deepEqual(Object.keys(api), ["settings", "openExternal"]);
  assert.deepEqual(Object.keys(api.settings), [
    "get",
    "update",
    "createApiKey",
    "revokeApiKey",
    "copyApiKey",
    "useFreePort",
    "rotateDashboardToken",
    "onChange",
  ]);
  for (const { path } of declarationsOf(BRIDGE_CALLS)) {
    const member = path.reduce<unknown>((node, name) => (node as Record<string, unknown>)[name], api);
    assert.equal(typeof member, "function", path.join("."));
  }
});

test("a call sends its arguments on its channel; an event gives the listener its payload only, until stopped", async () => {
  const { transport, sent, push } = recordingTransport();
  const api = buildBridgeApi<BridgeCalls>(BRIDGE_CHANNELS, transport);
  assert.equal(await api.settings.revokeApiKey("0123456789ab"), `answer on ${BRIDGE_CALLS.settings.revokeApiKey.channel}`);
  await api.settings.update({ theme: "dark" });
  await api.openExternal("https://example.com/");
  assert.deepEqual(sent, [
    { channel: "gasfees:keys:revoke", args: ["0123456789ab"] },
    { channel: "gasfees:settings:update", args: [{ theme: "dark" }] },
    { channel: "gasfees:open-external", args: ["https://example.com/"] },
  ]);

  const heard: unknown[] = [];
  const stop = api.settings.onChange((view) => heard.push(view));
  push(BRIDGE_CALLS.settings.onChange.channel, { settingsPath: "/x" });
  stop();
  push(BRIDGE_CALLS.settings.onChange.channel, { settingsPath: "/y" });
  assert.deepEqual(heard, [{ settingsPath: "/x" }]);
});

test("both sides are built from the one list: every call of the page reaches a validating handler of the main process", async () => {
  type Event = IpcSenderOf<object>;
  const mainWindow = {};
  const fromApp: Event = { sender: mainWindow, senderFrame: { url: APP_ENTRY_URL, parent: null } };
  const reached: string[] = [];
  const implementation = {
    settings: Object.fromEntries(
      declarationsOf(BRIDGE_CALLS.settings).map(({ path }): [string, (...args: unknown[]) => number] => [
        path[0]!,
        (...args) => reached.push(`${path[0]!}(${JSON.stringify(args)})`),
      ]),
    ),
    openExternal: (url: string) => reached.push(`openExternal(${url})`),
  };
  const handlers = new Map(
    bridgeHandlers<Event>(BRIDGE_CALLS, implementation, { untrustedSenderReason: (event) => untrustedSenderReason(event, mainWindow) }).map((handler) => [
      handler.channel,
      handler,
    ]),
  );
  const api = buildBridgeApi<BridgeCalls>(BRIDGE_CHANNELS, {
    invoke: (channel, args) => handlers.get(channel)?.handle(fromApp, args) ?? Promise.reject(new Error(`no handler for ${channel}`)),
    subscribe: () => () => {},
  });

  for (const { declaration } of declarationsOf(BRIDGE_CALLS)) {
    if (declaration.kind === "invoke") assert.ok(handlers.has(declaration.channel), `the main process answers ${declaration.channel}`);
  }
  await api.settings.get();
  await api.settings.revokeApiKey("0123456789ab");
  await api.settings.rotateDashboardToken();
  await api.openExternal("https://example.com/");
  assert.deepEqual(reached, ["get([])", 'revokeApiKey(["0123456789ab"])', "rotateDashboardToken([])", "openExternal(https://example.com/)"]);

  // What a compromised page might send instead is refused by the main process, whatever the preload let through.
  await assert.rejects(api.settings.revokeApiKey({ toString: () => "0123456789ab" } as unknown as string), BridgeArgumentsError);
  await assert.rejects(api.settings.update({ host: "0.0.0.0" } as never), /Unrecognized key: "host"/);
  assert.equal(reached.length, 4);
});
