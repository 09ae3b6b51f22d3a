import assert from "node:assert/strict";
import { test } from "node:test";
import { parseSettings } from "../../shared/config/settings.ts";
import { plaintextCipher } from "../../shared/keys/secretCipher.ts";
import { applySettingsPatch, SettingsPatchError, settingsViewOf } from "./settingsView.ts";

test("the page may change its own settings, and null returns a setting to its default", () => {
  const settings = parseSettings({ chains: [{ chainId: 1, rpcUrls: ["https://eth.example"] }], trayChainId: 1 });
  const next = parseSettings(applySettingsPatch(settings, { port: 9000, theme: "dark", chains: null, trayChainId: null }));
  assert.equal(next.port, 9000);
  assert.equal(next.theme, "dark");
  assert.equal(next.chains, undefined);
  assert.equal(next.trayChainId, undefined);
});

test("the page cannot open the API to the network, change CORS, or write keys", () => {
  const settings = parseSettings({});
  for (const patch of [
    { host: "0.0.0.0" },
    { corsOrigins: ["https://evil.example"] },
    { apiKeys: [] },
    { allowedHosts: ["evil"] },
    { port: 1, rateLimit: {} },
  ]) {
    assert.throws(() => applySettingsPatch(settings, patch), SettingsPatchError, JSON.stringify(patch));
  }
  for (const patch of [null, [], "port"]) assert.throws(() => applySettingsPatch(settings, patch), SettingsPatchError);
});

test("the view lists keys without their values and says how they are stored", () => {
  const key = "0123456789abcdef0123456789abcdef";
  const view = settingsViewOf(parseSettings({ apiKeys: [{ key, label: "bot" }] }), plaintextCipher, { state: "paused" }, undefined, "/x/settings.json");
  assert.equal(JSON.stringify(view).includes(key), false);
  assert.equal(view.apiKeys[0]?.hint, "0123…cdef");
  assert.equal(view.keyStorage.encrypted, false);
  assert.match(view.keyStorage.description, /plain text/);
  assert.ok(view.defaultChains.some((chain) => chain.chainId === 1 && chain.rpcUrls.length > 0));
});
