import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Locator, Page } from "@playwright/test";

/** Where the browser tests write their screenshots (looked at by a person, kept out of git). */
export const SCREENSHOTS = fileURLToPath(new URL("../../../test-results/screenshots/", import.meta.url));
mkdirSync(SCREENSHOTS, { recursive: true });
/**
 * Where the docs' screenshots of the views they show go: docs/screenshots (in git) when the run is asked to update
 * them (GASFEES_UPDATE_DOCS_SCREENSHOTS=1), else SCREENSHOTS, so that `npm test` leaves the work tree as it was.
 */
export const README_SCREENSHOTS =
  process.env.GASFEES_UPDATE_DOCS_SCREENSHOTS === "1" ? fileURLToPath(new URL("../../../docs/screenshots/", import.meta.url)) : SCREENSHOTS;

/**
 * `<name>-<size>-<scheme>.png` at 1280x800 and 800x600, each in light and dark, of the page (whole with `fullPage`) or
 * of `target`, into SCREENSHOTS (or `into`); the page is left at 1280x800, light.
 */
export async function shootEverySize(page: Page, name: string, options: { target?: Locator; fullPage?: boolean; into?: string } = {}): Promise<void> {
  for (const [size, viewport] of [
    ["1280x800", { width: 1280, height: 800 }],
    ["800x600", { width: 800, height: 600 }],
  ] as const) {
    for (const colorScheme of ["light", "dark"] as const) {
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme });
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      const path = `${options.into ?? SCREENSHOTS}${name}-${size}-${colorScheme}.png`;
      if (options.target) await options.target.screenshot({ path });
      else await page.screenshot({ path, fullPage: options.fullPage ?? false });
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: "light" });
}
