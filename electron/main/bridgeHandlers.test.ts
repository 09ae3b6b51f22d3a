import assert from "node:assert/strict";
import { test } from "node:test";
import { BRIDGE_CALLS, CONNECTION_CHANNEL } from "../bridge/bridgeCalls.ts";
import { declarationsOf } from "../bridge/defineCalls.ts";
import { BridgeArgumentsError, BridgeCallRefusedError, bridgeHandlers, type BridgeHandler } from "./bridgeHandlers.ts";
import { APP_ENTRY_URL } from "./security.ts";
import { type IpcSenderOf, untrustedSenderReason } from "./trustedSender.ts";

type Event = IpcSenderOf<object>;
const mainWindow = {};
const fromApp: Event = { sender: mainWindow, senderFrame: { url: APP_ENTRY_URL, parent: null } };
const fromSubframe: Event = { sender: mainWindow, senderFrame: { url: APP_ENTRY_URL, parent: {} } };

/** An implementation of every declared call that records what reached it (by the call's path, `settings.get`). */
function recordingImplementation() {
  const reached: Array<{ call: string; args: unknown[] }> = [];
  const tree: Record<string, unknown> = {};
  for (const { path, declaration } of declarationsOf(BRIDGE_CALLS)) {
    if (declaration.kind !== "invoke") continue;
    let group = tree;
    for (const name of path.slice(0, -1)) group = (group[name] ??= {}) as Record<string, unknown>;
    group[path[path.length - 1]!] = (...args: unknown[]) => {
      reached.push({ call: path.join("."), args });
      return `answer of ${path.join(".")}`;
    };
  }
  return { tree, reached };
}

function handlersFor(options: { refused?: Array<[string, string]> } = {}) {
  const implementation = recordingImplementation();
  const handlers = bridgeHandlers<Event>(BRIDGE_CALLS, implementation.tree, {
    untrustedSenderReason: (event) => untrustedSenderReason(event, mainWindow),
    onRefused: (channel, reason) => options.refused?.push([channel, reason]),
  });
  const byChannel = new Map(handlers.map((handler) => [handler.channel, handler]));
  const handler = (channel: string): BridgeHandler<Event> => byChannel.get(channel) ?? assert.fail(`no handler for ${channel}`);
  return { handlers, handler, reached: implementation.reached };
}

const { settings, openExternal } = BRIDGE_CALLS;

test("every call declared gets one handler, on a channel of its own", () => {
  const { handlers } = handlersFor();
  const declared = declarationsOf(BRIDGE_CALLS);
  const invokeChannels = declared.filter(({ declaration }) => declaration.kind === "invoke").map(({ declaration }) => declaration.channel);
  assert.deepEqual(
    handlers.map((handler) => handler.channel),
    invokeChannels,
  );
  const everyChannel = [...declared.map(({ declaration }) => declaration.channel), CONNECTION_CHANNEL];
  assert.equal(new Set(everyChannel).size, everyChannel.length, `channels are unique: ${everyChannel.join(", ")}`);
  assert.ok(invokeChannels.length >= 8, "the list is not empty");
});

test("valid arguments reach the implementation, as the schema parsed them", async () => {
  const { handler, reached } = handlersFor();
  assert.equal(await handler(settings.get.channel).handle(fromApp, []), "answer of settings.get");
  await handler(settings.update.channel).handle(fromApp, [{ port: 9000, chains: null, theme: "dark" }]);
  await handler(settings.update.channel).handle(fromApp, [{ alerts: [{ id: "cheap", chainId: 1, when: "below", gwei: "8" }] }]);
  await handler(settings.update.channel).handle(fromApp, [{ alerts: null }]);
  await handler(settings.createApiKey.channel).handle(fromApp, [{ label: "bot", requireSecret: true }]);
  await handler(settings.revokeApiKey.channel).handle(fromApp, ["0123456789ab"]);
  await handler(settings.rotateDashboardToken.channel).handle(fromApp, []);
  await handler(openExternal.channel).handle(fromApp, ["https://docs.metamask.io/"]);
  assert.deepEqual(reached, [
    { call: "settings.get", args: [] },
    { call: "settings.update", args: [{ port: 9000, chains: null, theme: "dark" }] },
    { call: "settings.update", args: [{ alerts: [{ id: "cheap", chainId: 1, when: "below", gwei: "8" }] }] },
    { call: "settings.update", args: [{ alerts: null }] },
    { call: "settings.createApiKey", args: [{ label: "bot", requireSecret: true }] },
    { call: "settings.revokeApiKey", args: ["0123456789ab"] },
    { call: "settings.rotateDashboardToken", args: [] },
    { call: "openExternal", args: ["https://docs.metamask.io/"] },
  ]);
});

