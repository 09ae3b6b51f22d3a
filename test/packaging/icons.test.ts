// The icons each system's installer needs, as electron-builder.yml names them: one large square PNG that
// electron-builder turns into macOS's .icns (at least 512 px; 1024 px for Retina) and Windows' .ico (at least 256 px),
// the Linux icon set (files named by their size, which must be their real size), and the tray's icons with their @2x.
import assert from "node:assert/strict";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { keepElectronBuilderLog, loadBuilderConfig } from "./support/builderConfig.ts";
import { pngSize } from "./support/pngSize.ts";

keepElectronBuilderLog();

/** The sizes desktops pick from the hicolor theme for launchers, menus and docks. */
const LINUX_ICON_SIZES = [16, 32, 48, 64, 128, 256, 512];
/** The tray icons by congestion (electron/main/tray.ts), each at 16 px with an @2x of 32 px for high-density screens. */
const TRAY_ICONS = ["normal", "busy", "unknown"];

test("macOS and Windows get one square PNG large enough for .icns (1024 px) and .ico (256 px)", async () => {
  const config = await loadBuilderConfig();
  for (const [system, minimumPx] of [
    ["mac", 1024],
    ["win", 256],
  ] as const) {
    const icon = config[system]?.icon;
    assert.equal(typeof icon, "string", `${system}.icon is not set: electron-builder would ship Electron's own icon`);
    assert.ok(existsSync(icon as string), `${system}.icon ${icon as string} does not exist`);
    const { width, height } = pngSize(icon as string);
    assert.equal(width, height, `${icon as string} is ${width}×${height}, not square`);
    assert.ok(width >= minimumPx, `${icon as string} is ${width} px; ${system} needs at least ${minimumPx} px`);
  }
});

test("the Linux icon set has every hicolor size, each file exactly the size its name says", async () => {
  const config = await loadBuilderConfig();
  const dir = config.linux?.icon ?? "";
  assert.ok(existsSync(dir), `linux.icon ${dir} does not exist`);
  const sizes = readdirSync(dir).map((name) => {
    const named = /^(\d+)x(\d+)\.png$/.exec(name);
    assert.ok(named, `${join(dir, name)}: electron-builder reads a Linux icon's size from its name (<n>x<n>.png)`);
    assert.deepEqual(pngSize(join(dir, name)), { width: Number(named[1]), height: Number(named[2]) }, `${join(dir, name)} is not the size its name says`);
    assert.equal(named[1], named[2], `${join(dir, name)} is not square`);
    return Number(named[1]);
  });
  assert.deepEqual(
    LINUX_ICON_SIZES.filter((size) => !sizes.includes(size)),
    [],
    "missing sizes",
  );
});

test("each tray icon is 16 px with a 32 px @2x", () => {
  for (const name of TRAY_ICONS) {
    assert.deepEqual(pngSize(join("build/tray", `${name}.png`)), { width: 16, height: 16 }, `build/tray/${name}.png`);
    assert.deepEqual(pngSize(join("build/tray", `${name}@2x.png`)), { width: 32, height: 32 }, `build/tray/${name}@2x.png`);
  }
});
