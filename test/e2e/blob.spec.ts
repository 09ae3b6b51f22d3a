// The dashboard's blob view in Debian's Chromium against the real service following a local JSON-RPC server whose blob
// base fees follow EIP-4844's rule and EIP-7918's floor (test/e2e/support/blobService.ts; Hardhat's EDR gives no blob
// fields). What it shows is checked against the API's answers, and every view is shot in both themes and sizes.
import { fileURLToPath } from "node:url";
import { expect } from "@playwright/test";
import { test } from "./support/failOnPageProblems.ts";
import { shootEverySize } from "./support/screenshots.ts";
import { toGweiString } from "../../shared/core/fees/gwei.ts";
import { shortGwei } from "../../shared/core/text/shortGwei.ts";
import { type Costs, costsSchema } from "../../shared/wire/costs.ts";
import { startStackProcess, type StackProcess } from "./support/stackProcess.ts";
import { BLOB_CHAIN_ID, E2E_KEY } from "./support/stackConstants.ts";
import type { BlobCommand } from "./support/blobService.ts";

type Command = BlobCommand extends infer C ? (C extends { id: number } ? Omit<C, "id"> : never) : never;

let stack: StackProcess<Command>;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  stack = await startStackProcess<Command>(fileURLToPath(new URL("./support/blobService.ts", import.meta.url)), "blob e2e service");
});

test.afterAll(async () => {
  await stack?.stop();
});

async function api<T>(path: string): Promise<T> {
  const response = await fetch(`${stack.url}${path}`, { headers: { authorization: `Basic ${Buffer.from(`${E2E_KEY}:`).toString("base64")}` } });
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
}

test("the blob view: its badge, cards and lines are the API's, the floor and the blob use are drawn, and each range loads", async ({ page }) => {
  await page.goto(`${stack.dashboardUrl}#chain=${BLOB_CHAIN_ID}`);
  const view = page.getByTestId("blob-view");
  await expect(view).toBeVisible();
  // The cards say what the API says at the same block.
  await expect(async () => {
    const threshold = await api<{ blobBusyThreshold: string }>(`/networks/${BLOB_CHAIN_ID}/blobBusyThreshold`);
    const median = await api<{ blobBaseFeePercentile: string }>(`/networks/${BLOB_CHAIN_ID}/blobBaseFeePercentile`);
    expect(await page.getByTestId("blob-busy-threshold").getAttribute("data-value")).toBe(threshold.blobBusyThreshold);
    expect(await page.getByTestId("blob-base-fee-percentile").getAttribute("data-value")).toBe(median.blobBaseFeePercentile);
  }).toPass();
  // The next blob base fee and the badge say what /networks says at the same block: both are read again together
  // until they agree, since a new block may come between the API's answer and the page's (and move the badge).
  await expect(async () => {
    const networks = await api<{ chainId: number; blobBaseFee: string; blobBusy: boolean }[]>("/networks");
    const chain = networks.find((network) => network.chainId === BLOB_CHAIN_ID)!;
    expect(await page.getByTestId("next-blob-base-fee").getAttribute("data-value")).toBe(chain.blobBaseFee);
    expect(await page.getByTestId("blob-congestion").getAttribute("data-state")).toBe(chain.blobBusy ? "busy" : "normal");
  }).toPass();
  // The chart: the blob fee line and the floor line; the blob use strip with a bar per block and the target line.
  const chart = page.getByTestId("blob-fee-chart");
  await expect(chart.locator("path.fee-line")).toHaveCount(1);
  await expect(chart.locator("path.floor-line")).toHaveCount(1);
  await expect(page.getByTestId("blob-use")).toHaveAttribute("data-blocks", "500");
  await expect(page.getByTestId("blob-use-target")).toHaveCount(1);
  // The blob use card says what each number covers: the newest block's use (its block in the title), and the mean of
  // the bars drawn below it.
  await expect(view.locator(".card-label", { hasText: "Blob use, newest block" })).toHaveCount(1);
  await expect(async () => {
    const newestBlock = Number(await page.getByTestId("newest-block").getAttribute("data-value"));
    await expect(page.getByTestId("blob-use-newest")).toHaveAttribute("title", `block ${newestBlock.toLocaleString("en-US")}`, { timeout: 1_000 });
  }).toPass();
  await expect(page.getByTestId("blob-use-newest")).toHaveText(/^\d+% of target$/);
  await expect(page.getByTestId("blob-use-mean")).toHaveText(/^mean \d+% of the 500 bars below$/);
  await expect(page.getByTestId("blob-chart-legend")).toContainText("floor (base fee ÷ 16)");
  await shootEverySize(page, "blob-blocks", { target: view });

  // The costs panel's one-blob row, as /costs answers it at the same block: this chain has no price (its feed is not
  // there), so the blob is in Gwei of the gas token as every action is, no money figure, the reason said.
  const costs = costsSchema.parse(await api<Costs>(`/networks/${BLOB_CHAIN_ID}/costs`));
  const panel = page.getByTestId("costs-panel");
  await expect(panel.getByTestId("costs-basis")).toHaveAttribute("data-block", costs.basis.block);
  expect(costs.price).toBeNull();
  expect(costs.blob?.fiat).toBeNull();
  await expect(panel.getByTestId("costs-price")).toHaveAttribute("data-state", "none");
  await expect(panel.getByTestId("costs-price")).toContainText(`No USD price: ${costs.priceProblem!}`);
  const blobCost = panel.getByTestId("cost-blob-cost");
  await expect(blobCost).toHaveAttribute("data-wei", costs.blob!.wei);
  await expect(blobCost).toHaveText(`${shortGwei(toGweiString(BigInt(costs.blob!.wei)))} Gwei at blob base fee ${shortGwei(costs.basis.blobBaseFee!)} Gwei`);
  await expect(blobCost).toHaveText(/^[0-9,.]+ Gwei at /);
  await expect(panel.locator("td", { hasText: "$" })).toHaveCount(0);
  await shootEverySize(page, "blob-costs-no-price", { target: panel });

  // A new block moves the view with it.
  const newest = BigInt((await stack.call({ type: "mine", count: 1 })).newestBlock!);
  await expect(page.getByTestId("newest-block")).toHaveAttribute("data-value", String(newest));

  // Each chart its own range: the base fee chart's 24 h leaves the blob chart on its blocks, and back.
  await page.getByTestId("range-24h").click();
  await expect(page.getByTestId("stats-chart")).toHaveAttribute("data-range", "24h");
  await expect(page.getByTestId("blob-fee-chart")).toBeVisible();
  await expect(page.getByTestId("blob-range-blocks")).toHaveAttribute("aria-checked", "true");
  await page.getByTestId("range-blocks").click();
  await expect(page.getByTestId("fee-chart")).toBeVisible();

  // The time ranges: the blob view's buckets come from baseFeeStats?fee=blob, chosen with its own selector.
  const asked: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname.endsWith("/baseFeeStats")) asked.push(url.search);
  });
  for (const range of ["1h", "24h", "7d"] as const) {
    await page.getByTestId(`blob-range-${range}`).click();
    const blobChart = page.getByTestId("blob-stats-chart");
    await expect(blobChart).toHaveAttribute("data-range", range);
    await expect(blobChart).toHaveAttribute("data-state", "ready");
    expect(asked.some((search) => search.includes(`window=${range}`) && search.includes("fee=blob"))).toBe(true);
    // The base fee chart stays on its blocks.
    await expect(page.getByTestId("fee-chart")).toBeVisible();
    await shootEverySize(page, `blob-${range}`, { target: view });
  }
});
