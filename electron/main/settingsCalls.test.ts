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
