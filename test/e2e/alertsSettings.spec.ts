// The desktop settings page's Alerts section, and the rules' thresholds on the dashboard's live chart.
//
// This tests the page and the main process's settings logic in Chromium, not Electron (the Electron spec,
// test/electron, covers the app itself on CI): the page is the dashboard the service serves, the same page the desktop
// window shows; the main process's side is its own code (SettingsStore on a settings file in a temporary config
// folder, ServiceHost running the real service from it on a real Hardhat chain replaying real mainnet base fees, and the
// bridge's handlers built from its one declaration, validating each call's arguments), in a Node child process
// (support/desktopSettingsService.ts); `window.gasfeesDesktop` is installed before the page loads (addInitScript) and
// its calls are carried by Playwright's page.exposeBinding instead of Electron's IPC (support/desktopBridgePage.ts).
import { expect, type Locator, type Page } from "@playwright/test";
import { test } from "./support/failOnPageProblems.ts";
import { SCREENSHOTS, shootEverySize } from "./support/screenshots.ts";
import { alertRuleSettingsSchema } from "../../shared/wire/alertRuleSchema.ts";
import { shortGwei } from "../../shared/core/text/shortGwei.ts";
import type { AlertsBody } from "../../shared/wire/alerts.ts";
import { installDesktopBridge, type InstalledBridge } from "./support/desktopBridgePage.ts";
import { DESKTOP_CHAIN_ID, type DesktopStack, startDesktopStack } from "./support/desktopHarness.ts";

const UPDATE_CHANNEL = "gasfees:settings:update";

let stack: DesktopStack;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  stack = await startDesktopStack();
});

test.afterAll(async () => {
  await stack?.stop();
});

async function api<T>(path: string): Promise<T> {
  const response = await fetch(`${stack.url}${path}`, { headers: { authorization: `Basic ${Buffer.from(`${stack.token}:`).toString("base64")}` } });
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
}

/** The dashboard as the desktop window shows it, with the bridge installed before it loads. */
async function openApp(page: Page): Promise<InstalledBridge> {
  const bridge = await installDesktopBridge(page, stack);
  await page.goto(`${stack.url}/#chain=${DESKTOP_CHAIN_ID}`);
  await expect(page.locator('[data-testid="fee-chart"] path.recharts-curve')).toHaveCount(1);
  return bridge;
}

async function openSettings(page: Page): Promise<Locator> {
  await page.getByTestId("open-settings").click();
  const section = page.getByTestId("settings-alerts");
  await expect(section).toBeVisible();
  return section;
}

async function closeSettings(page: Page): Promise<void> {
  await page.getByTestId("settings-close").click();
  await expect(page.locator('[data-testid="fee-chart"] path.recharts-curve')).toHaveCount(1);
}

async function storedAlerts(): Promise<unknown> {
  return (await stack.settingsFile()).alerts;
}

/** The y at which the chart draws `gwei`, from where it draws the two statistics lines (the axis is linear). */
async function chartYOf(page: Page, gwei: number): Promise<number> {
  const lineY = async (kind: "p50" | "busy") =>
    Number(
      await page
        .locator(".recharts-reference-line", { has: page.getByTestId(`ref-label-${kind}`) })
        .locator("line")
        .getAttribute("y1"),
    );
  const p50 = Number(await page.getByTestId("ref-label-p50").getAttribute("data-value"));
  const busy = Number(await page.getByTestId("ref-label-busy").getAttribute("data-value"));
  expect(busy, "the two statistics lines at different fees, to read the axis from").toBeGreaterThan(p50);
  const [p50Y, busyY] = [await lineY("p50"), await lineY("busy")];
  return p50Y + ((gwei - p50) * (busyY - p50Y)) / (busy - p50);
}

