// electron-builder.yml, checked here because `electron-builder` itself cannot run without the Electron binary:
// electron-builder's own schema, the afterPack hook it names, and installer names that say system and architecture.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { test } from "node:test";
import { appFileGlobs, keepElectronBuilderLog, loadBuilderConfig, validateBuilderConfig } from "./support/builderConfig.ts";

keepElectronBuilderLog();

test("electron-builder's own schema accepts electron-builder.yml", async () => {
  const config = await loadBuilderConfig();
  await validateBuilderConfig(structuredClone(config));
  // And it rejects a misspelt key, as it would at build time.
  const misspelt = { ...structuredClone(config), linux: { ...config.linux, categroy: "Finance" } } as typeof config;
  await assert.rejects(validateBuilderConfig(misspelt), /configuration\.linux should be/);
});

test("the afterPack hook electron-builder.yml names exists and is the fuse hook", async () => {
  const config = await loadBuilderConfig();
  assert.equal(typeof config.afterPack, "string", "electron-builder.yml names no afterPack hook: the Electron fuses would not be flipped");
  const hook = resolve(config.afterPack as string);
  assert.ok(existsSync(hook), `electron-builder.yml's afterPack ${config.afterPack as string} does not exist`);
  const module = (await import(pathToFileURL(hook).href)) as { default?: unknown };
  assert.equal(typeof module.default, "function", `${config.afterPack as string} exports no default function for electron-builder to call`);
  assert.equal(hook, resolve("scripts/packaging/afterPack.mjs"));
});

test("every installer's file name says its system and architecture", async () => {
  const config = await loadBuilderConfig();
  const pattern = config.artifactName ?? "";
  for (const macro of ["${os}", "${arch}", "${version}", "${ext}"]) assert.ok(pattern.includes(macro), `artifactName ${pattern} lacks ${macro}`);
  for (const platform of ["mac", "win", "linux", "dmg", "nsis", "appImage", "deb"] as const) {
    const own = (config[platform] as { artifactName?: string } | null | undefined)?.artifactName;
    assert.equal(own, undefined, `${platform}.artifactName overrides the name every installer shares`);
  }
});

test("nothing ships but the bundles, so nothing is rebuilt for Electron's ABI", async () => {
  const config = await loadBuilderConfig();
  assert.equal(config.npmRebuild, false);
  assert.equal(config.nodeGypRebuild, false);
  assert.ok(appFileGlobs(config).includes("!node_modules/**/*"), "files must keep node_modules out of app.asar: the bundles carry their dependencies");
});
