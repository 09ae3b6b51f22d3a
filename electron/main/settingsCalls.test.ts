// The main process's answers to the settings page's calls, over a real settings file where they store: alert rules
// refused with problems the page can place, and the "copy the key" call, answered once the clipboard holds the key
// (Electron's clipboard.writeText answers with a promise since Electron 44, so a write that fails must be the call's
// failure, never a rejection nobody handles, which would end the main process).
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { settingsPath } from "../../shared/config/configDir.ts";
import { SettingsStore } from "../../shared/config/settingsStore.ts";
import { plaintextCipher } from "../../shared/keys/secretCipher.ts";
import { silentLogger } from "../../shared/log/logger.ts";
import type { ServiceHost } from "./serviceHost.ts";
import { settingsCalls } from "./settingsCalls.ts";
import { settingsViewOf } from "./settingsView.ts";
import type { Logger } from "../../shared/log/logger.ts";

const LOCAL_CHAIN = { chainId: 31337, name: "Local", rpcUrls: ["http://127.0.0.1:8545"], historyHorizon: "2d" };
const CHEAP = { id: "cheap", chainId: 31337, when: "below", gwei: "8" };

/** The settings calls over a real settings file; the service is never reached by the calls tested here. */
async function callsOn(t: { after: (fn: () => void) => void }) {
  const dir = mkdtempSync(join(tmpdir(), "gasfees-settings-calls-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const store = await SettingsStore.open(settingsPath(dir));
  await store.update((settings) => ({ ...settings, chains: [LOCAL_CHAIN], alerts: [CHEAP] }));
  const host = { state: { state: "paused" } } as unknown as ServiceHost;
  const calls = settingsCalls({
    store,
    host,
    logger: silentLogger,
    viewNow: () => settingsViewOf(store.current, plaintextCipher, host.state, undefined, store.path),
    writeClipboard: () => undefined,
    reloadWindow: () => undefined,
    openExternal: () => false,
  });
  return { calls, store };
}

test("refused alert rules come back to the page as problems naming each rule and field, besides the message", async (t) => {
  const { calls, store } = await callsOn(t);
  const spike = { id: "spike", chainId: 999, when: "above", percentile: 95, window: "3d" };
  const result = await calls.settings.update({ alerts: [CHEAP, spike] });
  assert.equal(result.ok, false);
  assert.ok(!result.ok);
  assert.deepEqual(
    result.alertProblems.map(({ rule, field }) => `${rule} ${field}`),
    ["spike chainId"],
  );
  assert.match(result.alertProblems[0]!.message, /^999 is not a followed chain/);
  assert.match(result.error, /^alert rule spike, chainId: 999 is not a followed chain.*Nothing was saved\.$/);
  assert.deepEqual(store.current.alerts, [CHEAP], "nothing was stored");
});

test("any other refusal has no alert problems, only its message", async (t) => {
  const { calls } = await callsOn(t);
  const result = await calls.settings.update({ host: "0.0.0.0" } as never);
  assert.ok(!result.ok);
  assert.deepEqual(result.alertProblems, []);
  assert.match(result.error, /the settings page cannot change host/);
});

/** Only what copyApiKey touches: the host that reveals the key, and a logger that keeps what it is told. */
function callsWith(writeClipboard: (text: string) => void | Promise<void>, credentials: { key: string; secret?: string } | undefined) {
  const logged: string[] = [];
  const logger: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: (message) => void logged.push(message) };
  const host = { revealApiKey: () => credentials } as unknown as ServiceHost;
  const calls = settingsCalls({
    store: {} as unknown as SettingsStore,
    host,
    logger,
    viewNow: () => {
      throw new Error("copyApiKey needs no view");
    },
    writeClipboard,
    reloadWindow: () => undefined,
    openExternal: () => false,
  });
  return { copy: async (id: string) => await calls.settings.copyApiKey(id), logged };
}

test("the key, or key:secret, is on the clipboard before the call answers", async () => {
  const written: string[] = [];
  let finishWrite: () => void = () => undefined;
  const { copy } = callsWith(
    (text) =>
      new Promise<void>((resolve) => {
        written.push(text);
        finishWrite = resolve;
      }),
    { key: "gf_key", secret: "s3cret" },
  );
  let answered = false;
  const answer = copy("0123456789ab").then((result) => ((answered = true), result));
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(written, ["gf_key:s3cret"]);
  assert.equal(answered, false, "not answered while the clipboard write is under way");
  finishWrite();
  assert.deepEqual(await answer, { ok: true, value: true });

  const plain = callsWith((text) => void written.push(text), { key: "gf_plain" });
  assert.deepEqual(await plain.copy("0123456789ab"), { ok: true, value: true });
  assert.equal(written.at(-1), "gf_plain");
});

test("a clipboard write that fails is the call's failure, logged, and no rejection is left unhandled", async (t) => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => void unhandled.push(reason);
  process.on("unhandledRejection", onUnhandled);
  t.after(() => process.off("unhandledRejection", onUnhandled));
  const { copy, logged } = callsWith(() => Promise.reject(new Error("the clipboard is owned by another program")), { key: "gf_key" });
  assert.deepEqual(await copy("0123456789ab"), { ok: false, error: "Something went wrong: the clipboard is owned by another program", alertProblems: [] });
  assert.deepEqual(logged, ["a settings call failed"]);
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(unhandled, []);
});

test("a key the key store cannot open is refused with what to do, and nothing is written", async () => {
  const written: string[] = [];
  const { copy } = callsWith((text) => void written.push(text), undefined);
  assert.deepEqual(await copy("0123456789ab"), {
    ok: false,
    error: "this key is encrypted by a key store this app cannot open: revoke it and create a new one",
    alertProblems: [],
  });
  assert.deepEqual(written, []);
});
