// Whether dist/renderer/ (the dashboard that `npm run serve` serves at /) is there and newer than every file it is
// built from. Reads file times only (no vite), so that scripts/serve.mjs can ask before it runs the service in its own
// process. The page's code comes from renderer/ and, for values, only shared/core/ and shared/wire/ (a test keeps it
// so: test/rendererImports.test.ts); vite.config.ts, the tsconfig files and package-lock.json (the dependencies'
// versions) shape the build too.
import { statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { filesUnder } from "./filesUnder.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const DASHBOARD_DIR = join(root, "dist/renderer");
/** The build's time is its index.html's (buildDashboard.mjs sets it to when the build started). */
export const DASHBOARD_INDEX = join(DASHBOARD_DIR, "index.html");

const SOURCE_FOLDERS = ["renderer", "shared/core", "shared/wire"];
const SOURCE_FILES = ["vite.config.ts", "tsconfig.json", "tsconfig.base.json", "package-lock.json"];

/** The files the dashboard is built from, as absolute paths. */
export function dashboardSources() {
  // Tests are not part of the page.
  const pageFiles = (folder) => filesUnder(join(root, folder)).filter((path) => !/\.test\.tsx?$/.test(path));
  return [...SOURCE_FOLDERS.flatMap(pageFiles), ...SOURCE_FILES.map((file) => join(root, file))];
}

/**
 * `{ upToDate: true }`, or `{ upToDate: false, reason }` with the reason in words for the log: the build is missing, or
 * a source (the first one found) is newer than it.
 */
export function dashboardFreshness() {
  let builtAtMs;
  try {
    builtAtMs = statSync(DASHBOARD_INDEX).mtimeMs;
  } catch {
    return { upToDate: false, reason: "the dashboard is not built yet" };
  }
  for (const source of dashboardSources()) {
    let changedAtMs;
    try {
      changedAtMs = statSync(source).mtimeMs;
    } catch {
      continue;
    }
    if (changedAtMs > builtAtMs) return { upToDate: false, reason: `${relative(root, source)} changed since the dashboard was built` };
  }
  return { upToDate: true };
}
