import { test as base, expect } from "@playwright/test";

/** Playwright's `test`, with a `problems` fixture: every test that takes it fails on a console error or an uncaught exception of the page. */
export const test = base.extend<{ problems: string[] }>({
  problems: async ({ page }, use) => {
    const problems: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(`console error: ${message.text()} (${message.location().url})`);
    });
    page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
    await use(problems);
    expect(problems, "no console errors").toEqual([]);
  },
});
