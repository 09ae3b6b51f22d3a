// watchParent on real processes: a child whose parent is killed outright (SIGKILL, no chance to say anything) learns
// that its parent is gone and says so; while the parent lives, nothing is said.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { test } from "node:test";
import { waitFor } from "../../test/support/waitFor.ts";

// The parent: starts the child (which watches it), passes on the child's lines, and waits to be killed.
const PARENT = `
const { spawn } = require("node:child_process");
const child = spawn(process.execPath, ["--import", "tsx", "-e", process.env.CHILD], { stdio: ["ignore", "inherit", "inherit"] });
process.stdout.write("child " + child.pid + "\\n");
setInterval(() => {}, 1000);
`;
const CHILD = `
import { watchParent } from "./shared/cli/watchParent.ts";
process.stdout.write("watching\\n");
watchParent(() => {
  process.stdout.write("parent gone\\n");
  process.exit(0);
}, 20);
setInterval(() => {}, 1000);
`;

test("a child whose parent is killed outright learns that it is gone and stops; not before", async (t) => {
  const parent = spawn(process.execPath, ["-e", PARENT], { env: { ...process.env, CHILD }, stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  parent.stdout.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
  const childPid = Number(
    await waitFor("the child's pid and its watch", () => (out.includes("watching\n") ? /child (\d+)/.exec(out)?.[1] : undefined), 60_000),
  );
  assert.doesNotMatch(out, /parent gone/);
  t.after(() => {
    try {
      process.kill(childPid, "SIGKILL");
    } catch {
      // Gone, as it should be.
    }
  });
  parent.kill("SIGKILL");
  await once(parent, "exit");
  await waitFor("the child to say that its parent is gone", () => /parent gone\n$/.test(out), 30_000);
  // It exits: the pipe it shared with its parent closes.
  await once(parent.stdout, "close");
});
