import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import { request } from "node:http";
import { mkdtemp, readFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { SettingsStore } from "../../shared/config/settingsStore.ts";
import { plaintextCipher } from "../../shared/keys/secretCipher.ts";
import { silentLogger } from "../../shared/log/logger.ts";
import { startService } from "../../shared/app/startService.ts";
import type { AlertRuleStatus } from "../../shared/wire/alerts.ts";
import { startTestChain } from "../../test/support/feedHarness.ts";
import { waitFor } from "../../test/support/waitFor.ts";
import type { AlertNotification } from "./alertNotification.ts";
import { findFreePort, ServiceHost } from "./serviceHost.ts";

async function storeWith(settings: Record<string, unknown>): Promise<SettingsStore> {
  const store = await SettingsStore.open(join(await mkdtemp(join(tmpdir(), "gasfees-host-")), "settings.json"));
  await store.update((current) => ({ ...current, chains: [], ...settings }));
  return store;
}

/**
 * A GET on a connection of its own (no keep-alive pool): a pooled connection to a service that has since restarted
 * may be closed under the request, which would fail it for a reason that is not the one under test.
 */
const get = (url: string, key?: string, secret = "") =>
  new Promise<{ status: number }>((resolve, reject) => {
    const headers = key === undefined ? {} : { authorization: `Basic ${Buffer.from(`${key}:${secret}`).toString("base64")}` };
    request(url, { agent: false, headers }, (response) => {
      response.resume();
      response.on("end", () => resolve({ status: response.statusCode ?? 0 }));
    })
      .on("error", reject)
      .end();
  });

function urlOf(host: ServiceHost): string {
  assert.equal(host.state.state, "running");
  return host.baseUrl;
}

test("starts the shared service on the port from settings; the dashboard's token and keys made in settings work at once", async (t) => {
  const port = await findFreePort();
  const host = new ServiceHost({ store: await storeWith({ port }), cipher: plaintextCipher, logger: silentLogger, extraCorsOrigins: ["gasfees://app"] });
  t.after(() => host.stop());
  await host.start();
  assert.deepEqual(host.state, { state: "running", url: `http://127.0.0.1:${port}`, port });
  const base = urlOf(host);
  assert.equal((await get(`${base}/networks`)).status, 401);
  assert.equal((await get(`${base}/networks`, host.dashboardToken)).status, 200);

  const created = await host.createApiKey({ label: "e2e", requireSecret: true });
  assert.equal((await get(`${base}/networks`, created.key, created.secret)).status, 200);
  assert.equal((await get(`${base}/v3/${created.key}/networks/1/busyThreshold`)).status, 401, "a key with a secret is refused in the path form");
  assert.deepEqual(host.revealApiKey(created.id), { key: created.key, secret: created.secret });

  await host.revokeApiKey(created.id);
  assert.equal((await get(`${base}/networks`, created.key, created.secret)).status, 401);

  // The app's window may read answers cross-origin; other origins may not.
  const fromApp = await fetch(`${base}/healthz`, { headers: { origin: "gasfees://app" } });
  assert.equal(fromApp.headers.get("access-control-allow-origin"), "gasfees://app");
  const fromElsewhere = await fetch(`${base}/healthz`, { headers: { origin: "https://evil.example" } });
  assert.equal(fromElsewhere.headers.get("access-control-allow-origin"), null);
});

test("a taken port gives a clear state, and choosing another port in settings starts it there", async (t) => {
  const blocker: Server = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
  t.after(() => new Promise<void>((resolve) => blocker.close(() => resolve())));
  const takenPort = (blocker.address() as { port: number }).port;
  const store = await storeWith({ port: takenPort });
  const changes: string[] = [];
  const host = new ServiceHost({ store, cipher: plaintextCipher, logger: silentLogger, onChange: () => changes.push(host.state.state) });
  t.after(() => host.stop());

  const state = await host.start();
  assert.equal(state.state, "port-in-use");
  assert.match(state.state === "port-in-use" ? state.message : "", new RegExp(`Port ${takenPort} is already in use .*Choose another port in Settings`));
  assert.deepEqual(changes, ["starting", "port-in-use"]);

  const freePort = await findFreePort();
  await store.update((current) => ({ ...current, port: freePort }));
  await host.restart(); // the store's listener already queued one; this waits for the queue to settle
  assert.deepEqual(host.state, { state: "running", url: `http://127.0.0.1:${freePort}`, port: freePort });
  assert.equal((await get(`${urlOf(host)}/healthz`)).status, 200);
});

test("pause frees the port and stops serving; start resumes on the same port; stop is clean and repeatable", async (t) => {
  const port = await findFreePort();
  const host = new ServiceHost({ store: await storeWith({ port }), cipher: plaintextCipher, logger: silentLogger });
  t.after(() => host.stop());
  await host.start();
  await host.pause();
  assert.deepEqual(host.state, { state: "paused" });
  await assert.rejects(fetch(`http://127.0.0.1:${port}/healthz`));
  await host.start();
  assert.equal((await get(`http://127.0.0.1:${port}/healthz`)).status, 200);
  await host.stop();
  await host.stop();
  assert.deepEqual(host.state, { state: "stopped" });
  await assert.rejects(fetch(`http://127.0.0.1:${port}/healthz`));
});

/** A start of the service that waits, once asked to, until released: a key change can then land in the middle of it. */
function holdableStart() {
  let hold: Promise<void> | undefined;
  return {
    startService: (async (config, logger) => {
      await hold;
      return startService(config, logger);
    }) satisfies typeof startService,
    /** The next start waits in startService (after the settings were read) until `release` is called. */
    holdNext(): () => void {
      let release!: () => void;
      hold = new Promise((resolve) => (release = resolve));
      return () => {
        hold = undefined;
        release();
      };
    },
  };
}

/** Resolves when `host` enters `state` (hosts made with `stateEvents.onChange`). */
function stateEvents() {
  const events = new EventEmitter();
  let host: ServiceHost | undefined;
  return {
    onChange: () => events.emit("change", host?.state.state),
    watch: (watched: ServiceHost) => (host = watched),
    next: (state: string) => new Promise<void>((resolve) => events.on("change", (now: string) => now === state && resolve())),
  };
}

/** Resolves once the stored settings satisfy `condition`. */
const storedWhen = (store: SettingsStore, condition: (settings: SettingsStore["current"]) => boolean) =>
  new Promise<void>((resolve) => store.subscribe((settings) => condition(settings) && resolve()));

test("a key revoked while the service is restarting is refused once the restart is over", async (t) => {
  const store = await storeWith({ port: await findFreePort() });
  const start = holdableStart();
  const states = stateEvents();
  const host = new ServiceHost({ store, cipher: plaintextCipher, logger: silentLogger, onChange: states.onChange, startService: start.startService });
  states.watch(host);
  t.after(() => host.stop());
  await host.start();
  const created = await host.createApiKey({ label: "revoked during a restart" });
  assert.equal((await get(`${urlOf(host)}/networks`, created.key)).status, 200);

  // The restart reads the settings (the key still in them) and waits in startService...
  const release = start.holdNext();
  const starting = states.next("starting");
  const restarted = host.restart();
  await starting;
  // ...while the key is revoked and the settings lose it; only then does the service come up.
  const stored = storedWhen(store, (settings) => settings.apiKeys.length === 0);
  const revoked = host.revokeApiKey(created.id);
  await stored;
  release();
  await Promise.all([restarted, revoked]);

  assert.equal(host.state.state, "running");
  assert.equal((await get(`${urlOf(host)}/networks`, created.key)).status, 401, "the revoked key must not be valid after the restart");
});

test("a key created while the service is restarting is accepted once the restart is over", async (t) => {
  const store = await storeWith({ port: await findFreePort() });
  const start = holdableStart();
  const states = stateEvents();
  const host = new ServiceHost({ store, cipher: plaintextCipher, logger: silentLogger, onChange: states.onChange, startService: start.startService });
  states.watch(host);
  t.after(() => host.stop());
  await host.start();

  const release = start.holdNext();
  const starting = states.next("starting");
  const restarted = host.restart();
  await starting;
  const stored = storedWhen(store, (settings) => settings.apiKeys.length === 1);
  const creating = host.createApiKey({ label: "created during a restart" });
  await stored;
  release();
  const [, created] = await Promise.all([restarted, creating]);

  assert.equal((await get(`${urlOf(host)}/networks`, created.key)).status, 200, "the new key must work after the restart");
});

test("the dashboard's token is made on the first start and kept in the settings, across restarts and launches", async (t) => {
  const port = await findFreePort();
  const store = await storeWith({ port });
  assert.equal(store.current.dashboardToken, undefined);
  const host = new ServiceHost({ store, cipher: plaintextCipher, logger: silentLogger });
  t.after(() => host.stop());
  await host.start();
  const token = store.current.dashboardToken;
  assert.match(token ?? "", /^[0-9a-f]{32}$/);
  assert.equal(host.dashboardToken, token);
  assert.equal((JSON.parse(await readFile(store.path, "utf8")) as { dashboardToken?: string }).dashboardToken, token, "stored on disk");
  await host.restart();
  assert.equal(host.dashboardToken, token);
  assert.equal((await get(`${urlOf(host)}/networks`, token)).status, 200);
  await host.stop();

  // The next launch of the app (or `npm run serve` on the same settings) opens the page with the same token.
  const next = new ServiceHost({ store: await SettingsStore.open(store.path), cipher: plaintextCipher, logger: silentLogger });
  t.after(() => next.stop());
  await next.start();
  assert.equal(next.dashboardToken, token);
  assert.equal((await get(`${urlOf(next)}/networks`, token)).status, 200);
});

test("rotating the dashboard's token refuses the old one at once and lets the new one in, and stores it", async (t) => {
  const store = await storeWith({ port: await findFreePort() });
  const host = new ServiceHost({ store, cipher: plaintextCipher, logger: silentLogger });
  t.after(() => host.stop());
  await host.start();
  const old = host.dashboardToken!;
  const base = urlOf(host);
  assert.equal((await get(`${base}/networks`, old)).status, 200);
  assert.equal((await get(`${base}/v3/${old}/networks`)).status, 200);

  await host.rotateDashboardToken();
  const rotated = host.dashboardToken!;
  assert.notEqual(rotated, old);
  assert.match(rotated, /^[0-9a-f]{32}$/);
  assert.equal((await get(`${base}/networks`, old)).status, 401, "the old token is refused by the running service");
  assert.equal((await get(`${base}/v3/${old}/networks`)).status, 401, "in the path form too");
  assert.equal((await get(`${base}/networks`, rotated)).status, 200);
  assert.equal(store.current.dashboardToken, rotated);
  assert.equal((JSON.parse(await readFile(store.path, "utf8")) as { dashboardToken?: string }).dashboardToken, rotated);

  await host.restart();
  assert.equal((await get(`${base}/networks`, old)).status, 401, "and stays refused after a restart");
  assert.equal((await get(`${base}/networks`, rotated)).status, 200);
});

test("a token rotated while the service is restarting: the old one is refused once it is up", async (t) => {
  const store = await storeWith({ port: await findFreePort() });
  const start = holdableStart();
  const states = stateEvents();
  const host = new ServiceHost({ store, cipher: plaintextCipher, logger: silentLogger, onChange: states.onChange, startService: start.startService });
  states.watch(host);
  t.after(() => host.stop());
  await host.start();
  const old = host.dashboardToken!;

  const release = start.holdNext();
  const starting = states.next("starting");
  const restarted = host.restart();
  await starting;
  const stored = storedWhen(store, (settings) => settings.dashboardToken !== old);
  const rotating = host.rotateDashboardToken();
  await stored;
  release();
  await Promise.all([restarted, rotating]);

  assert.equal((await get(`${urlOf(host)}/networks`, old)).status, 401);
  assert.equal((await get(`${urlOf(host)}/networks`, host.dashboardToken)).status, 200);
});

test("the dashboard's API panel shows a key the app holds now: one created after the start, none once it is revoked", async (t) => {
  const host = new ServiceHost({ store: await storeWith({ port: await findFreePort() }), cipher: plaintextCipher, logger: silentLogger });
  t.after(() => host.stop());
  await host.start();
  const credentials = async () => {
    const response = await fetch(`${urlOf(host)}/dashboard/credentials`, {
      headers: { authorization: `Basic ${Buffer.from(`${host.dashboardToken}:`).toString("base64")}` },
    });
    assert.equal(response.status, 200);
    return (await response.json()) as { apiKey: string | null };
  };
  assert.deepEqual(await credentials(), { apiKey: null });
  const created = await host.createApiKey({ label: "made after the start" });
  assert.deepEqual(await credentials(), { apiKey: created.key });
  await host.revokeApiKey(created.id);
  assert.deepEqual(await credentials(), { apiKey: null }, "a revoked key is never shown");
});

const GWEI = 1_000_000_000n;

/** Until `condition` holds (generous: the machine may be loaded), else fails naming `what`. */
const until = (what: string, condition: () => boolean, timeoutMs = 60_000) => waitFor(what, condition, { timeoutMs, everyMs: 50 });

/** A host following a real Hardhat chain, with its notifications collected. */
async function hostOnChain(t: { after: (done: () => unknown) => void }, settings: Record<string, unknown>) {
  const chain = await startTestChain(0);
  t.after(() => chain.node.stop());
  for (let i = 0; i < 3; i++) await chain.mineFee(20n * GWEI);
  const store = await storeWith({
    port: await findFreePort(),
    chains: [{ chainId: 31337, name: "Local", rpcUrls: [chain.node.url], blockTimeMs: 200 }],
    ...settings,
  });
  const shown: AlertNotification[] = [];
  const host = new ServiceHost({ store, cipher: plaintextCipher, logger: silentLogger, onAlert: (notification) => shown.push(notification) });
  t.after(() => host.stop());
  await host.start();
  const rule = (id: string): AlertRuleStatus | undefined => host.running?.alerts.status().rules.find((status) => status.id === id);
  /** Waits until the rule runs, follows the chain and waits for its condition. */
  const armed = (id: string) => until(`rule ${id} armed`, () => rule(id)?.paused === null && rule(id)?.state === "armed");
  return { chain, store, host, shown, rule, armed };
}

test("a user rule's alert reaches onAlert as a notification: its label as the title, the alert's sentence as the body", { timeout: 180_000 }, async (t) => {
  const cheap = { id: "cheap", chainId: 31337, when: "below", gwei: "8", cooldownMinutes: 0, label: "Cheap on Local" };
  const { chain, shown, armed } = await hostOnChain(t, { alerts: [cheap], notifications: { enabled: false } });
  await armed("cheap");
  assert.equal(shown.length, 0, "nothing fires while the fee stays above 8 gwei");

  await chain.mineFee(5n * GWEI);
  await until("the cheap rule's notification", () => shown.length > 0);
  assert.equal(shown.length, 1);
  const [notification] = shown;
  assert.equal(notification!.title, "Cheap on Local");
  assert.equal(notification!.body, notification!.event.text);
  assert.match(notification!.body, /^Local base fee \S+ gwei is below 8 gwei \(Cheap on Local, block 4\)/);
  assert.deepEqual(
    { ruleId: notification!.event.ruleId, chainId: notification!.event.chainId, block: notification!.event.block },
    {
      ruleId: "cheap",
      chainId: 31337,
      block: "4",
    },
  );
});

test("rules added, changed or turned off in the settings run at once, without a restart", { timeout: 180_000 }, async (t) => {
  const cheap = { id: "cheap", chainId: 31337, when: "below", gwei: "8", cooldownMinutes: 0 };
  const { chain, store, host, shown, rule, armed } = await hostOnChain(t, { alerts: [cheap], notifications: { enabled: false } });
  await armed("cheap");
  const running = host.running;

  // Added: a rule without a label is named by its chain and threshold.
  const dear = { id: "dear", chainId: 31337, when: "above", gwei: "100", cooldownMinutes: 0 };
  await store.update((settings) => ({ ...settings, alerts: [cheap, dear] }));
  await armed("dear");
  await chain.mineFee(150n * GWEI);
  await until("the dear rule's notification", () => shown.length > 0);
  assert.deepEqual(
    shown.map(({ title, event }) => [event.ruleId, title]),
    [["dear", "Local above 100 gwei"]],
  );

  // Turned off: a fee that crosses both cheap rules tells only of the one still on (both would fire at the same block).
  const cheapToo = { ...cheap, id: "cheap-too", gwei: "9" };
  await store.update((settings) => ({ ...settings, alerts: [{ ...cheap, enabled: false }, dear, cheapToo] }));
  await until("cheap turned off", () => rule("cheap")?.enabled === false);
  await armed("cheap-too");
  await chain.mineFee(5n * GWEI);
  await until("the cheap-too rule's notification", () => shown.length > 1);
  assert.deepEqual(
    shown.map(({ event }) => event.ruleId),
    ["dear", "cheap-too"],
  );
  assert.equal(host.running, running, "the service was not restarted");
});

test("the notifications switch reaches the built-in busy/calm rules of the running service", { timeout: 180_000 }, async (t) => {
  const { store, rule } = await hostOnChain(t, {});
  await until("the built-in rules run", () => rule("busy:31337")?.enabled === true && rule("calm:31337")?.enabled === true);
  await store.update((settings) => ({ ...settings, notifications: { ...settings.notifications, enabled: false } }));
  await until("the built-in rules turned off", () => rule("busy:31337")?.enabled === false && rule("calm:31337")?.enabled === false);
  await store.update((settings) => ({ ...settings, notifications: { ...settings.notifications, enabled: true, mutedChainIds: [31337] } }));
  await until("the muted chain's built-in rules stay off", () => rule("busy:31337")?.enabled === false);
  await store.update((settings) => ({ ...settings, notifications: { ...settings.notifications, mutedChainIds: [] } }));
  await until("the built-in rules on again", () => rule("busy:31337")?.enabled === true);
});
