// The desktop settings page's Costs section (in Chromium, with the main process's own settings logic and the real
// service in a child process, as alertsSettings.spec.ts says): the currency and the user's own actions, each field
// checked beside it with the settings' own schema, stored in the settings file, and the service restarted with them so
// that /costs lists the new action; the tray's action is stored too.
import { expect, type Locator, type Page } from "@playwright/test";
import { test } from "./support/failOnPageProblems.ts";
import { README_SCREENSHOTS, shootEverySize } from "./support/screenshots.ts";
import type { SettingsView } from "../../electron/bridge/bridgeTypes.ts";
import type { Costs } from "../../shared/wire/costs.ts";
import { installDesktopBridge } from "./support/desktopBridgePage.ts";
import { DESKTOP_CHAIN_ID, type DesktopStack, startDesktopStack } from "./support/desktopHarness.ts";

let stack: DesktopStack;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  stack = await startDesktopStack();
});

test.afterAll(async () => {
  await stack?.stop();
});

/** The service's address now: a change of currency or actions restarts it, on a port of its own (the stack's is 0). */
async function serviceUrl(): Promise<string | undefined> {
  const view = (await stack.invoke("gasfees:settings:get", [])) as SettingsView;
  return view.service.state === "running" ? view.service.url : undefined;
}

async function costsNow(): Promise<Costs | undefined> {
  const url = await serviceUrl();
  if (url === undefined) return undefined;
  const response = await fetch(`${url}/networks/${DESKTOP_CHAIN_ID}/costs`, {
    headers: { authorization: `Basic ${Buffer.from(`${stack.token}:`).toString("base64")}` },
  }).catch(() => undefined);
  return response?.ok ? ((await response.json()) as Costs) : undefined;
}

async function openCostsSettings(page: Page): Promise<Locator> {
  const url = (await serviceUrl()) ?? stack.url;
  await installDesktopBridge(page, stack, url);
  await page.goto(`${url}/#chain=${DESKTOP_CHAIN_ID}`);
  await expect(page.getByTestId("costs-panel")).toBeVisible({ timeout: 60_000 });
  await page.getByTestId("open-settings").click();
  const section = page.getByTestId("settings-costs");
  await expect(section).toBeVisible();
  return section;
}

test("an action of one's own: each field's problem beside it, then stored, and /costs lists it", async ({ page }) => {
  const section = await openCostsSettings(page);
  await expect(section.getByTestId("actions-empty")).toBeVisible();
  await section.getByTestId("action-add").click();
  const form = section.getByTestId("action-form");
  await form.getByTestId("action-name").fill("Bridge to Base");
  await form.getByTestId("action-id").fill("Bridge!");
  await form.getByTestId("action-gas").fill("900");
  await form.getByTestId("action-txBytes").fill("lots");
  await form.getByTestId("action-save").click();
  // Each problem beside its field, in the settings schema's words; nothing stored.
  await expect(form.getByTestId("action-error-id")).toContainText("1 to 32 lower-case letters, digits or dashes");
  await expect(form.getByTestId("action-error-gas")).toHaveText("The gas: an action uses at least 21,000 gas (a plain transfer)");
  await expect(form.getByTestId("action-error-txBytes")).toContainText("whole number of bytes");
  await expect(form.getByTestId("action-error-name")).toHaveCount(0);
  await expect(form.getByTestId("action-gas")).toHaveAttribute("aria-invalid", "true");
  await shootEverySize(page, "settings-costs-invalid", { target: section, into: README_SCREENSHOTS });
  expect((await stack.settingsFile()).actions ?? []).toEqual([]);

  await form.getByTestId("action-id").fill("bridge-base");
  await expect(form.getByTestId("action-error-id")).toHaveCount(0);
  await form.getByTestId("action-gas").fill("120,000");
  await form.getByTestId("action-txBytes").fill("420");
  await form.getByTestId("action-save").click();
  await expect(section.getByTestId("own-action")).toHaveAttribute("data-id", "bridge-base");
  expect((await stack.settingsFile()).actions).toEqual([{ id: "bridge-base", name: "Bridge to Base", gas: 120_000, txBytes: 420 }]);
  // The service restarted with it: /costs lists it after the defaults.
  await expect.poll(async () => (await costsNow())?.actions.find((action) => action.id === "bridge-base")?.gas, { timeout: 60_000 }).toBe("120000");

  // The tray may show it.
  await section.getByTestId("tray-action").selectOption("bridge-base");
  await expect.poll(async () => (await stack.settingsFile()).trayAction).toBe("bridge-base");
  await shootEverySize(page, "settings-costs", { target: section });

  // Deleted: gone from the file and from /costs.
  await section.getByTestId("action-delete").click();
  await expect(section.getByTestId("actions-empty")).toBeVisible();
  await expect.poll(async () => (await stack.settingsFile()).actions ?? []).toEqual([]);
  await expect.poll(async () => (await costsNow())?.actions.some((action) => action.id === "bridge-base"), { timeout: 60_000 }).toBe(false);
});

test("the currency: refused beside the field unless three letters, stored, and /costs answers in it", async ({ page }) => {
  const section = await openCostsSettings(page);
  const input = section.getByTestId("currency-input");
  await expect(input).toHaveValue("USD");
  await input.fill("euro");
  await section.getByTestId("currency-save").click();
  await expect(section.getByTestId("currency-error")).toHaveText('The currency: a currency is three capital letters, like "USD" or "EUR"');
  expect((await stack.settingsFile()).currency ?? "USD").toBe("USD");
  await input.fill("eur");
  await expect(section.getByTestId("currency-error")).toHaveCount(0);
  await section.getByTestId("currency-save").click();
  await expect.poll(async () => (await stack.settingsFile()).currency).toBe("EUR");
  await expect.poll(async () => (await costsNow())?.currency, { timeout: 60_000 }).toBe("EUR");
  // Back to the default.
  await section.getByTestId("currency-input").fill("USD");
  await section.getByTestId("currency-save").click();
  await expect.poll(async () => (await stack.settingsFile()).currency ?? "USD").toBe("USD");
});