/** Fills the rule form; each field given is typed into, the others left as they are. */
async function fillRule(
  form: Locator,
  rule: {
    when?: "below" | "above";
    gwei?: string;
    percentile?: string;
    window?: string;
    forBlocks?: string;
    cooldownMinutes?: string;
    webhook?: string;
    label?: string;
  },
): Promise<void> {
  if (rule.when) await form.getByTestId("alert-when").selectOption(rule.when);
  if (rule.gwei !== undefined) {
    await form.getByTestId("alert-kind-gwei").check();
    await form.getByTestId("alert-gwei").fill(rule.gwei);
  }
  if (rule.percentile !== undefined) {
    await form.getByTestId("alert-kind-percentile").check();
    await form.getByTestId("alert-percentile").fill(rule.percentile);
  }
  if (rule.window !== undefined) await form.getByTestId("alert-window").fill(rule.window);
  if (rule.forBlocks !== undefined) await form.getByTestId("alert-for-blocks").fill(rule.forBlocks);
  if (rule.cooldownMinutes !== undefined) await form.getByTestId("alert-cooldown").fill(rule.cooldownMinutes);
  if (rule.webhook !== undefined) await form.getByTestId("alert-webhook-url").fill(rule.webhook);
  if (rule.label !== undefined) await form.getByTestId("alert-label").fill(rule.label);
}

/** The schema's own message for `field` of `rule` (what the page must show beside that field). */
function schemaMessage(rule: Record<string, unknown>, field: string): string {
  const issue = alertRuleSettingsSchema.safeParse(rule).error?.issues.find((candidate) => candidate.path[0] === field);
  expect(issue, `the schema refuses ${field} of ${JSON.stringify(rule)}`).toBeDefined();
  return issue!.message;
}

/** A fee near the middle of the chart, as a whole number of Gwei: the 50th percentile, rounded down. */
async function feeNearTheMiddle(): Promise<string> {
  const { baseFeePercentile } = await api<{ baseFeePercentile: string }>(`/networks/${DESKTOP_CHAIN_ID}/baseFeePercentile`);
  return String(Math.floor(Number(baseFeePercentile)));
}

test("a fixed rule added on the settings page is listed, stored in settings.json, and drawn dotted at its fee on the live chart", async ({
  page,
  problems,
}) => {
  void problems;
  await openApp(page);
  // No rule yet: nothing drawn, and the dashboard's list says where rules are made.
  await expect(page.getByTestId("alerts-none")).toContainText("Settings → Alerts");
  await expect(page.getByTestId("alert-line")).toHaveCount(0);
  const gwei = await feeNearTheMiddle();

  const section = await openSettings(page);
  await expect(page.getByTestId("notifications-built-in-hint")).toContainText("built-in alert rules");
  await expect(section.getByTestId("alerts-empty")).toBeVisible();
  await section.getByTestId("alert-add").click();
  const form = section.getByTestId("alert-form");
  await expect(form.getByTestId("alert-chain")).toHaveValue(String(DESKTOP_CHAIN_ID));
  await fillRule(form, { when: "below", gwei, label: "Cheap replay" });
  await form.getByTestId("alert-save").click();
  await expect(form).toHaveCount(0);

  const row = section.locator('[data-testid="alert-rule"][data-rule="cheap-replay"]');
  await expect(row.getByTestId("alert-condition")).toContainText(`below ${gwei} Gwei`);
  await expect(row.getByTestId("alert-webhook")).toHaveText("none");
  expect(await storedAlerts()).toEqual([{ id: "cheap-replay", chainId: DESKTOP_CHAIN_ID, when: "below", gwei, label: "Cheap replay" }]);
  // The running service took it at once: GET /alerts lists it.
  const listed = (await api<AlertsBody>("/alerts")).rules.find((rule) => rule.id === "cheap-replay");
  expect(listed).toMatchObject({ chainId: DESKTOP_CHAIN_ID, when: "below", gwei, enabled: true, threshold: gwei });

  await closeSettings(page);
  const line = page.locator('[data-testid="alert-line"][data-rule="cheap-replay"]');
  await expect(line).toHaveAttribute("data-value", gwei);
  await expect(line).toHaveAttribute("data-edge", "");
  await expect(page.locator('[data-testid="alert-line-label"][data-rule="cheap-replay"] text')).toHaveText(`alert: below ${gwei}`);
  expect(Math.abs(Number(await line.locator("line").getAttribute("y1")) - (await chartYOf(page, Number(gwei))))).toBeLessThan(0.5);
  await expect(page.getByTestId("legend-alerts")).toContainText("alert rule");
  // The dashboard's list: the rule with its state.
  const listRow = page.locator('[data-testid="alert-row"][data-rule="cheap-replay"]');
  await expect(listRow).toContainText("Cheap replay");
  await expect(listRow).toContainText(`below ${gwei} Gwei`);
  expect(["armed", "firing"]).toContain(await listRow.getAttribute("data-state"));
});

