// `npm start`: runs the desktop app from a fresh clone. Fetches the Electron binary the first time (npm ci leaves it
// out), builds the renderer and the desktop shell, then launches Electron on them; where the binary cannot be had,
// says why and what to do instead, and exits non-zero before building anything.
import { spawn, spawnSync } from "node:child_process";
import { parseArgs } from "node:util";
import { describeElectronBinary } from "./electronBinary.ts";
import { electronUnavailableMessage, ensureElectron } from "./ensureElectron.ts";

export const START_USAGE = `Usage: npm start [-- --hidden]

Opens the gasfees desktop app (window and tray), fetching the Electron binary the first time.
  --hidden   start in the tray, without a window (as at login)
  --help     show this help

Without a desktop: npm run serve (the same service and dashboard, in a browser);
without a network either: npm run serve -- --demo (a local chain replaying real mainnet fees).`;

let options: { hidden?: boolean | undefined; help?: boolean | undefined };
try {
  options = parseArgs({
    args: process.argv.slice(2),
    strict: true,
    allowPositionals: false,
    options: { hidden: { type: "boolean" }, help: { type: "boolean", short: "h" } },
  }).values;
} catch (error) {
  process.stderr.write(`gasfees: ${(error as Error).message}\n\n${START_USAGE}\n`);
  process.exit(2);
}
if (options.help) {
  process.stdout.write(`${START_USAGE}\n`);
  process.exit(0);
}

const electron = await ensureElectron();
if (!electron.found) {
  process.stderr.write(electronUnavailableMessage("start", electron.reason));
  // An exit of its own: a DNS lookup abandoned after its timeout would otherwise keep the process alive.
  process.exit(1);
}

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
for (const script of ["build:renderer", "build:electron"]) {
  const built = spawnSync(npm, ["run", "--silent", script], { stdio: "inherit", shell: process.platform === "win32" });
  if (built.status !== 0) {
    process.stderr.write(`gasfees: npm run ${script} failed, so the app was not started\n`);
    process.exit(built.status ?? 1);
  }
}

process.stderr.write(`gasfees: starting ${describeElectronBinary(electron)}\n`);
const env = { ...process.env };
// Set by some tools; it would make Electron run as plain Node and ignore the app.
delete env.ELECTRON_RUN_AS_NODE;
const child = spawn(electron.path, [".", ...(options.hidden ? ["--hidden"] : [])], { stdio: "inherit", env });
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
