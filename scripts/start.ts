// `npm start`: runs the desktop app from a fresh clone. Fetches the Electron binary the first time (npm ci leaves it
// out), builds the renderer and the desktop shell, then launches Electron on them; where the binary cannot be had,
// says why and what to do instead, and exits non-zero before building anything.
import { spawn, spawnSync } from "node:child_process";
import { describeElectronBinary } from "./electronBinary.ts";
import { electronUnavailableMessage, ensureElectron } from "./ensureElectron.ts";

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
const child = spawn(electron.path, [".", ...process.argv.slice(2)], { stdio: "inherit", env });
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