test("a bad rule shows the schema's message beside each field at fault and is not sent; one the main process refuses shows its message", async ({
  page,
  problems,
}) => {
  void problems;
  const bridge = await openApp(page);
  const before = await storedAlerts();
  const section = await openSettings(page);
  await section.getByTestId("alert-add").click();
  const form = section.getByTestId("alert-form");
  await fillRule(form, { when: "above", percentile: "100", webhook: "http://example.com/hook" });
  await form.getByTestId("alert-save").click();

  const badRule = { id: "x", chainId: DESKTOP_CHAIN_ID, when: "above", percentile: 100, webhookUrl: "http://example.com/hook" };
  const percentileError = form.getByTestId("alert-error-percentile");
  const webhookError = form.getByTestId("alert-error-webhookUrl");
  await expect(percentileError).toHaveText(`The percentile ${schemaMessage(badRule, "percentile")}`);
  await expect(webhookError).toHaveText(`The webhook URL ${schemaMessage(badRule, "webhookUrl")}`);
  // Beside its field: in the same label as the input it is about, and named by it for screen readers.
  for (const [inputId, error] of [
    ["alert-percentile", percentileError],
    ["alert-webhook-url", webhookError],
  ] as const) {
    const input = form.getByTestId(inputId);
    await expect(input).toHaveAttribute("aria-invalid", "true");
    await expect(input).toHaveAttribute("aria-describedby", (await error.getAttribute("id"))!);
    await expect(form.locator("label", { has: page.getByTestId(inputId) })).toContainText((await error.textContent())!);
  }
  await expect(form.getByTestId("alert-error-gwei")).toHaveCount(0);
  await shootEverySize(page, "alerts-settings-errors", { target: section });
  // Refused by the page itself: nothing was sent to the main process, nothing stored.
  expect(bridge.calls.filter((channel) => channel === UPDATE_CHANNEL)).toEqual([]);
  expect(await storedAlerts()).toEqual(before);

  // A rule the schema takes but the main process refuses (its window is longer than the 7 days of history the chain
  // keeps): the main process's message is shown, and nothing is stored.
  await form.getByTestId("alert-percentile").fill("95");
  await form.getByTestId("alert-webhook-url").fill("");
  await form.getByTestId("alert-window").fill("30d");
  await form.getByTestId("alert-save").click();
  await expect(form.getByTestId("alert-error-percentile")).toHaveCount(0);
  const refusal = form.getByTestId("alert-error-window").or(form.getByTestId("alert-form-error"));
  await expect(refusal).toContainText("30d");
  await expect(refusal).toContainText("7d");
  expect(bridge.calls.filter((channel) => channel === UPDATE_CHANNEL)).toHaveLength(1);
  expect(await storedAlerts()).toEqual(before);
  await form.getByTestId("alert-cancel").click();
  await expect(form).toHaveCount(0);
});

