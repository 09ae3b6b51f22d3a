// End-to-end tests of the desktop app: the real Electron binary on the real build, a real local EVM node.
// Where the Electron binary is missing (installed with ELECTRON_SKIP_BINARY_DOWNLOAD=1), every test is skipped and
// says why; there is no stand-in Electron.
import { spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { _electron as electron, type ElectronApplication, expect, type Page, test } from "@playwright/test";
import { ELECTRON_MISSING_HELP, findElectronBinary } from "../../scripts/electronBinary.ts";
import { type LocalChain, startLocalChain } from "./support/localChain.ts";

const binary = findElectronBinary();
test.skip(!binary.found, `Electron binary missing: ${binary.found ? "" : binary.reason}. ${ELECTRON_MISSING_HELP}`);
test.describe.configure({ mode: "serial" });

const GWEI = 1_000_000_000n;
const CHAIN_ID = 31337;

interface DesktopState {
  notifications: Array<{ title: string; body: string; chainId: number; kind: "busy" | "calm" }>;
  tray: { title: string; tooltip: string; congestion: string } | undefined;
  service: string;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const desktopState = (app: ElectronApplication) => app.evaluate(() => (globalThis as unknown as { gasfeesDesktopState: DesktopState }).gasfeesDesktopState);

let chain: LocalChain;
let app: ElectronApplication;
let page: Page;
let port: number;
let configDir: string;

test.beforeAll(async () => {
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
  const env = { ...process.env, GASFEES_CONFIG_DIR: configDir } as Record<string, string>;
  delete env.ELECTRON_RUN_AS_NODE;
  app = await electron.launch({ executablePath: binary.found ? binary.path : "", args: ["."], env });
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
  const answer = await fetch(`http://127.0.0.1:${port}/networks/${CHAIN_ID}/busyThreshold`, {
    headers: { authorization: `Basic ${Buffer.from(`${key}:`).toString("base64")}` },
  });
  expect(answer.status).toBe(200);
  expect(await answer.json()).toEqual({ busyThreshold: expect.stringMatching(/^1[89]$/) });
  await page.getByTestId("settings-close").click();
});

test("the tray shows the chain's base fee", async () => {
  await expect.poll(async () => (await desktopState(app)).tray?.tooltip, { timeout: 15_000 }).toMatch(/Local test chain base fee .* gwei/);
  expect((await desktopState(app)).tray?.congestion).toBe("normal");
});

test("a busy crossing raises one notification, not one per block", async () => {
  expect((await desktopState(app)).notifications).toEqual([]);
  await chain.mine([200n * GWEI, 200n * GWEI, 200n * GWEI]);
  await expect.poll(async () => (await desktopState(app)).notifications.length, { timeout: 20_000 }).toBe(1);
  await chain.mine([210n * GWEI, 220n * GWEI]);
  await page.waitForTimeout(3000);
  const { notifications, tray } = await desktopState(app);
  expect(notifications).toEqual([expect.objectContaining({ kind: "busy", chainId: CHAIN_ID, title: "Local test chain is busy" })]);
  expect(tray?.congestion).toBe("busy");
});

test("quitting stops the server", async () => {
  await app.close();
  await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
});
