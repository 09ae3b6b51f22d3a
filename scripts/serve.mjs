// `npm run serve`: the headless service (shared/cli/serve.ts) as one esbuild bundle on plain node, which holds about a
// third of the memory that running it through tsx does. The bundle (dist/serve/, see buildServe.mjs) is made here
// when missing or older than any file it was made from, in a child process so that esbuild never loads into the
// service; then it runs in this very process, so that arguments, stdout, exit codes and signals are serve.ts's own.
// package.json runs it with --max-semi-space-size=2 (MB): without it, V8's young generation grows to 2 x 16 MB while ten
// chains backfill and stays resident (81 MB against 72 MB after 25 blocks of ten chains); requests per second did not
// change measurably. The benchmarks read the flags from package.json, so they measure what npm run serve runs.
import { spawnSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const serveDir = join(root, "dist/serve");
const bundle = join(serveDir, "serve.mjs");

function upToDate() {
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

if (!upToDate()) {
  // Its messages go to stderr: stdout carries only the service's listening line.
  const built = spawnSync(process.execPath, [join(root, "scripts/buildServe.mjs")], { cwd: root, stdio: ["ignore", 2, 2] });
  if (built.status !== 0) {
    process.stderr.write(`gasfees: could not bundle the service (node scripts/buildServe.mjs exited with ${built.status ?? built.signal})\n`);
    process.exit(1);
  }
}
await import(pathToFileURL(bundle).href);
