// Runs every *.test.ts under shared/, electron/, renderer/ and test/ with node's test runner (tsx for TypeScript).
// Node 20's runner does not expand globs itself, and a shell glob would not be portable, so the files are listed here.
import { spawn } from "node:child_process";
import { relative } from "node:path";
import { filesUnder } from "./filesUnder.mjs";

const roots = ["shared", "electron", "renderer", "test"];
const only = process.argv.slice(2);

const USAGE = `Usage: node scripts/runTests.mjs [part ...]

Runs every *.test.ts under shared/, electron/, renderer/ and test/ with node's test runner, or only those whose path
contains one of the parts (node scripts/runTests.mjs shared/http test/security).`;
if (only.includes("--help") || only.includes("-h")) {
  console.log(USAGE);
  process.exit(0);
}
const flag = only.find((part) => part.startsWith("-"));
if (flag !== undefined) {
  console.error(`unknown option ${flag}\n\n${USAGE}`);
  process.exit(2);
}

const files = roots
  .flatMap((root) => filesUnder(root).filter((path) => path.endsWith(".test.ts")))
  .map((path) => relative(".", path))
  .filter((file) => only.length === 0 || only.some((part) => file.includes(part)))
  .sort();
if (files.length === 0) {
  console.error(`no test files match ${only.join(" ")}`);
  process.exit(1);
}
// node:sqlite (the history store) says it is experimental once in each process that loads it: once per test file,
// known and harmless. The runner passes this flag on to each file's process (and the service processes that tests
// fork with the runner's flags); other warnings still show.
const child = spawn(process.execPath, ["--disable-warning=ExperimentalWarning", "--import", "tsx", "--test", ...files], { stdio: "inherit" });
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
