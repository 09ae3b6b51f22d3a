// `npm run serve`: the headless service (shared/cli/serve.ts) as one esbuild bundle on plain node, which holds about a
// third of the memory that running it through tsx does. What it needs is built here first, each in a child process so
// that neither esbuild nor vite ever loads into the service, saying so on stderr (stdout carries only the service's
// listening line):
// - the bundle (dist/serve/, see buildServe.mjs), when missing or older than any file it was made from;
// - the dashboard it serves at / (dist/renderer/, see buildDashboard.mjs), when missing or older than any of its
//   sources, so that it works right after `npm ci`. Not for --help, which starts nothing.
// Then the bundle runs in this very process, so that arguments, stdout, exit codes and signals are serve.ts's own.
// package.json runs it with --max-semi-space-size=2 (MB): without it, V8's young generation grows to 2 x 16 MB while ten
// chains backfill and stays resident (81 MB against 72 MB after 25 blocks of ten chains); requests per second did not
// change measurably. The benchmarks read the flags from package.json, so they measure what npm run serve runs.
import { spawnSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { dashboardFreshness } from "./dashboardFreshness.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const serveDir = join(root, "dist/serve");
const bundle = join(serveDir, "serve.mjs");

function bundleUpToDate() {
  try {
    const builtAt = statSync(join(serveDir, "inputs.json")).mtimeMs;
    if (statSync(bundle).mtimeMs > builtAt) return false;
    const inputs = JSON.parse(readFileSync(join(serveDir, "inputs.json"), "utf8"));
    return inputs.every((input) => statSync(join(root, input)).mtimeMs <= builtAt);
  } catch {
    // Missing, or an input gone: build again.
    return false;
  }
}

/** Runs a build script of scripts/ in a child process, its output on stderr; exits when it fails. */
function runBuild(script, what) {
  const built = spawnSync(process.execPath, [join(root, "scripts", script)], { cwd: root, stdio: ["ignore", 2, 2] });
  if (built.status !== 0) {
    process.stderr.write(`gasfees: could not build ${what} (node scripts/${script} exited with ${built.status ?? built.signal}): see above\n`);
    process.exit(1);
  }
}

if (!bundleUpToDate()) {
  process.stderr.write("gasfees: bundling the service (esbuild into dist/serve/), as after every change to its sources\n");
  runBuild("buildServe.mjs", "the service");
}
const args = process.argv.slice(2);
if (!args.includes("--help") && !args.includes("-h")) {
  const dashboard = dashboardFreshness();
  if (!dashboard.upToDate) {
    process.stderr.write(`gasfees: ${dashboard.reason}: building it (vite build into dist/renderer/)\n`);
    runBuild("buildDashboard.mjs", "the dashboard");
  }
}
await import(pathToFileURL(bundle).href);
