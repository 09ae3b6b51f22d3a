import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { createLogger } from "../log/logger.ts";
import { parseSettings, SettingsError } from "./settings.ts";
import { readSettingsFile, readUserSettings, writeUserSettings } from "./settingsFile.ts";

const temporaryDir = () => mkdtemp(join(tmpdir(), "gasfees-settings-"));

test("a missing user settings file means defaults", async () => {
  const settings = await readUserSettings(join(await temporaryDir(), "settings.json"), createLogger("silent"));
  assert.equal(settings.port, 8950);
  assert.equal(settings.host, "127.0.0.1");
  assert.equal(settings.chains, undefined);
  assert.deepEqual(settings.apiKeys, []);
});

test("a corrupt user settings file is kept as a backup, defaults are used, and the user is told", async () => {
  const dir = await temporaryDir();
  const path = join(dir, "settings.json");
  await writeFile(path, "{ not json");
  const lines: string[] = [];
  const settings = await readUserSettings(
    path,
    createLogger("info", (line) => lines.push(line)),
    () => new Date("2026-01-02T03:04:05Z"),
  );
  assert.equal(settings.port, 8950);
  const files = await readdir(dir);
  assert.deepEqual(files, ["settings.json.corrupt-2026-01-02T03-04-05-000Z"]);
  assert.equal(await readFile(join(dir, files[0]!), "utf8"), "{ not json");
  assert.match(lines.join(""), /defaults are used; the old file is kept as .*corrupt-2026/);
});

test("settings round-trip through an atomic write readable by the user only", async () => {
  const path = join(await temporaryDir(), "nested", "settings.json");
  const settings = parseSettings({ port: 9000, apiKeys: [{ key: "0123456789abcdef0123456789abcdef" }] });
  await writeUserSettings(path, settings);
  assert.deepEqual(await readUserSettings(path, createLogger("silent")), settings);
  if (process.platform !== "win32") assert.equal((await stat(path)).mode & 0o777, 0o600);
});

test("a --config file with problems names each problem by its path", async () => {
  const path = join(await temporaryDir(), "bad.json");
  await writeFile(path, JSON.stringify({ port: 70000, chains: [{ chainId: -1, rpcUrls: ["ftp://x"] }], surprise: true }));
  await assert.rejects(readSettingsFile(path), (error: Error) => {
    assert.ok(error instanceof SettingsError);
    assert.match(error.message, /port: /);
    assert.match(error.message, /chains\.0\.chainId: a chain id is positive/);
    assert.match(error.message, /chains\.0\.rpcUrls\.0: must be an http\(s\) or ws\(s\) URL/);
    assert.match(error.message, /surprise|Unrecognized key/);
    return true;
  });
  await assert.rejects(readSettingsFile(join(path, "missing")), /cannot read settings file/);
  await writeFile(path, "[1,");
  await assert.rejects(readSettingsFile(path), /is not valid JSON/);
});

test("CORS is never open to every origin", () => {
  assert.throws(() => parseSettings({ corsOrigins: ["*"] }), SettingsError);
});
