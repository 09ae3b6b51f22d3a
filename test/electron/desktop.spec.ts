// End-to-end tests of the desktop app: the real Electron binary on the real build, a real local EVM node. Where the
// Electron binary is missing (not fetched: ELECTRON_SKIP_BINARY_DOWNLOAD=1, or no network) every test is skipped and
// says why, or fails when GASFEES_REQUIRE_ELECTRON=1 demands them (CI's Electron job); there is no stand-in Electron.
// What the app shows outside its window (notifications, the tray) is read from its log on stderr (support/appLog.ts).
import { spawnSync } from "node:child_process";
import { realpathSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { _electron as electron, type ElectronApplication, expect, type Page, test } from "@playwright/test";
import { NOTIFICATION_SHOWN, TRAY_CHANGED } from "../../electron/main/shownToUser.ts";
import { describeElectronBinary, electronTestPlan, findElectronBinary } from "../../scripts/electronBinary.ts";
import { type AppLog, followAppLog } from "./support/appLog.ts";
import { type LocalChain, startLocalChain } from "./support/localChain.ts";

const plan = electronTestPlan(findElectronBinary());
test.skip(plan.kind === "skip", plan.kind === "skip" ? plan.reason : "");
test.describe.configure({ mode: "serial" });

const GWEI = 1_000_000_000n;
const CHAIN_ID = 31337;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * The binary the electron npm package names (what Playwright starts when given no executablePath), if any. Asked only
 * once the plan has found a binary: since Electron 45 the package's index.js downloads one itself when it has none.
 */
function electronPackageBinary(): string | undefined {
  try {
    return createRequire(import.meta.url)("electron") as string;
  } catch {
    return undefined;
  }
}

const basic = (key: string) => ({ authorization: `Basic ${Buffer.from(`${key}:`).toString("base64")}` });

let chain: LocalChain;
let app: ElectronApplication;
let log: AppLog;
let page: Page;
let port: number;
let configDir: string;

const storedDashboardToken = async () => (JSON.parse(await readFile(join(configDir, "settings.json"), "utf8")) as { dashboardToken?: string }).dashboardToken;
const trayNow = () => log.events(TRAY_CHANGED).at(-1);

test.beforeAll(async () => {
  if (plan.kind !== "run") throw new Error(plan.reason);
  test.setTimeout(240_000);
  for (const script of ["build:renderer", "build:electron"]) {
    const built = spawnSync(process.platform === "win32" ? "npm.cmd" : "npm", ["run", "--silent", script], {
      stdio: "inherit",
      shell: process.platform === "win32",
    });
    expect(built.status, `npm run ${script}`).toBe(0);
  }
  chain = await startLocalChain();
  // A calm history: 10 to 19 gwei, so the busy threshold (p90) is 18 or 19 gwei.
  await chain.mine(Array.from({ length: 120 }, (_, index) => BigInt(10 + (index % 10)) * GWEI));
  port = await freePort();
  configDir = await mkdtemp(join(tmpdir(), "gasfees-e2e-"));
  await writeFile(
    join(configDir, "settings.json"),
    JSON.stringify({
      version: 2,
      port,
      chains: [{ chainId: CHAIN_ID, name: "Local test chain", rpcUrls: [chain.url], blockTimeMs: 1000 }],
      notifications: { enterAfterBlocks: 2, enterMarginPercent: 1000, calmAfterBlocks: 2, cooldownMinutes: 0 },
    }),
  );
  // The tray's lines are logged at debug.
  const env = { ...process.env, GASFEES_CONFIG_DIR: configDir, GASFEES_LOG_LEVEL: "debug" } as Record<string, string>;
  delete env.ELECTRON_RUN_AS_NODE;
  // Without executablePath, Playwright starts the binary the electron npm package names (its index.js) with
  // Playwright's loader, which holds the app's `ready` until Playwright is attached, so the first window cannot open
  // before it is watched; with executablePath (meant for packaged apps) the loader is left out. So the path is given
  // only where the package would name another binary than the one found (ELECTRON_OVERRIDE_DIST_PATH on macOS or
  // Windows before any fetch wrote its path.txt). The binary that runs is checked below.
  const viaLoader = electronPackageBinary() === plan.binary.path;
  app = await electron.launch({ ...(viaLoader ? {} : { executablePath: plan.binary.path }), args: ["."], env });
  log = followAppLog(app.process().stderr!);
  const running = await app.evaluate(() => ({
    electron: process.versions.electron,
    chrome: process.versions.chrome,
    node: process.versions.node,
    execPath: process.execPath,
  }));
  console.log(
    `${describeElectronBinary(plan.binary)}; running Electron ${running.electron} (Chromium ${running.chrome}, Node ${running.node}), ` +
      `started ${viaLoader ? "through Playwright's loader" : "by its path"}`,
  );
  expect(realpathSync(running.execPath), "Playwright started the Electron binary the plan found").toBe(realpathSync(plan.binary.path));
  if (plan.binary.version !== undefined) expect(running.electron).toBe(plan.binary.version);
  page = await app.firstWindow();
});

test.afterAll(async () => {
  await app?.close();
  await chain?.stop();
  if (configDir) await rm(configDir, { recursive: true, force: true });
});

test("the app starts, serves the API on the port from settings, and its window shows the chart", async () => {
  await expect(page.locator(".recharts-surface").first()).toBeVisible({ timeout: 30_000 });
  const health = await fetch(`http://127.0.0.1:${port}/healthz`);
  expect(health.status).toBe(200);
  // The page is the app's own, sandboxed, and cannot reach Node.
  expect(page.url()).toMatch(/^gasfees:\/\/app\//);
  expect(await page.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe("undefined");
  expect(await page.evaluate(() => typeof (globalThis as { process?: unknown }).process)).toBe("undefined");
});

test("the page is given named functions only, and the main process refuses a call with invalid arguments", async () => {
  const shape = await page.evaluate(() => {
    const bridge = (globalThis as unknown as { gasfeesDesktop: Record<string, unknown> & { settings: Record<string, unknown> } }).gasfeesDesktop;
    return { top: Object.keys(bridge).sort(), settings: Object.keys(bridge.settings).sort() };
  });
  expect(shape.top).toEqual(["baseUrl", "openExternal", "platform", "settings", "token"]);
  expect(shape.settings).toEqual(["copyApiKey", "createApiKey", "get", "onChange", "revokeApiKey", "rotateDashboardToken", "update", "useFreePort"]);

  const refused = await page.evaluate(() =>
    (globalThis as unknown as { gasfeesDesktop: { settings: { revokeApiKey(id: unknown): Promise<unknown> } } }).gasfeesDesktop.settings
      .revokeApiKey({ not: "an id" })
      .then(
        () => "answered",
        (error: Error) => error.message,
      ),
  );
  expect(refused).toMatch(/gasfees:keys:revoke refused: its arguments are not valid/);
  await expect.poll(() => log.lines().some((line) => line.includes("refused a gasfees:keys:revoke call: invalid arguments"))).toBe(true);
});

test("the page opens with the dashboard token kept in the settings file", async () => {
  const token = await storedDashboardToken();
  expect(token).toMatch(/^[0-9a-f]{32}$/);
  expect(await page.evaluate(() => (globalThis as unknown as { gasfeesDesktop: { token: string } }).gasfeesDesktop.token)).toBe(token);
  expect((await fetch(`http://127.0.0.1:${port}/networks`, { headers: basic(token!) })).status).toBe(200);
});

test("a key created in the settings page opens the API", async () => {
  await page.getByTestId("open-settings").click();
  await expect(page.getByTestId("settings-page")).toBeVisible();
  await page.getByTestId("key-label").fill("e2e");
  await page.getByTestId("key-create").click();
  const key = (await page.getByTestId("created-key").textContent())?.trim() ?? "";
  expect(key).toMatch(/^[0-9a-f]{32}$/);
  await expect(page.getByTestId("key-row")).toHaveCount(1);

  const unauthorised = await fetch(`http://127.0.0.1:${port}/networks/${CHAIN_ID}/busyThreshold`);
  expect(unauthorised.status).toBe(401);
  const answer = await fetch(`http://127.0.0.1:${port}/networks/${CHAIN_ID}/busyThreshold`, { headers: basic(key) });
  expect(answer.status).toBe(200);
  expect(await answer.json()).toEqual({ busyThreshold: expect.stringMatching(/^1[89]$/) });
  await page.getByTestId("settings-close").click();
});

test("the tray shows the chain's base fee", async () => {
  // A new block changes the fee shown, so a line is logged after the test began reading, whenever the first came.
  await chain.mine([12n * GWEI]);
  await expect.poll(() => trayNow()?.tooltip, { timeout: 15_000 }).toMatch(/Local test chain base fee .* gwei/);
  expect(trayNow()?.congestion).toBe("normal");
});

test("a busy crossing raises one notification, not one per block", async () => {
  expect(log.events(NOTIFICATION_SHOWN)).toEqual([]);
  await chain.mine([200n * GWEI, 200n * GWEI, 200n * GWEI]);
  await expect.poll(() => log.events(NOTIFICATION_SHOWN).length, { timeout: 20_000 }).toBe(1);
  await chain.mine([210n * GWEI, 220n * GWEI]);
  await expect.poll(() => trayNow()?.tooltip, { timeout: 15_000 }).toMatch(/base fee 2[12]\d(\.\d+)? gwei/);
  expect(log.events(NOTIFICATION_SHOWN)).toEqual([
    expect.objectContaining({
      ruleId: `busy:${CHAIN_ID}`,
      chainId: CHAIN_ID,
      title: "Local test chain is busy",
      body: expect.stringMatching(/^Local test chain is busy: base fee .* gwei, above the busy threshold of 1[89] gwei/),
    }),
  ]);
  expect(trayNow()?.congestion).toBe("busy");
});

test("a rule added in the settings page fires one notification when the fee crosses it", async () => {
  await page.getByTestId("open-settings").click();
  const section = page.getByTestId("settings-alerts");
  await expect(section).toBeVisible();
  await section.getByTestId("alert-add").click();
  const form = section.getByTestId("alert-form");
  await expect(form.getByTestId("alert-chain")).toHaveValue(String(CHAIN_ID));
  await form.getByTestId("alert-when").selectOption("below");
  await form.getByTestId("alert-gwei").fill("50");
  await form.getByTestId("alert-cooldown").fill("0");
  await form.getByTestId("alert-label").fill("Cheap on the local chain");
  await form.getByTestId("alert-save").click();
  await expect(section.getByTestId("alert-rule")).toHaveCount(1);
  await page.getByTestId("settings-close").click();

  const stored = (JSON.parse(await readFile(join(configDir, "settings.json"), "utf8")) as { alerts?: Array<Record<string, unknown>> }).alerts ?? [];
  expect(stored).toEqual([expect.objectContaining({ chainId: CHAIN_ID, when: "below", gwei: "50", label: "Cheap on the local chain" })]);
  const ruleId = stored[0]!.id as string;
  // The running service took the rule without a restart, and learnt the chain's fee (about 190 gwei): armed.
  const token = (await storedDashboardToken())!;
  const ruleNow = async () =>
    (
      (await (await fetch(`http://127.0.0.1:${port}/alerts`, { headers: basic(token) })).json()) as {
        rules: Array<{ id: string; state: string; paused: string | null }>;
      }
    ).rules.find((rule) => rule.id === ruleId);
  await expect.poll(ruleNow, { timeout: 20_000 }).toEqual(expect.objectContaining({ state: "armed", paused: null }));

  const ofTheRule = () => log.events(NOTIFICATION_SHOWN).filter((event) => event.ruleId === ruleId);
  expect(ofTheRule()).toEqual([]);
  await chain.mine([30n * GWEI]);
  await expect.poll(() => ofTheRule().length, { timeout: 20_000 }).toBe(1);
  await chain.mine([28n * GWEI, 27n * GWEI]);
  await expect.poll(() => trayNow()?.tooltip, { timeout: 15_000 }).toMatch(/base fee 27 gwei/);
  expect(ofTheRule()).toEqual([
    expect.objectContaining({
      chainId: CHAIN_ID,
      when: "below",
      title: "Cheap on the local chain",
      body: expect.stringMatching(/^Local test chain base fee .* gwei is below 50 gwei \(Cheap on the local chain, block \d+\)/),
    }),
  ]);
});

test("rotating the dashboard token refuses the old one at once and reloads the window with the new one", async () => {
  const old = (await storedDashboardToken())!;
  await page.getByTestId("open-settings").click();
  page.once("dialog", (dialog) => void dialog.accept());
  const reloaded = page.waitForEvent("load");
  await page.getByTestId("dashboard-token-rotate").click();
  await reloaded;

  const rotated = (await storedDashboardToken())!;
  expect(rotated).toMatch(/^[0-9a-f]{32}$/);
  expect(rotated).not.toBe(old);
  expect((await fetch(`http://127.0.0.1:${port}/networks`, { headers: basic(old) })).status).toBe(401);
  expect((await fetch(`http://127.0.0.1:${port}/networks`, { headers: basic(rotated) })).status).toBe(200);
  expect(await page.evaluate(() => (globalThis as unknown as { gasfeesDesktop: { token: string } }).gasfeesDesktop.token)).toBe(rotated);
  await expect(page.locator(".recharts-surface").first()).toBeVisible({ timeout: 30_000 });
});

test("quitting stops the server", async () => {
  await app.close();
  await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
});
