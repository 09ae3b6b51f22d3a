// Opens a dashboard address in Debian's Chromium and checks that the page shows the fee chart with live blocks: the
// chart is drawn, and the newest block it shows moves on. For scripts/freshCloneCheck.sh (a fresh clone's `npm run
// serve -- --demo`). Usage: node scripts/checkDashboardLive.mjs <dashboard URL> [chromium executable]
import { chromium } from "@playwright/test";

const [url, executablePath = "/usr/bin/chromium"] = process.argv.slice(2);
if (!url) {
  process.stderr.write("usage: node scripts/checkDashboardLive.mjs <dashboard URL> [chromium executable]\n");
  process.exit(2);
}
const TIMEOUT_MS = 60_000;

const browser = await chromium.launch({
  executablePath,
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
});
try {
  const page = await browser.newPage();
  const problems = [];
  page.on("pageerror", (error) => problems.push(error.message));
  await page.goto(url);
  await page.locator('[data-testid="fee-chart"] path.recharts-curve').first().waitFor({ state: "visible", timeout: TIMEOUT_MS });
  const newestBlock = () => page.getByTestId("newest-block").getAttribute("data-value", { timeout: TIMEOUT_MS });
  const first = BigInt(await newestBlock());
  await page.waitForFunction(
    (block) => BigInt(globalThis.document.querySelector('[data-testid="newest-block"]')?.getAttribute("data-value") ?? "0") > BigInt(block),
    first.toString(),
    { timeout: TIMEOUT_MS },
  );
  const later = BigInt(await newestBlock());
  const badge = await page.getByTestId("congestion").getAttribute("data-state");
  if (problems.length > 0) throw new Error(`the page threw: ${problems.join("; ")}`);
  process.stdout.write(`dashboard in Chromium: the chart is drawn, newest block ${first} then ${later} (live), badge ${badge}\n`);
} catch (error) {
  process.stderr.write(`the dashboard at ${url} does not show the chart with live blocks: ${error.message}\n`);
  process.exitCode = 1;
} finally {
  await browser.close();
}
