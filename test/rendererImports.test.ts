// What the page may take from the rest of the project. It runs in a browser (and in Electron's sandboxed window), so:
// - from shared/, values only from shared/core/** and shared/wire/** (pure modules), types from anywhere;
// - nothing from Node (`node:`) or Electron, ever; from electron/, only the types of the preload bridge (electron/bridge/**),
//   which declare what the page may call (renderer/src/desktopBridge.d.ts, renderer/src/settings/settingsClient.ts);
// - and what those value imports pull in at run time stays pure: no `node:`, nothing of shared/ outside core and wire.
//   Zod is the one package of shared/ the page takes: it checks an edited alert rule with the schema the main process
//   checks it with (shared/wire/alertRuleSchema.ts), so that the two never disagree about what a rule may be.
// shared/core and shared/wire keep to themselves: no `node:`, no other folder of shared/; wire may use core, and core
// takes nothing from outside core but types.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { relative } from "node:path";
import { test } from "node:test";
import { filesUnder, isSourceFile } from "../scripts/filesUnder.mjs";
import { importsOf, resolveRelative } from "./support/sourceImports.ts";

const inFolder = (path: string, folder: string) => !relative(folder, path).startsWith("..");
const NODE_OR_ELECTRON = /^(node:|electron$|electron\/)/;

/** What `files` import that the rules forbid, as `file: statement` lines. */
function rendererViolations(files: ReadonlyMap<string, string>): string[] {
  return [...files].flatMap(([file, text]) =>
    importsOf(text).flatMap(({ specifier, typeOnly, statement }) => {
      if (NODE_OR_ELECTRON.test(specifier)) return [`${file}: ${statement}`];
      const target = resolveRelative(file, specifier);
      if (target !== undefined && inFolder(target, "electron")) return typeOnly && inFolder(target, "electron/bridge") ? [] : [`${file}: ${statement}`];
      if (typeOnly || target === undefined || !inFolder(target, "shared")) return [];
      return inFolder(target, "shared/core") || inFolder(target, "shared/wire") ? [] : [`${file}: ${statement}`];
    }),
  );
}

/**
 * The modules of shared/ that the page's value imports bring into its bundle, followed through their own value
 * imports; each with the packages it imports at run time.
 */
function runtimeClosure(entries: readonly string[], read: (path: string) => string): Map<string, string[]> {
  const seen = new Map<string, string[]>();
  const pending = [...entries];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    const packages: string[] = [];
    seen.set(file, packages);
    for (const { specifier, typeOnly } of importsOf(read(file))) {
      if (typeOnly) continue;
      const target = resolveRelative(file, specifier);
      if (target === undefined) packages.push(specifier);
      else pending.push(target);
    }
  }
  return seen;
}

/** What shared/core and shared/wire import against their rules, as `file: statement` lines. */
function layerViolations(files: ReadonlyMap<string, string>): string[] {
  return [...files].flatMap(([file, text]) =>
    importsOf(text).flatMap(({ specifier, typeOnly, statement }) => {
      if (NODE_OR_ELECTRON.test(specifier)) return [`${file}: ${statement}`];
      const target = resolveRelative(file, specifier);
      if (target === undefined) return [];
      const inCore = inFolder(file, "shared/core");
      const allowed = inCore
        ? inFolder(target, "shared/core") || (typeOnly && inFolder(target, "shared"))
        : inFolder(target, "shared/core") || inFolder(target, "shared/wire");
      return allowed ? [] : [`${file}: ${statement}`];
    }),
  );
}

const readAll = (paths: readonly string[]) => new Map(paths.map((path) => [path, readFileSync(path, "utf8")]));
const rendererFiles = () => readAll(sourceFiles("renderer"));

test("the renderer takes values from shared/core and shared/wire only, types from anywhere in shared/, nothing from Node or Electron but the bridge's types", () => {
  assert.deepEqual(rendererViolations(rendererFiles()), []);
});

