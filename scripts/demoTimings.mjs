// How long the demo takes, as a new user starts it: `npm run serve -- --demo --port 0` with an empty settings folder,
// three times (or --runs N), measuring from the command to the first 200 of /networks/31337/busyThreshold (polled
// every 25 ms with the key from the log) and to the log's `history backfill done` line. `--fresh` removes dist/ first
// at each run, so that serve builds the service and the dashboard as right after `npm ci`. `--write` puts the figures
// in the "How long it takes" tables of README.md and docs/demo.md (the rows it measured, found by their first cell);
// without it they are printed.
//
//   npm exec -- node scripts/demoTimings.mjs --fresh --write   # the first-run row (builds first)
//   npm exec -- node scripts/demoTimings.mjs --write           # the built rows
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const fresh = args.includes("--fresh");
const write = args.includes("--write");
const runsAt = args.indexOf("--runs");
const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : 3;
/** A run that has not answered or backfilled by then has failed: it is said, never waited on for ever. */
const GIVE_UP_MS = 180_000;

const seconds = (ms) => (ms / 1000).toFixed(1);

/** One start of the demo: the times to first data and to the backfill's end, in ms from the command. */
async function oneRun() {
  if (fresh) rmSync(join(root, "dist"), { recursive: true, force: true });
  const configDir = mkdtempSync(join(tmpdir(), "gasfees-timings-"));
  const started = performance.now();
  // Its own process group, so that the whole of it (npm, the service, the demo's node) is stopped by its id.
  const child = spawn("npm", ["run", "--silent", "serve", "--", "--demo", "--port", "0"], {
    cwd: root,
    env: { ...process.env, GASFEES_CONFIG_DIR: configDir },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let stdout = "";
  let stderr = "";
  let backfilledMs;
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
    if (backfilledMs === undefined && stderr.includes("history backfill done")) backfilledMs = performance.now() - started;
  });
  let exited = false;
  child.on("exit", () => (exited = true));
  try {
    let firstDataMs;
    while (firstDataMs === undefined || backfilledMs === undefined) {
      if (exited) throw new Error(`serve exited before it was measured:\n${stderr}`);
      if (performance.now() - started > GIVE_UP_MS) throw new Error(`no ${firstDataMs === undefined ? "first data" : "backfill done"} after ${GIVE_UP_MS} ms`);
      const url = /gasfees listening on (\S+)/.exec(stdout)?.[1];
      const key = /stored it in \S+: ([0-9a-f]{32})/.exec(stderr)?.[1];
      if (firstDataMs === undefined && url && key) {
        const answer = await fetch(`${url}/networks/31337/busyThreshold`, {
          headers: { authorization: `Basic ${Buffer.from(`${key}:`).toString("base64")}` },
        }).catch(() => undefined);
        if (answer?.status === 200) firstDataMs = performance.now() - started;
        await answer?.body?.cancel();
      }
      await new Promise((done) => setTimeout(done, 25));
    }
    return { firstDataMs, backfilledMs };
  } finally {
    if (!exited) {
      const gone = new Promise((done) => child.once("exit", done));
      process.kill(-child.pid, "SIGINT");
      const stuck = setTimeout(() => process.kill(-child.pid, "SIGKILL"), 10_000);
      await gone;
      clearTimeout(stuck);
    }
    rmSync(configDir, { recursive: true, force: true });
  }
}

const results = [];
for (let run = 1; run <= runs; run++) {
  const result = await oneRun();
  process.stderr.write(`run ${run}: first data ${seconds(result.firstDataMs)} s, backfill done ${seconds(result.backfilledMs)} s\n`);
  results.push(result);
}
const list = (key) => results.map((result) => `${seconds(result[key])} s`).join(", ");
const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? "cpu"}, Node ${process.version}`;
// README.md's rows, by their first cell: the script rewrites the figures of those it measured.
const FIRST_RUN = "first data after `npm run serve -- --demo`, first run (it builds)";
const BUILT = "the same, once built";
const BACKFILL = "the demo's two days of history all held";
const command = `\`npm exec -- node scripts/demoTimings.mjs${fresh ? " --fresh" : ""}\``;
const rows = fresh
  ? [[FIRST_RUN, list("firstDataMs"), `${command}: from the command to the first \`200\` of \`busyThreshold\``]]
  : [
      [BUILT, list("firstDataMs"), `${command}: likewise`],
      [BACKFILL, list("backfilledMs"), `${command}: to the log's \`history backfill done\` line`],
    ];
console.log(`${machine}, ${runs} runs${fresh ? ", dist/ removed before each" : ""}:`);
for (const [what, figures] of rows) console.log(`  ${what}: ${figures}`);

if (write) {
  for (const page of ["README.md", "docs/demo.md"]) {
    const path = join(root, page);
    const lines = readFileSync(path, "utf8").split("\n");
    for (const [what, figures, how] of rows) {
      const at = lines.findIndex((line) => line.startsWith(`| ${what} `));
      if (at < 0) throw new Error(`${page} has no row "| ${what} |" to write`);
      lines[at] = `| ${what} | ${figures} | ${how} |`;
    }
    writeFileSync(path, lines.join("\n"));
  }
  console.log("written into the tables of README.md and docs/demo.md");
}
