// "Wait or pay now" in the demo, as a newcomer meets it: `npm run serve -- --demo`, whose chain is given weeks of real
// mainnet hourly summaries as its past, so that the outlook answers in its first minute. The panel shows what the
// base fee (or a swap) costs now, the lowest likely within 1 to 24 h as a ribbon, the chance of a price typed in, and
// the outlook's track record; in Gwei and in the money of the action chosen in "Show". The docs' screenshots of the
// panel are taken here.
import { expect, test } from "@playwright/test";
import { demoServeFixture } from "./support/demoServe.ts";
import { startLiveStack } from "./support/harness.ts";
import { README_SCREENSHOTS, shootEverySize } from "./support/screenshots.ts";

const demo = demoServeFixture();
const HORIZONS = [1, 3, 6, 12, 24];

test("the outlook panel: now, the lowest likely within each horizon, the chance of a typed price and the track record, in Gwei and in money", async ({
  page,
}) => {
  test.setTimeout(300_000);
  // Every console error and uncaught exception of the page while the service runs (after the test, it is stopped).
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console error: ${message.text()} (${message.location().url})`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  const { dashboardUrl } = await demo.start();
  const outlookAsked: string[] = [];
  page.on("request", (request) => {
    if (/\/networks\/\d+\/outlook\?/.test(request.url())) outlookAsked.push(new URL(request.url()).search);
  });
  await page.goto(dashboardUrl);
  const panel = page.getByTestId("outlook");
  await expect(panel).toHaveAttribute("data-state", "ready", { timeout: 120_000 });
  await expect(panel).toHaveAttribute("data-unit", "Gwei");

  // Now, and the lowest likely within the default 6 h, in Gwei; one request per horizon drawn.
  await expect(panel.getByTestId("outlook-now")).toHaveText(/^[\d,.]+ Gwei$/);
  await expect(panel.getByTestId("outlook-p50")).toHaveText(/^[\d,.]+ Gwei$/);
  await expect(panel.getByTestId("outlook-ribbon")).toHaveAttribute("data-horizons", String(HORIZONS.length));
  for (const hours of HORIZONS) expect(outlookAsked.some((search) => search.startsWith(`?within=${hours}h`))).toBe(true);
  await expect(panel.getByTestId("outlook-within-6")).toHaveAttribute("aria-checked", "true");
  const p50Within6 = Number(await panel.getByTestId("outlook-p50").getAttribute("data-value"));
  await panel.getByTestId("outlook-within-24").click();
  await expect(panel.getByTestId("outlook-within-24")).toHaveAttribute("aria-checked", "true");
  await expect(panel.getByText("Lowest likely within 24 h")).toBeVisible();
  // The lowest base fee within a day is at most the lowest within 6 hours: the longer horizon holds the shorter.
  const p50Within24 = Number(await panel.getByTestId("outlook-p50").getAttribute("data-value"));
  expect(p50Within24).toBeLessThanOrEqual(p50Within6);

  // The track record: a headline with the numbers of the answer's backtest, the skill in words, dots against the diagonal.
  await expect(panel.getByTestId("outlook-track-headline")).toHaveText(
    /^When it said about \d+%, it happened \d+% of the time \([\d,]+ forecasts?\), over [\d,]+ hours replayed\.$/,
  );
  await expect(panel.getByTestId("outlook-skill")).toHaveText(/(better than|worse than|No better than) the plain guess/);
  expect(Number(await panel.getByTestId("outlook-reliability").getAttribute("data-points"))).toBeGreaterThan(0);
  await expect(panel.getByTestId("outlook-reliability").locator(".recharts-symbols").first()).toBeVisible();

  // A price typed in Gwei: below= on every horizon, and the chance of reaching it within 24 h.
  const nowGwei = Number(await panel.getByTestId("outlook-now").getAttribute("data-value"));
  const target = (Math.round(nowGwei * 0.8 * 100) / 100).toString();
  await panel.getByTestId("outlook-price").fill(target);
  await panel.getByTestId("outlook-price").press("Enter");
  await expect(panel.getByTestId("outlook-chance")).toHaveText(/^(\d+%|under 1%|over 99%|about 0%|about 100%)$/);
  expect(outlookAsked.some((search) => search === `?within=24h&below=${target}`)).toBe(true);
  // A typing slip is said, not sent.
  await panel.getByTestId("outlook-price").fill("cheap");
  await expect(panel.getByRole("alert")).toHaveText(
    'The price is not a number of Gwei ("cheap"): write digits with at most one decimal point, like "8" or "0.25"',
  );
  await panel.getByTestId("outlook-price").fill("");

  // In money: "Show" a swap. Now is the swap's medium tier, as the costs panel has it; a typed price is in dollars.
  await page.getByTestId("shown-action").selectOption("swap");
  await expect(panel).toHaveAttribute("data-unit", "USD");
  await expect(panel.getByTestId("outlook-now")).toHaveText(/^\$[\d,]+\.\d+$/);
  await expect(panel.getByTestId("outlook-p50")).toHaveText(/^\$[\d,]+\.\d+$/);
  const nowDollars = Number((await panel.getByTestId("outlook-now").textContent())!.replace(/[$,]/g, ""));
  const dollars = (Math.round(nowDollars * 0.85 * 100) / 100).toFixed(2);
  await panel.getByTestId("outlook-price").fill(dollars);
  await panel.getByTestId("outlook-price").press("Enter");
  await expect(panel.getByTestId("outlook-chance")).toContainText("(base fee ");
  expect(outlookAsked.some((search) => search === `?within=24h&action=swap&fiat=${dollars}`)).toBe(true);
  await panel.getByTestId("outlook-within-6").click();
  await expect(panel.getByTestId("outlook-chance")).toHaveText(/^(\d+%|under 1%|over 99%|about 0%|about 100%) \(base fee /);

  // The docs' pictures show the panel, not a toast that fires while they are taken.
  await page.evaluate(() => {
    const hide = () => document.querySelectorAll<HTMLElement>(".alert-toasts").forEach((toasts) => (toasts.style.display = "none"));
    hide();
    new MutationObserver(hide).observe(document.body, { subtree: true, childList: true });
  });
  await panel.scrollIntoViewIfNeeded();
  await shootEverySize(page, "outlook", { target: panel, into: README_SCREENSHOTS });
  await page.getByTestId("shown-action").selectOption("");
  await expect(panel).toHaveAttribute("data-unit", "Gwei");
  await shootEverySize(page, "outlook-gwei", { target: panel });
  expect(problems, "no console errors").toEqual([]);
});

test("before 14 days of hourly summaries, the panel says how much is held and how long until it answers", async ({ page }) => {
  test.setTimeout(240_000);
  // A Hardhat chain of real mainnet base fees, a few minutes old: far from the 14 days the outlook needs.
  const stack = await startLiveStack();
  try {
    await page.goto(stack.dashboardUrl);
    const panel = page.getByTestId("outlook");
    await expect(panel).toHaveAttribute("data-state", "not-enough-history", { timeout: 120_000 });
    const notEnough = panel.getByTestId("outlook-not-enough");
    await expect(notEnough).toHaveAttribute("data-needed", "14d");
    await expect(notEnough).toContainText("Not enough history yet. The outlook needs 14 days of hourly summaries of");
    await expect(notEnough).toContainText(/the service holds (less than an hour|[\d]+ h|\d+ days?( \d+ h)?) so far\. It can answer in about 1[34] days/);
    await expect(notEnough.getByRole("progressbar")).toBeVisible();
    await shootEverySize(page, "outlook-not-enough", { target: panel });
  } finally {
    await stack.stop();
  }
});