test("what the renderer takes from shared/ brings no node: module and nothing of shared/ outside core and wire into the page", () => {
  const files = rendererFiles();
  const entries = [...files].flatMap(([file, text]) =>
    importsOf(text).flatMap(({ specifier, typeOnly }) => {
      const target = resolveRelative(file, specifier);
      return !typeOnly && target !== undefined && inFolder(target, "shared") ? [target] : [];
    }),
  );
  // Not vacuous: the page does use shared code at run time (shortGwei, maskApiKey, congestionOf).
  assert.ok(entries.length > 0);
  const closure = runtimeClosure(entries, (path) => readFileSync(path, "utf8"));
  const offending = [...closure].flatMap(([file, packages]) => [
    ...(inFolder(file, "shared/core") || inFolder(file, "shared/wire") ? [] : [`${file} (outside shared/core and shared/wire)`]),
    ...packages.filter((name) => NODE_OR_ELECTRON.test(name)).map((name) => `${file} imports ${name}`),
  ]);
  assert.deepEqual(offending, []);
});

test("shared/core and shared/wire import no node: module and no other folder of shared/; core takes only types from wire", () => {
  for (const folder of ["shared/core", "shared/wire"]) assert.ok(existsSync(folder), `${folder} exists`);
  assert.deepEqual(layerViolations(readAll([...sourceFiles("shared/core"), ...sourceFiles("shared/wire")])), []);
});

test("the checks catch what they forbid (each rule sees a planted breach, and lets the allowed forms through)", () => {
  const page = new Map([
    [
      "renderer/src/x.ts",
      [
        'import { toGweiString } from "../../shared/core/fees/gwei.ts";',
        'import { congestionOf, type Congestion } from "../../shared/wire/congestion.ts";',
        'import type { Settings } from "../../shared/config/settings.ts";',
        'import { type Logger } from "../../shared/log/logger.ts";',
        'import { loadSettings } from "../../shared/config/settings.ts";',
        'export { createApiServer } from "../../shared/http/server.ts";',
        'import { readFileSync } from "node:fs";',
        'import { ipcRenderer } from "electron";',
        'const lazy = () => import("../../shared/service/startService.ts");',
        'import type { GasfeesDesktopBridge } from "../../electron/bridge/bridgeCalls.ts";',
        'import { BRIDGE_CHANNELS } from "../../electron/bridge/bridgeChannels.ts";',
        'import type { TrayModel } from "../../electron/main/trayModel.ts";',
      ].join("\n"),
    ],
  ]);
  assert.deepEqual(
    rendererViolations(page).map((line) => line.replace(/^renderer\/src\/x\.ts: /, "")),
    [
      'import { loadSettings } from "../../shared/config/settings.ts"',
      'export { createApiServer } from "../../shared/http/server.ts"',
      'import { readFileSync } from "node:fs"',
      'import { ipcRenderer } from "electron"',
      'import { BRIDGE_CHANNELS } from "../../electron/bridge/bridgeChannels.ts"',
      'import type { TrayModel } from "../../electron/main/trayModel.ts"',
      'import("../../shared/service/startService.ts")',
    ],
  );

  const modules: Record<string, string> = {
    "shared/wire/a.ts": 'import { b } from "./b.ts";\nimport type { Z } from "zod";',
    "shared/wire/b.ts": 'import { z } from "zod";\nimport { c } from "../core/c.ts";',
    "shared/core/c.ts": 'import { formatGwei } from "viem/utils";',
  };
  const closure = runtimeClosure(["shared/wire/a.ts"], (path) => modules[path]!);
  assert.deepEqual(Object.fromEntries(closure), { "shared/wire/a.ts": [], "shared/wire/b.ts": ["zod"], "shared/core/c.ts": ["viem/utils"] });

  const layers = new Map([
    ["shared/core/fees/a.ts", 'import { HISTORY_BLOCKS } from "../../wire/limits.ts";\nimport type { Body } from "../../wire/apiBodies.ts";'],
    ["shared/core/text/b.ts", 'import { createHash } from "node:crypto";\nimport { shortGwei } from "./shortGwei.ts";'],
    ["shared/wire/c.ts", 'import { z } from "zod";\nimport { HISTORY_BLOCKS } from "../core/fees/a.ts";\nimport { logger } from "../log/logger.ts";'],
  ]);
  assert.deepEqual(layerViolations(layers), [
    'shared/core/fees/a.ts: import { HISTORY_BLOCKS } from "../../wire/limits.ts"',
    'shared/core/text/b.ts: import { createHash } from "node:crypto"',
    'shared/wire/c.ts: import { logger } from "../log/logger.ts"',
  ]);
});

function sourceFiles(dir: string): string[] {
  return filesUnder(dir).filter(isSourceFile);
}
