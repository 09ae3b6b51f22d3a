// Whether this machine has the Electron binary: `npm start` and the Electron end-to-end tests ask, so that a missing
// binary is said plainly (and the tests are skipped with the reason, or fail when the environment demands them)
// instead of a stack trace.
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

export function findElectronBinary(env: NodeJS.ProcessEnv = process.env): ElectronBinary {
  const require = createRequire(import.meta.url);
  let path: unknown;
  try {
    // In plain Node, the electron package exports the binary's path (and throws when its download never happened).
    path = require("electron");
  } catch (error) {
    return { found: false, reason: (error as Error).message.split("\n")[0]! };
  }
  if (typeof path !== "string") return { found: false, reason: "the electron package did not give a binary path" };
  if (!existsSync(path)) return { found: false, reason: `the Electron binary ${path} does not exist` };
  const packageDir = dirname(require.resolve("electron/package.json"));
  const packageVersion = (JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as { version: string }).version;
  const override = env.ELECTRON_OVERRIDE_DIST_PATH;
  const distDir = override || join(packageDir, "dist");
  const source = override
    ? `ELECTRON_OVERRIDE_DIST_PATH=${override} (a binary provided outside npm; the electron npm package is ${packageVersion})`
    : `the electron npm package ${packageVersion}, whose install script downloaded it into ${distDir}`;
  return { found: true, path, version: readVersion(join(distDir, "version")), source };
}

function readVersion(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8").trim().replace(/^v/, "") || undefined;
  } catch {
    return undefined;
  }
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

export const ELECTRON_MISSING_HELP = [
  "The Electron binary is not installed (npm ci was run with ELECTRON_SKIP_BINARY_DOWNLOAD=1, or it could not reach GitHub).",
  "To get it, with internet access:",
  "  node node_modules/electron/install.js      (or: npm rebuild electron, or npm ci without ELECTRON_SKIP_BINARY_DOWNLOAD)",
  "Meanwhile `npm run serve` runs the same service and serves the same dashboard in a browser (open the URL it logs).",
].join("\n");
