// Every file under a folder, recursively: what the test runner, the dashboard's freshness check and the layer tests
// each walked the tree for with a copy of their own.
import { readdirSync } from "node:fs";
import { join } from "node:path";

/** Folders never walked into: dependencies, and the data files beside some sources. */
const SKIPPED_FOLDERS = new Set(["node_modules", "data"]);

/** The files under `dir` (paths joined onto `dir`), none from node_modules/ or data/; none at all when `dir` is missing. */
export function filesUnder(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) ? [] : filesUnder(path);
    return [path];
  });
}

/** A source file that is not a test: `.ts` or `.tsx`, not `.test.ts(x)`. */
export const isSourceFile = (path) => /\.tsx?$/.test(path) && !/\.test\.tsx?$/.test(path);
