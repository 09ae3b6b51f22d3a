// Builds the dashboard (vite, as `npm run build:renderer` does) into dist/renderer/ when it is missing or older than a
// source (dashboardFreshness.mjs), for `npm run serve` (scripts/serve.mjs runs this in a child process, so vite never
// loads into the service). All of its output goes to stderr: stdout belongs to the service's listening line.
// - One build at a time: a lock folder (dist/.dashboard-build.lock, holding its builder's pid) makes a second serve
//   starting meanwhile wait for the first build rather than make its own; a lock whose process is gone is taken over.
// - Built into a folder beside dist/renderer/ and renamed into place, so that a serve already running never serves
//   half a build; the build's index.html is dated from when the build began, so that a source saved meanwhile is newer.
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { DASHBOARD_DIR, dashboardFreshness } from "./dashboardFreshness.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const LOCK = join(root, "dist/.dashboard-build.lock");
const LOCK_OWNER = join(LOCK, "pid");
const WAIT_STEP_MS = 200;
/** A build takes about a second; one that holds the lock this long is taken as stuck, and this build goes ahead. */
const MAX_WAIT_MS = 120_000;
/** A lock still without its pid after this long was left by a builder that died as it took it. */
const ORPHAN_LOCK_MS = 5000;

const say = (line) => process.stderr.write(`gasfees: ${line}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}

/** Resolves once this process holds the lock (or the wait is given up), with the function that releases it. */
async function lock() {
  const deadline = Date.now() + MAX_WAIT_MS;
  let toldWaiting = false;
  for (;;) {
    try {
      mkdirSync(dirname(LOCK), { recursive: true });
      mkdirSync(LOCK);
      writeFileSync(LOCK_OWNER, String(process.pid));
      return () => rmSync(LOCK, { recursive: true, force: true });
    } catch (error) {
      if (error.code !== "EEXIST") throw error;
    }
    let owner = Number.NaN;
    try {
      owner = Number(readFileSync(LOCK_OWNER, "utf8"));
    } catch {
      // Just made, its pid not written yet (or never: see below).
    }
    const orphan = !Number.isInteger(owner) && Date.now() - (statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs ?? 0) > ORPHAN_LOCK_MS;
    if (orphan || (Number.isInteger(owner) && !alive(owner))) {
      rmSync(LOCK, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) {
      say(`the dashboard build of process ${owner} has held ${relative(root, LOCK)} for ${MAX_WAIT_MS / 1000} s: building without it`);
      return () => {};
    }
    if (!toldWaiting && Number.isInteger(owner)) say(`waiting for the dashboard build of process ${owner}`);
    toldWaiting = true;
    await sleep(WAIT_STEP_MS);
  }
}

/** Puts `built` in place of dist/renderer/ (whatever else is renamed there meanwhile). */
function swapIn(built) {
  for (let attempt = 0; ; attempt++) {
    try {
      renameSync(built, DASHBOARD_DIR);
      return;
    } catch (error) {
      if (!["ENOTEMPTY", "EEXIST", "EISDIR"].includes(error.code) || attempt > 10) throw error;
    }
    const old = `${DASHBOARD_DIR}.old-${process.pid}-${attempt}`;
    try {
      renameSync(DASHBOARD_DIR, old);
    } catch (error) {
      if (error.code !== "ENOENT") throw error;
    }
    rmSync(old, { recursive: true, force: true });
  }
}

export async function buildDashboard() {
  const release = await lock();
  try {
    if (dashboardFreshness().upToDate) return false;
    const startedAtMs = Date.now();
    const built = join(root, `dist/.renderer-${process.pid}-${startedAtMs}`);
    const { build } = await import("vite");
    try {
      await build({ configFile: join(root, "vite.config.ts"), logLevel: "warn", build: { outDir: built, emptyOutDir: true } });
      const startedAt = new Date(startedAtMs);
      utimesSync(join(built, "index.html"), startedAt, startedAt);
      swapIn(built);
    } finally {
      rmSync(built, { recursive: true, force: true });
    }
    say(`dashboard built into ${relative(process.cwd(), DASHBOARD_DIR) || "."}/ in ${((Date.now() - startedAtMs) / 1000).toFixed(1)} s`);
    return true;
  } finally {
    release();
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildDashboard();
}
