// `npm run serve -- --demo` as a newcomer runs it (package.json's serve script, in a process of its own, with a
// settings folder of its own), for the browser tests that meet the demo: started by a test, stopped after it.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { serveScriptArguments } from "../../../scripts/bench/serveProcess.ts";

export interface DemoServe {
  /** Its stdout and stderr so far. */
  readonly output: () => { stdout: string; stderr: string };
  /** The dashboard's address with its token, as the service logs it. */
  readonly dashboardUrl: string;
}

/** Registers the stop after each test of the file; `start()` starts the demo once it listens. */
export function demoServeFixture(): { start(): Promise<DemoServe> } {
  let serve: ChildProcessWithoutNullStreams | undefined;
  test.afterEach(async () => {
    if (serve === undefined || serve.exitCode !== null || serve.signalCode !== null) return;
    const exited = new Promise((resolve) => serve!.once("exit", resolve));
    serve.kill("SIGTERM");
    await exited;
  });
  return {
    async start() {
      const child = spawn(process.execPath, [...serveScriptArguments(), "--demo", "--port", "0"], {
        env: { ...process.env, GASFEES_CONFIG_DIR: mkdtempSync(join(tmpdir(), "gasfees-demo-e2e-")), GASFEES_PORT: "" },
      });
      serve = child;
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
      await expect
        .poll(() => /^gasfees listening on http:\/\/127\.0\.0\.1:\d+\n$/.test(stdout), { timeout: 180_000, message: `listening (stderr: ${stderr})` })
        .toBe(true);
      const dashboardUrl = /^dashboard: (http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{32})$/m.exec(stderr)?.[1];
      expect(dashboardUrl, `the dashboard's address on stderr: ${stderr}`).toBeDefined();
      return { output: () => ({ stdout, stderr }), dashboardUrl: dashboardUrl! };
    },
  };
}
