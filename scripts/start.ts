// `npm start`: runs the desktop app from a fresh clone. Builds the renderer and the desktop shell, then launches
// Electron on them; without the Electron binary, says what is missing and how to get it, and exits non-zero.
import { spawn, spawnSync } from "node:child_process";
import { describeElectronBinary, ELECTRON_MISSING_HELP, findElectronBinary } from "./electronBinary.ts";

const electron = findElectronBinary();
if (!electron.found) {
  process.stderr.write(`gasfees: cannot start the desktop app: ${electron.reason}\n\n${ELECTRON_MISSING_HELP}\n`);
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
