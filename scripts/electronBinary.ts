// Whether this machine has the Electron binary. `npm ci` never downloads it (the electron package has had no install
// script since Electron 42, and package.json's allowScripts would keep one off); scripts/ensureElectron.ts fetches it
// the first time `npm start`, `npm run dist` or the Electron tests need it. `npm start`, the fetch and the Electron
// end-to-end tests ask here, so that a missing binary is said plainly (and the tests are skipped with the reason, or
// fail when the environment demands them) instead of a stack trace. Nothing here loads the electron package's own
// index.js, which since Electron 42 downloads the binary itself when it is missing.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

export type ElectronBinary =
  | {
      readonly found: true;
      readonly path: string;
      /** The version the binary's folder declares (its `version` file), when it has one. */
      readonly version: string | undefined;
      /** Where the binary came from, in words. */
      readonly source: string;
    }
  | { readonly found: false; readonly reason: string };

/** The installed electron npm package's folder (its package.json, install.js, checksums.json, and dist/ once fetched). */
export function electronPackageDir(): string {
  return dirname(createRequire(import.meta.url).resolve("electron/package.json"));
}

/** The version of the installed electron npm package: the Electron binary it needs. */
export function electronPackageVersion(packageDir: string = electronPackageDir()): string {
  return (JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as { version: string }).version;
}

/**
 * Finds the binary the way the electron package's own index.js does (its `path.txt`, written when the binary is
 * extracted, under `dist/` or under ELECTRON_OVERRIDE_DIST_PATH), read afresh on every call: a binary fetched by this
 * process is found at once, which a cached `require("electron")` would not do.
 */
export function findElectronBinary(env: NodeJS.ProcessEnv = process.env, packageDir: string = electronPackageDir()): ElectronBinary {
  const packageVersion = electronPackageVersion(packageDir);
  const executable = readText(join(packageDir, "path.txt"));
  const override = env.ELECTRON_OVERRIDE_DIST_PATH;
  if (override) {
    const path = join(override, executable ?? platformExecutable());
    if (!existsSync(path)) return { found: false, reason: `ELECTRON_OVERRIDE_DIST_PATH=${override} has no Electron binary (${path} does not exist)` };
    const source = `ELECTRON_OVERRIDE_DIST_PATH=${override} (a binary provided outside npm; the electron npm package is ${packageVersion})`;
    return { found: true, path, version: readVersion(join(override, "version")), source };
  }
  const distDir = join(packageDir, "dist");
  if (executable === undefined) {
    return { found: false, reason: `Electron ${packageVersion} has not been fetched into ${distDir} yet (npm ci leaves it out)` };
  }
  const path = join(distDir, executable);
  if (!existsSync(path)) return { found: false, reason: `the Electron binary ${path} does not exist` };
  const version = readVersion(join(distDir, "version"));
  if (version !== undefined && version !== packageVersion) {
    return { found: false, reason: `${distDir} holds Electron ${version}, but the electron npm package is ${packageVersion}` };
  }
  return { found: true, path, version, source: `the electron npm package ${packageVersion}, fetched into ${distDir}` };
}

/** The executable inside an unpacked Electron release, as electron's install.js names it. */
function platformExecutable(): string {
  if (process.platform === "darwin") return "Electron.app/Contents/MacOS/Electron";
  return process.platform === "win32" ? "electron.exe" : "electron";
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8").trim() || undefined;
  } catch {
    return undefined;
  }
}

function readVersion(file: string): string | undefined {
  return readText(file)?.replace(/^v/, "") || undefined;
}

/** One line for logs: which Electron, where, from what. */
export function describeElectronBinary(binary: ElectronBinary): string {
  return binary.found
    ? `Electron ${binary.version ?? "(version unknown)"} at ${binary.path}, from ${binary.source}`
    : `Electron binary missing: ${binary.reason}`;
}

/** Set to 1 where the Electron tests must run (CI's Electron job): a missing binary then fails them instead of skipping them. */
export const REQUIRE_ELECTRON_ENV = "GASFEES_REQUIRE_ELECTRON";

export type ElectronTestPlan =
  | { readonly kind: "run"; readonly binary: ElectronBinary & { readonly found: true } }
  | { readonly kind: "skip"; readonly reason: string }
  | { readonly kind: "fail"; readonly reason: string };

/** What the Electron end-to-end tests do on this machine: run, skip with the reason, or fail when they are demanded. */
export function electronTestPlan(binary: ElectronBinary, env: NodeJS.ProcessEnv = process.env): ElectronTestPlan {
  if (binary.found) return { kind: "run", binary };
  const missing = describeElectronBinary(binary);
  if (env[REQUIRE_ELECTRON_ENV] === "1") {
    return { kind: "fail", reason: `${missing}, and ${REQUIRE_ELECTRON_ENV}=1 demands the Electron tests here. ${ELECTRON_MISSING_HELP}` };
  }
  return { kind: "skip", reason: `${missing}. ${ELECTRON_MISSING_HELP}` };
}

/** What to do without the Electron binary: said by `npm start`, `npm run dist` and the Electron tests when it is missing. */
export const ELECTRON_MISSING_HELP = [
  "`npm start`, `npm run dist` and `npm run test:electron` fetch the Electron binary the first time they run (npm ci never does).",
  "Where it cannot be fetched:",
  "  - `npm run serve` runs the same service and serves the same dashboard in a browser (open the URL it logs);",
  "  - or run `npm start` once on a network that reaches github.com (the binary is then kept in node_modules/electron/dist);",
  "  - or set ELECTRON_MIRROR to a mirror of Electron's releases (e.g. https://npmmirror.com/mirrors/electron/), and behind a proxy",
  "    set ELECTRON_GET_USE_PROXY=1 with HTTPS_PROXY;",
  "  - or unzip Electron's release for this system, downloaded elsewhere, into a folder and set ELECTRON_OVERRIDE_DIST_PATH to it.",
].join("\n");
