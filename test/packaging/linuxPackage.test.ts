// The Linux packages' metadata: the desktop entry's categories by the freedesktop menu specification, and the deb's
// dependencies, which apt installs with it (an AppImage takes the same libraries from the system).
import assert from "node:assert/strict";
import { test } from "node:test";
import { keepElectronBuilderLog, loadBuilderConfig } from "./support/builderConfig.ts";

keepElectronBuilderLog();

/** The menu specification's main categories (Desktop Menu Specification 1.1, appendix A): an entry needs one. */
const MAIN_CATEGORIES = new Set([
  "AudioVideo",
  "Audio",
  "Video",
  "Development",
  "Education",
  "Game",
  "Graphics",
  "Network",
  "Office",
  "Science",
  "Settings",
  "System",
  "Utility",
]);
/** Additional categories this app may use (appendix B), each with the main categories it must appear beside. */
const ADDITIONAL_CATEGORIES: ReadonlyMap<string, readonly string[]> = new Map([
  ["Finance", ["Office"]],
  ["Monitor", ["System", "Network"]],
]);

/**
 * What the deb must depend on. Electron itself: GTK 3, NSS, GBM and ALSA (its binary does not start without them),
 * XTest, XScrnSaver, AT-SPI and libuuid. The app's own features: notifications (libnotify), the key store behind
 * safeStorage (libsecret), links opened in the browser (xdg-utils).
 */
const DEB_NEEDS = [
  "libgtk-3-0",
  "libnss3",
  "libgbm1",
  "libasound2",
  "libxtst6",
  "libxss1",
  "libatspi2.0-0",
  "libuuid1",
  "libnotify4",
  "libsecret-1-0",
  "xdg-utils",
];

test("the desktop entry's categories have a main category, and every additional one the main category it belongs under", async () => {
  const config = await loadBuilderConfig();
  const categories = (config.linux?.category ?? "").split(";").filter(Boolean);
  assert.ok(categories.length > 0, "linux.category is not set: electron-builder would file the app under Utility");
  assert.ok(
    categories.some((category) => MAIN_CATEGORIES.has(category)),
    `Categories=${categories.join(";")} has no main category, so menus may not show the app`,
  );
  for (const category of categories.filter((category) => !MAIN_CATEGORIES.has(category))) {
    const related = ADDITIONAL_CATEGORIES.get(category);
    assert.ok(related, `${category} is not a category this check knows: add it with its related main categories from the menu specification`);
    assert.ok(
      related.some((main) => categories.includes(main)),
      `${category} must appear beside one of ${related.join(", ")} (menu specification, appendix B)`,
    );
  }
});

test("the deb depends on every library Electron and the app load", async () => {
  const config = await loadBuilderConfig();
  const depends = config.deb?.depends ?? [];
  assert.ok(depends.length > 0, "deb.depends is not set: electron-builder's default list lacks libgbm1 and libasound2");
  assert.deepEqual(
    DEB_NEEDS.filter((name) => !depends.some((dependency) => dependency.split("|").some((alternative) => alternative.trim().split(" ")[0] === name))),
    [],
    "missing from deb.depends",
  );
});
