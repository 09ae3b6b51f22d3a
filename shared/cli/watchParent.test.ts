// watchParent on real processes: a child whose parent is killed outright (SIGKILL, no chance to say anything) learns
// that its parent is gone and says so; while the parent lives, nothing is said.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { test } from "node:test";
import { waitFor } from "../../test/support/waitFor.ts";

// The parent: starts the child (which watches it), passes on the child's lines, and waits to be killed. As npm runs a
// script, with THROUGH_SHELL: through \`sh -c\` (Debian's dash, which stays between them), npm's variables set.
const PARENT = `
const { spawn } = require("node:child_process");
const command = [process.execPath, "--import", "tsx", "-e", process.env.CHILD];
const child = process.env.THROUGH_SHELL
  ? spawn("/bin/sh", ["-c", '"$0" "$@"; echo "shell still here"', ...command], { stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, npm_lifecycle_event: "serve" } })
  : spawn(command[0], command.slice(1), { stdio: ["ignore", "inherit", "inherit"] });
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

for (const throughShell of [false, true]) {
  const how = throughShell ? "npm process (started through a shell that stays, as dash runs an npm script)" : "parent process";
  test(`a child whose ${how} is killed outright learns that it is gone and stops; not before`, async (t) => {
    const env: NodeJS.ProcessEnv = { ...process.env, CHILD, ...(throughShell ? { THROUGH_SHELL: "1" } : {}) };
    delete env["npm_lifecycle_event"];
    const parent = spawn(process.execPath, ["-e", PARENT], { env, stdio: ["ignore", "pipe", "inherit"] });
    // Listened for from the start: the pipe may close before the test reaches that point.
    const closed = once(parent.stdout, "close");
    let out = "";
    parent.stdout.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
    const startedPid = Number(
      await waitFor("the child's pid and its watch", () => (out.includes("watching\n") ? /child (\d+)/.exec(out)?.[1] : undefined), 60_000),
    );
    assert.doesNotMatch(out, /parent gone/);
    t.after(() => {
      try {
        process.kill(startedPid, "SIGKILL");
      } catch {
        // Gone, as it should be.
      }
    });
    parent.kill("SIGKILL");
    await once(parent, "exit");
    await waitFor("the child to say that its parent is gone", () => /parent gone\n/.test(out), 30_000);
    // It exits (and the shell after it): the pipe they shared with the parent closes.
    await closed;
  });
}
