// `npm test`: every check of the project, one after another, stopping at the first that fails (its exit code is the
// run's). The node test suite runs last, so that its closing pass/fail count is the run's last word.
import { spawnSync } from "node:child_process";

export const TEST_USAGE = `Usage: npm test

Runs, in order, stopping at the first failure:
  npm run typecheck        the four tsconfigs (shared/test/scripts, electron, renderer, e2e)
  npm run lint             ESLint (type-checked rules, React hooks) and Prettier
  npm run build:renderer   the dashboard, as the browser tests load it
  npm run test:e2e         the dashboard in Chromium against the real service (Playwright)
  npm run test:electron    the desktop app (Playwright _electron; skipped with the reason where Electron cannot be had)
  node scripts/runTests.mjs  unit, integration (real Hardhat nodes), fuzz and security tests, and the release path's
                           checks (test/packaging: actionlint, electron-builder's config, an app.asar it packs) (node:test)

One part alone: any of the lines above; \`node scripts/runTests.mjs <part of a path>\` runs the node tests whose path
contains it.`;

const STEPS = [
  ["npm", ["run", "typecheck"]],
  ["npm", ["run", "lint"]],
  ["npm", ["run", "build:renderer"]],
  ["npm", ["run", "test:e2e"]],
  ["npm", ["run", "test:electron"]],
  [process.execPath, ["scripts/runTests.mjs"]],
];

const args = process.argv.slice(2);
if (args.includes("--help") || args.includes("-h")) {
  process.stdout.write(`${TEST_USAGE}\n`);
  process.exit(0);
}
if (args.length > 0) {
  process.stderr.write(`gasfees: npm test takes no arguments (got ${args.join(" ")})\n\n${TEST_USAGE}\n`);
  process.exit(2);
}
for (const [command, commandArgs] of STEPS) {
  const windows = process.platform === "win32";
  const run = spawnSync(windows && command === "npm" ? "npm.cmd" : command, commandArgs, { stdio: "inherit", shell: windows });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
