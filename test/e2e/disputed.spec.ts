// A disputed chain on the dashboard, in Debian's Chromium against the real service following two stand-in endpoints
// that disagree about every base fee (test/e2e/support/disputedService.ts): the tile and the chain view say Disputed,
// what it means for the figures, and how the endpoints disagree, as /networks says.
import { fileURLToPath } from "node:url";
import { expect } from "@playwright/test";
import { test } from "./support/failOnPageProblems.ts";
import { SCREENSHOTS } from "./support/screenshots.ts";
import { startStackProcess, type StackProcess } from "./support/stackProcess.ts";
import { DISPUTED_CHAIN_ID, E2E_KEY } from "./support/stackConstants.ts";

let stack: StackProcess<{ type: "stop" }>;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  stack = await startStackProcess<{ type: "stop" }>(fileURLToPath(new URL("./support/disputedService.ts", import.meta.url)), "disputed e2e service");
});

test.afterAll(async () => {
  await stack?.stop();
});

interface Network {
  readonly chainId: number;
  readonly disputed?: boolean;
  readonly disputes?: readonly string[];
}

async function disputes(): Promise<readonly string[] | undefined> {
  const response = await fetch(`${stack.url}/networks`, { headers: { authorization: `Basic ${Buffer.from(`${E2E_KEY}:`).toString("base64")}` } });
  expect(response.status).toBe(200);
  const chain = ((await response.json()) as Network[]).find((network) => network.chainId === DISPUTED_CHAIN_ID)!;
  return chain.disputed === true ? chain.disputes : undefined;
}

test("a disputed chain: Disputed on its tile and in its view, what it means, and how the endpoints disagree, as /networks says", async ({ page }) => {
  test.setTimeout(150_000);
  await page.goto(`${stack.dashboardUrl}#chain=${DISPUTED_CHAIN_ID}`);
  // The service samples one block in 32 and compares the backfilled pages: the dispute comes within a minute.
  await expect(page.getByTestId(`chain-${DISPUTED_CHAIN_ID}-disputed`)).toHaveText("Disputed", { timeout: 90_000 });
  const lines = await disputes();
  expect(lines, "/networks says disputed while the page does").toBeDefined();
  expect(lines!.length).toBeGreaterThan(0);
  await expect(page.getByTestId(`chain-${DISPUTED_CHAIN_ID}`)).toHaveAttribute("data-disputed", "true");
  await expect(page.getByTestId(`chain-${DISPUTED_CHAIN_ID}-disputed`)).toHaveAttribute("title", /may be wrong until the endpoints agree/);
  await expect(page.getByTestId("disputed-marker")).toHaveText("Disputed");
  const banner = page.getByTestId("disputed");
  await expect(banner).toContainText("Disputed chain's data is disputed.");
  await expect(banner).toContainText("no majority settles it");
  await banner.locator("summary").click();
  // The page lists the disagreements /networks says (both read again until they meet: more may come meanwhile).
  await expect(async () => {
    const shown = await page.getByTestId("disputes").locator("li").first().textContent();
    expect(await disputes()).toContain(shown);
  }).toPass({ timeout: 30_000 });
  await page.screenshot({ path: `${SCREENSHOTS}disputed-1280x800-light.png` });
});