test("a rule edited, turned off, on again and deleted: the list, settings.json and the chart's dotted line follow each step", async ({ page, problems }) => {
  void problems;
  await openApp(page);
  const line = page.locator('[data-testid="alert-line"][data-rule="cheap-replay"]');
  await expect(line).toHaveCount(1);
  const gwei = String(Number(await feeNearTheMiddle()) - 1);

  // Edit: the fee changes; the rule keeps its id and label.
  const section = await openSettings(page);
  const row = section.locator('[data-testid="alert-rule"][data-rule="cheap-replay"]');
  await row.getByTestId("alert-edit").click();
  const form = section.getByTestId("alert-form");
  await expect(form.getByTestId("alert-gwei")).not.toHaveValue("");
  await fillRule(form, { gwei, forBlocks: "2" });
  await form.getByTestId("alert-save").click();
  await expect(form).toHaveCount(0);
  await expect(row.getByTestId("alert-condition")).toContainText(`below ${gwei} Gwei`);
  await expect(row).toContainText("2 blocks in a row");
  expect(await storedAlerts()).toEqual([{ id: "cheap-replay", chainId: DESKTOP_CHAIN_ID, when: "below", gwei, forBlocks: 2, label: "Cheap replay" }]);
  await closeSettings(page);
  await expect(line).toHaveAttribute("data-value", gwei);
  expect(Math.abs(Number(await line.locator("line").getAttribute("y1")) - (await chartYOf(page, Number(gwei))))).toBeLessThan(0.5);

  // Off: stored as such, and the line goes.
  await openSettings(page);
  await row.getByTestId("alert-enabled").uncheck();
  await expect(row).toHaveAttribute("data-enabled", "false");
  expect(await storedAlerts()).toEqual([
    { id: "cheap-replay", chainId: DESKTOP_CHAIN_ID, when: "below", gwei, forBlocks: 2, label: "Cheap replay", enabled: false },
  ]);
  await closeSettings(page);
  await expect(page.locator('[data-testid="alert-row"][data-rule="cheap-replay"]')).toHaveAttribute("data-state", "off");
  await expect(page.getByTestId("alert-line")).toHaveCount(0);
  await expect(page.getByTestId("legend-alerts")).toHaveCount(0);

  // On again: the line is back.
  await openSettings(page);
  await row.getByTestId("alert-enabled").check();
  await expect(row).toHaveAttribute("data-enabled", "true");
  await closeSettings(page);
  await expect(line).toHaveAttribute("data-value", gwei);

  // Deleted: gone from the list, the file and the chart.
  await openSettings(page);
  await row.getByTestId("alert-delete").click();
  await expect(section.getByTestId("alert-rule")).toHaveCount(0);
  expect(await storedAlerts()).toEqual([]);
  await closeSettings(page);
  await expect(page.getByTestId("alert-line")).toHaveCount(0);
  await expect(page.getByTestId("alerts-none")).toBeVisible();
});