test("arguments that fail the call's schema are refused with an error naming the call and the problem; nothing runs", async () => {
  const refused: Array<[string, string]> = [];
  const { handler, reached } = handlersFor({ refused });
  const cases: Array<[channel: string, args: unknown[], problem: RegExp]> = [
    [settings.get.channel, [1], /<=0 items|Too big/],
    [settings.update.channel, [{ host: "0.0.0.0" }], /Unrecognized key: "host"/],
    [settings.update.channel, [{ dashboardToken: "0123456789abcdef0123456789abcdef" }], /Unrecognized key: "dashboardToken"/],
    [settings.update.channel, [{ port: 70_000 }], /port/],
    [settings.update.channel, [{ chains: [{ chainId: 1, rpcUrls: ["file:///etc/passwd"] }] }], /http\(s\) or ws\(s\) URL/],
    [settings.update.channel, ["port"], /expected object/],
    [settings.update.channel, [{ alerts: { id: "cheap" } }], /expected array[\s\S]*alerts/],
    [settings.update.channel, [{ alerts: Array.from({ length: 201 }, () => ({})) }], /at most 200 alert rules are read; remove some/],
    [settings.update.channel, [], /Too small|>=1 items/],
    [settings.createApiKey.channel, [{ label: "x".repeat(65) }], /label/],
    [settings.createApiKey.channel, [{ requireSecret: "yes" }], /requireSecret/],
    [settings.createApiKey.channel, [{ label: "bot", admin: true }], /Unrecognized key: "admin"/],
    [settings.revokeApiKey.channel, [5], /expected string/],
    [settings.revokeApiKey.channel, ["../../settings.json"], /12 lower-case hex/],
    [settings.copyApiKey.channel, ["0123456789ab", "extra"], /Too big|<=1 items/],
    [settings.rotateDashboardToken.channel, ["a token of my choosing"], /Too big|<=0 items/],
    [openExternal.channel, [`https://example.com/${"a".repeat(3000)}`], /<=2048 characters/],
    [openExternal.channel, [{ toString: () => "https://example.com" }], /expected string/],
  ];
  for (const [channel, args, problem] of cases) {
    await assert.rejects(handler(channel).handle(fromApp, args), (error: Error) => {
      assert.ok(error instanceof BridgeArgumentsError, `${channel} ${JSON.stringify(args)}: ${error.name}`);
      assert.match(error.message, new RegExp(`^${channel} refused: its arguments are not valid:`));
      assert.match(error.message, problem, `${channel} ${JSON.stringify(args)}`);
      return true;
    });
  }
  assert.deepEqual(reached, [], "no implementation ran");
  assert.equal(refused.length, cases.length, "each refusal was reported for the log");
});

test("a sender that is not the main window's top frame on the app's page is refused before its arguments are read", async () => {
  const refused: Array<[string, string]> = [];
  const { handlers, reached } = handlersFor({ refused });
  for (const handler of handlers) {
    await assert.rejects(handler.handle(fromSubframe, []), BridgeCallRefusedError);
    await assert.rejects(handler.handle({ sender: {}, senderFrame: { url: APP_ENTRY_URL, parent: null } }, []), /refused: the sender is not the main window/);
  }
  assert.deepEqual(reached, []);
  assert.match(refused[0]?.[1] ?? "", /subframe/);
});

test("a declared call without an implementation is found when the handlers are built, not when the page calls it", () => {
  assert.throws(
    () => bridgeHandlers<Event>(BRIDGE_CALLS, { settings: {} }, { untrustedSenderReason: () => undefined }),
    /the bridge call settings\.get has no implementation in the main process/,
  );
});
