import assert from "node:assert/strict";
import { chmod, mkdtemp, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { migrateSettings, parseSettings, type Settings, SETTINGS_VERSION, SettingsError, UnknownSettingsVersionError } from "./settings.ts";
import { loadUserSettings } from "./settingsFile.ts";
import { SettingsStore } from "./settingsStore.ts";

const settingsFileIn = async () => join(await mkdtemp(join(tmpdir(), "gasfees-store-")), "settings.json");
const at = () => new Date("2026-03-04T05:06:07.089Z");
/** The file as written, for checks of what reached the disk. */
const fileOn = async (path: string) => JSON.parse(await readFile(path, "utf8")) as { version: number } & Partial<Settings>;

/** A version 1 file as the first release wrote it (the README's example). */
const VERSION_1_FILE = {
  version: 1,
  port: 9123,
  chains: [{ chainId: 1, name: "Ethereum", rpcUrls: ["https://eth.example/rpc"], statsWindowBlocks: 7200 }],
  apiKeys: [{ key: "0123456789abcdef0123456789abcdef", label: "my bot" }],
  rateLimit: { requestsPerSecond: 100, burst: 200 },
};

test("a version 1 file is migrated: what it held is kept, the desktop settings get their defaults", async () => {
  const path = await settingsFileIn();
  await writeFile(path, JSON.stringify(VERSION_1_FILE));
  const store = await SettingsStore.open(path, { now: at });
  assert.equal(store.notice, undefined);
  const settings = store.current;
  assert.equal(settings.version, SETTINGS_VERSION);
  assert.equal(settings.port, 9123);
  assert.equal(settings.chains?.[0]?.statsWindowBlocks, 7200);
  assert.deepEqual(settings.apiKeys, VERSION_1_FILE.apiKeys);
  assert.deepEqual(settings.notifications, {
    enabled: true,
    mutedChainIds: [],
    enterAfterBlocks: 3,
    enterMarginPercent: 10,
    calmAfterBlocks: 10,
    cooldownMinutes: 15,
  });
  assert.equal(settings.theme, "system");
  assert.equal(settings.startAtLogin, false);
  // The file itself is rewritten only by the next change, then as the current version.
  assert.equal((await fileOn(path)).version, 1);
  await store.update((current) => ({ ...current, theme: "dark" }));
  const written = await fileOn(path);
  assert.equal(written.version, SETTINGS_VERSION);
  assert.equal(written.theme, "dark");
  assert.equal(written.port, 9123);
});

/** A version 2 file as the desktop app wrote it, with the notifications changed from their defaults. */
const VERSION_2_FILE = {
  version: 2,
  port: 9124,
  chains: [{ chainId: 8453, name: "Base", rpcUrls: ["https://base.example/rpc"], statsWindow: "7200 blocks" }],
  apiKeys: [{ key: "0123456789abcdef0123456789abcdef" }],
  notifications: { enabled: true, mutedChainIds: [8453], enterAfterBlocks: 5, enterMarginPercent: 20, calmAfterBlocks: 30, cooldownMinutes: 60 },
  trayChainId: 8453,
  theme: "dark",
};

test("a version 2 file is migrated to 3: its notifications (the built-in busy/calm rules' settings) are kept, and it has no alert rules yet", async () => {
  const path = await settingsFileIn();
  await writeFile(path, JSON.stringify(VERSION_2_FILE));
  const store = await SettingsStore.open(path, { now: at });
  assert.equal(store.notice, undefined);
  const settings = store.current;
  assert.equal(settings.version, 3);
  assert.deepEqual(settings.notifications, VERSION_2_FILE.notifications);
  assert.deepEqual(settings.alerts, []);
  assert.deepEqual(settings.chains, VERSION_2_FILE.chains);
  assert.equal(settings.trayChainId, 8453);
  assert.equal(settings.theme, "dark");
  assert.deepEqual(migrateSettings(VERSION_2_FILE), { ...VERSION_2_FILE, version: 3, alerts: [] });
  // Written as version 3 at the next change, the notifications as they were.
  assert.equal((await fileOn(path)).version, 2);
  await store.update((current) => ({ ...current, port: 9125 }));
  const written = await fileOn(path);
  assert.equal(written.version, 3);
  assert.deepEqual(written.alerts, []);
  assert.deepEqual(written.notifications, VERSION_2_FILE.notifications);
});

test("alert rules are kept in the file as written, bad ones too (they are refused one by one when loaded, never the file)", async () => {
  const rules = [{ id: "cheap-eth", chainId: 1, when: "below", gwei: "8" }, { id: "bad", gwei: "-1", surprise: true }, "not a rule", null];
  const path = await settingsFileIn();
  await writeFile(path, JSON.stringify({ version: 3, alerts: rules }));
  const store = await SettingsStore.open(path, { now: at });
  assert.equal(store.notice, undefined);
  assert.deepEqual(store.current.alerts, rules);
  await store.update((current) => ({ ...current, theme: "light" }));
  assert.deepEqual((await fileOn(path)).alerts, rules);
  // A file without a version (one written by hand for --config) that lists rules keeps them through the migrations.
  assert.deepEqual(parseSettings({ alerts: rules }).alerts, rules);
  assert.throws(() => parseSettings({ version: 3, alerts: { id: "x" } }), /alerts: /);
});

test("a file without a version is read as version 1", () => {
  assert.equal(parseSettings({ port: 1234 }).version, SETTINGS_VERSION);
  assert.deepEqual(migrateSettings({ port: 1 }), { port: 1, version: 3, alerts: [] });
  assert.equal(migrateSettings("not an object"), "not an object");
});

test("a file from a newer gasfees is kept as a backup and replaced by defaults, with a notice saying so", async () => {
  const path = await settingsFileIn();
  const newer = JSON.stringify({ version: SETTINGS_VERSION + 1, port: 1, somethingNew: { a: 1 } });
  await writeFile(path, newer);
  assert.throws(() => parseSettings(JSON.parse(newer)), UnknownSettingsVersionError);
  const store = await SettingsStore.open(path, { now: at });
  assert.equal(store.current.port, 8950);
  assert.equal(store.notice?.kind, "unknown-version");
  assert.match(
    store.notice?.message ?? "",
    /newer version of gasfees, so defaults are used; the old file is kept as .*settings\.json\.corrupt-2026-03-04T05-06-07-089Z/,
  );
  assert.equal(await readFile(store.notice.backupPath, "utf8"), newer);
});

test("a corrupt file (bad JSON, a bad value, an unknown field, not an object) is kept as a backup with a notice", async () => {
  for (const text of ["{ not json", '{"port": "eighty"}', '{"version":2,"surprise":true}', "[]", ""]) {
    const path = await settingsFileIn();
    await writeFile(path, text);
    const loaded = await loadUserSettings(path, at);
    assert.equal(loaded.settings.port, 8950, text);
    assert.equal(loaded.notice?.kind, "corrupt", text);
    assert.match(loaded.notice?.message ?? "", /were not valid, so defaults are used; the old file is kept as/);
    assert.equal(await readFile(loaded.notice.backupPath, "utf8"), text);
    assert.deepEqual(await readdir(join(path, "..")), ["settings.json.corrupt-2026-03-04T05-06-07-089Z"]);
  }
});

test("updates are validated before anything is written: a bad change is refused and the file is untouched", async () => {
  const path = await settingsFileIn();
  const store = await SettingsStore.open(path);
  await store.update((current) => ({ ...current, port: 9001 }));
  const before = await readFile(path, "utf8");
  await assert.rejects(
    store.update((current) => ({ ...current, port: 70_000 })),
    SettingsError,
  );
  await assert.rejects(
    store.update((current) => ({ ...current, chains: [{ chainId: 5, rpcUrls: ["ftp://x"] }] })),
    /rpcUrls\.0: must be an http/,
  );
  assert.equal(await readFile(path, "utf8"), before);
  assert.equal(store.current.port, 9001);
  if (process.platform !== "win32") assert.equal((await stat(path)).mode & 0o777, 0o600);
});

test("quick updates run one after another and none is lost; listeners hear each", async () => {
  const path = await settingsFileIn();
  const store = await SettingsStore.open(path);
  const heard: number[] = [];
  store.subscribe((settings, previous) => heard.push(settings.notifications.mutedChainIds.length - previous.notifications.mutedChainIds.length));
  await Promise.all(
    [1, 10, 8453, 42161].map((chainId) =>
      store.update((current) => ({
        ...current,
        notifications: { ...current.notifications, mutedChainIds: [...current.notifications.mutedChainIds, chainId] },
      })),
    ),
  );
  assert.deepEqual(store.current.notifications.mutedChainIds, [1, 10, 8453, 42161]);
  assert.deepEqual((await fileOn(path)).notifications?.mutedChainIds, [1, 10, 8453, 42161]);
  assert.deepEqual(heard, [1, 1, 1, 1]);
  assert.deepEqual(await readdir(join(path, "..")), ["settings.json"], "no temporary file is left behind");
});

test(
  "the store makes an open settings file and folder private when it opens them, and on each write, saying so each time",
  { skip: process.platform === "win32" ? "file modes are POSIX only" : false },
  async () => {
    const path = await settingsFileIn();
    const folder = join(path, "..");
    await writeFile(path, JSON.stringify(VERSION_1_FILE));
    await chmod(path, 0o644);
    await chmod(folder, 0o755);
    const warnings: string[] = [];
    const store = await SettingsStore.open(path, { onWarning: (message) => warnings.push(message) });
    assert.equal((await stat(path)).mode & 0o777, 0o600);
    assert.equal((await stat(folder)).mode & 0o777, 0o700);
    assert.equal(warnings.length, 2);
    assert.match(warnings.join("\n"), /folder .* was open to other users \(mode 0755\)/);
    assert.match(warnings.join("\n"), /settings\.json was readable by other users \(mode 0644\)/);

    // Opened up again behind the app's back (a backup tool restoring modes, say): the next write closes it again.
    await chmod(folder, 0o750);
    await store.update((current) => ({ ...current, theme: "dark" }));
    assert.equal((await stat(folder)).mode & 0o777, 0o700);
    assert.match(warnings[2] ?? "", /was open to other users \(mode 0750\)/);
    assert.equal((await stat(path)).mode & 0o777, 0o600);
  },
);