test("a percentile rule is drawn at the threshold GET /alerts gives, which follows the window as blocks arrive; screenshots", async ({ page, problems }) => {
  void problems;
  await openApp(page);
  // Halfway between the window's lowest fee and its 50th percentile: its line apart from the p50's.
  const [network] = await api<Array<{ minBaseFee: string; baseFeePercentile: string }>>("/networks");
  const gwei = String(Math.floor((Number(network!.minBaseFee) + Number(network!.baseFeePercentile)) / 2));
  const section = await openSettings(page);
  for (const rule of [
    { when: "below", gwei, label: "Cheap replay" },
    { when: "above", percentile: "95", forBlocks: "3", webhook: "https://hooks.example.com/services/T000/B000/secret", label: "Replay spike" },
  ] as const) {
    await section.getByTestId("alert-add").click();
    await fillRule(section.getByTestId("alert-form"), rule);
    await section.getByTestId("alert-save").click();
    await expect(section.getByTestId("alert-form")).toHaveCount(0);
  }
  const spikeRow = section.locator('[data-testid="alert-rule"][data-rule="replay-spike"]');
  // The chain's statistics window is 500 blocks: a percentile rule without a window of its own uses it.
  await expect(spikeRow.getByTestId("alert-condition")).toContainText("above the p95 of the last 500 blocks");
  // Only the webhook's origin is shown: its path holds the receiver's secret.
  await expect(spikeRow.getByTestId("alert-webhook")).toHaveText("https://hooks.example.com/…");
  await shootEverySize(page, "alerts-settings", { target: section });
  await closeSettings(page);

  // The threshold is the 95th percentile (nearest rank) of the newest 500 blocks' fees, as computed here.
  const spikeLine = page.locator('[data-testid="alert-line"][data-rule="replay-spike"]');
  const p95 = async () => {
    const fees = (await api<string[]>(`/networks/${DESKTOP_CHAIN_ID}/baseFeeHistory`)).map(Number).sort((a, b) => a - b);
    return fees[Math.ceil(0.95 * fees.length) - 1]!;
  };
  const expected = await p95();
  await expect(spikeLine).toHaveAttribute("data-value", String((await api<AlertsBody>("/alerts")).rules.find((rule) => rule.id === "replay-spike")!.threshold));
  expect(Number(await spikeLine.getAttribute("data-value"))).toBe(expected);
  await expect(page.getByTestId("alert-line")).toHaveCount(2);
  await shootEverySize(page, "alerts-chart", { target: page.getByTestId("chain-view") });

  // Blocks far above it move the window's 95th percentile up: the line follows, with no reload.
  let newest = 0n;
  for (let block = 0; block < 30; block++) newest = await stack.mineFee(150_000_000_000n + BigInt(block) * 1_000_000_000n);
  await expect.poll(async () => (await api<Array<{ newestBlock: string }>>("/networks"))[0]!.newestBlock).toBe(String(newest));
  const moved = await p95();
  expect(moved).toBeGreaterThan(expected);
  await expect(spikeLine).toHaveAttribute("data-value", String(moved));
});

test("a rule that fires shows a toast with its sentence, and the dashboard's list says it is firing and when it fired", async ({ page, problems }) => {
  void problems;
  await openApp(page);
  const section = await openSettings(page);
  await section.getByTestId("alert-add").click();
  const form = section.getByTestId("alert-form");
  await fillRule(form, { when: "above", gwei: "500", cooldownMinutes: "0", label: "Replay at 500" });
  await form.getByTestId("alert-save").click();
  await expect(form).toHaveCount(0);
  await closeSettings(page);
  const row = page.locator('[data-testid="alert-row"][data-rule="replay-at-500"]');
  // Armed below it (the rule learns the chain's state from the next block it sees), then a block above it fires it.
  await stack.mineFee(100_000_000_000n);
  await expect(row).toHaveAttribute("data-state", "armed");
  await stack.mineFee(600_000_000_000n);
  const toast = page.locator('[data-testid="alert-toast"][data-rule="replay-at-500"]');
  await expect(toast).toBeVisible();
  await expect(toast).toContainText("500");
  await expect(row).toHaveAttribute("data-state", "firing");
  // What the list says of the firing is what GET /alerts says: the time, the fee and the block.
  const { lastFired } = (await api<AlertsBody>("/alerts")).rules.find((rule) => rule.id === "replay-at-500")!;
  expect(Number(lastFired!.baseFee)).toBeGreaterThan(500);
  await expect(row.getByTestId("alert-last-fired")).toContainText(`at ${shortGwei(lastFired!.baseFee)} Gwei`);
  await expect(row.getByTestId("alert-last-fired")).toContainText(`(block ${lastFired!.block})`);
  await expect(toast).toContainText(`block ${lastFired!.block}`);
  await page.screenshot({ path: `${SCREENSHOTS}alerts-toast-1280x800-light.png` });
  await toast.getByRole("button", { name: "Close this alert" }).click();
  await expect(toast).toHaveCount(0);
});
