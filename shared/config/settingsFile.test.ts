import assert from "node:assert/strict";
import { chmod, mkdtemp, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { createLogger } from "../log/logger.ts";
import { parseSettings, SettingsError } from "./settings.ts";
import { loadUserSettings, readSettingsFile, readUserSettings, writeUserSettings } from "./settingsFile.ts";

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

test("a settings file nested 200,000 deep is set aside as corrupt, and the next write works", async () => {
  const dir = await temporaryDir();
  const path = join(dir, "settings.json");
  const deep = `{"version":3,"alerts":[${"[".repeat(200_000)}${"]".repeat(200_000)}]}`;
  await writeFile(path, deep);
  const loaded = await loadUserSettings(path, () => new Date("2026-01-02T03:04:05Z"));
  assert.equal(loaded.notice?.kind, "corrupt");
  assert.match(loaded.notice.message, /nested more than 64 levels deep/);
  assert.equal(await readFile(join(dir, "settings.json.corrupt-2026-01-02T03-04-05-000Z"), "utf8"), deep, "kept as it was");
  // The service writes its settings soon after start (a generated key, the dashboard's token): that write works.
  await writeUserSettings(path, loaded.settings);
  assert.deepEqual((await loadUserSettings(path)).settings, loaded.settings);
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

// File modes: the settings hold API keys, so the file is 0600 and its folder 0700, whatever they were before.
const POSIX = { skip: process.platform === "win32" ? "file modes are POSIX only" : false };
const modeOf = async (path: string) => (await stat(path)).mode & 0o7777;

test("an existing settings file readable by others is made private on read, with a warning", POSIX, async () => {
  const dir = await temporaryDir();
  const path = join(dir, "settings.json");
  await writeFile(path, JSON.stringify({ apiKeys: [{ key: "0123456789abcdef0123456789abcdef" }] }));
  await chmod(path, 0o644);
  const lines: string[] = [];
  const settings = await readUserSettings(
    path,
    createLogger("info", (line) => lines.push(line)),
  );
  assert.equal(settings.apiKeys.length, 1);
  assert.equal(await modeOf(path), 0o600);
  assert.match(lines.join(""), /warn .*settings\.json was readable by other users \(mode 0644\).*now 0600/);
});

test("an existing config folder open to others is made private on load, with a warning", POSIX, async () => {
  const dir = await temporaryDir();
  const path = join(dir, "settings.json");
  await writeFile(path, "{}", { mode: 0o600 });
  await chmod(dir, 0o755);
  const loaded = await loadUserSettings(path);
  assert.equal(await modeOf(dir), 0o700);
  assert.equal(loaded.warnings.length, 1);
  assert.match(loaded.warnings[0]!, /folder .* was open to other users \(mode 0755\).*now 0700/);
});

test("a corrupt file's backup is readable by the user only, even when the file was not", POSIX, async () => {
  const dir = await temporaryDir();
  const path = join(dir, "settings.json");
  await writeFile(path, '{"apiKeys": [{"key": "0123456789abcdef0123456789abcdef"}], "port": "eighty"}');
  await chmod(path, 0o644);
  const loaded = await loadUserSettings(path);
  assert.equal(loaded.notice?.kind, "corrupt");
  assert.equal(await modeOf(loaded.notice.backupPath), 0o600);
});

test("a write makes an open folder private and leaves the file 0600 whatever the old file's mode", POSIX, async () => {
  const dir = await temporaryDir();
  const path = join(dir, "settings.json");
  await writeFile(path, "{}");
  await chmod(path, 0o666);
  await chmod(dir, 0o775);
  const warnings = await writeUserSettings(path, parseSettings({ port: 9001 }));
  assert.equal(await modeOf(path), 0o600);
  assert.equal(await modeOf(dir), 0o700);
  assert.match(warnings.join("\n"), /was open to other users \(mode 0775\)/);
  assert.deepEqual(await readdir(dir), ["settings.json"]);
});

test("a folder shared on purpose (sticky, like /tmp) is left as it is, and the warning says why", POSIX, async () => {
  const dir = await temporaryDir();
  await chmod(dir, 0o1777);
  const path = join(dir, "settings.json");
  const warnings = await writeUserSettings(path, parseSettings({}));
  assert.equal(await modeOf(dir), 0o1777);
  assert.equal(await modeOf(path), 0o600);
  assert.match(warnings.join("\n"), /shared with other users \(mode 1777\).*GASFEES_CONFIG_DIR/);
});

test("a private file in a private folder gives no warning", POSIX, async () => {
  const path = join(await temporaryDir(), "nested", "settings.json");
  assert.deepEqual(await writeUserSettings(path, parseSettings({})), []);
  assert.deepEqual((await loadUserSettings(path)).warnings, []);
  assert.equal(await modeOf(join(path, "..")), 0o700);
});
