// Whether this machine has the Electron binary: `npm start` and the Electron end-to-end tests ask, so that a missing
// binary is said plainly (and the tests are skipped with the reason) instead of a stack trace.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";

export type ElectronBinary = { readonly found: true; readonly path: string } | { readonly found: false; readonly reason: string };

export function findElectronBinary(): ElectronBinary {
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
  return { found: true, path };
}

export const ELECTRON_MISSING_HELP = [
  "The Electron binary is not installed (npm ci was run with ELECTRON_SKIP_BINARY_DOWNLOAD=1, or it could not reach GitHub).",
  "To get it, with internet access:",
  "  node node_modules/electron/install.js      (or: npm rebuild electron, or npm ci without ELECTRON_SKIP_BINARY_DOWNLOAD)",
  "Meanwhile `npm run serve` runs the same service and serves the same dashboard in a browser (open the URL it logs).",
].join("\n");
