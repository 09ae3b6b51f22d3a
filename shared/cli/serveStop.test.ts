// How `npm run serve` stops: whichever process gets the signal (the service's own, as a supervisor runs it; the whole
// terminal's group on Ctrl-C; npm's alone, SIGTERM or SIGKILL), the service says one line, no warning, and frees its
// port. (SIGINT to npm's process alone is held by npm's shell: docs/configuration.md says so.) Real
// processes: the demo (its EVM node in a child process of its own) behind the service, as a user starts it.
import assert from "node:assert/strict";
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { after, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { serveScriptArguments } from "../../scripts/bench/serveProcess.ts";
import { waitFor } from "../../test/support/waitFor.ts";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const KEY = "0123456789abcdef0123456789abcdef";
/** Where a wait gives up: a first start may bundle the service and build the dashboard, on a busy machine. */
const LISTEN_TIMEOUT_MS = 180_000;
const EXIT_TIMEOUT_MS = 60_000;

interface Serve {
  readonly child: ChildProcessWithoutNullStreams;
  readonly stderr: () => string;
  /** Resolves once it and everything it started have closed their output (the demo's node writes to it too). */
  readonly closed: Promise<void>;
  /** The port of its listening line, once it has said it. */
  readonly port: () => Promise<number>;
}

const started: Serve[] = [];
const dirs: string[] = [];
after(() => {
  // Whatever a failed test left behind: each serve was started in a process group of its own.
  for (const serve of started) {
    try {
      process.kill(-serve.child.pid!, "SIGKILL");
    } catch {
      // Gone.
    }
  }
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** `npm run serve -- --demo`, through npm or as npm's script runs it, in a process group of its own (a terminal's). */
function startServe(through: "npm" | "node"): Serve {
  const configDir = mkdtempSync(join(tmpdir(), "gasfees-stop-"));
  dirs.push(configDir);
  const args = ["--demo", "--port", "0", "--api-key", KEY];
  const [command, commandArgs] = through === "npm" ? ["npm", ["run", "serve", "--", ...args]] : [process.execPath, [...serveScriptArguments(), ...args]];
  const child = spawn(command, commandArgs, {
    cwd: REPO,
    env: { ...process.env, GASFEES_CONFIG_DIR: configDir, GASFEES_PORT: "", NODE_TEST_CONTEXT: "" },
    detached: true,
  });
  let stderr = "";
  let stdout = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
  const port = () =>
    waitFor(`the listening line (stderr: ${stderr})`, () => /gasfees listening on http:\/\/127\.0\.0\.1:(\d+)\n/.exec(stdout)?.[1], {
      timeoutMs: LISTEN_TIMEOUT_MS,
      everyMs: 50,
    }).then(Number);
  const serve: Serve = { child, stderr: () => stderr, closed, port };
  started.push(serve);
  return serve;
}

/** Resolves once the port can be listened on again; rejects while something still holds it. */
async function listenOn(port: number): Promise<void> {
  const server = createServer();
  server.listen(port, "127.0.0.1");
  await once(server, "listening");
  await new Promise((resolve) => server.close(resolve));
}

async function closedOrGaveUp(serve: Serve, what: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: the service did not stop within ${EXIT_TIMEOUT_MS} ms (stderr: ${serve.stderr()})`)), EXIT_TIMEOUT_MS);
  });
  try {
    await Promise.race([serve.closed, gaveUp]);
  } finally {
    clearTimeout(timer);
  }
}

/** The demo has a chain head and money: the feeds are running, so a stop that hurt them would show. */
async function feedsRunning(serve: Serve): Promise<number> {
  const port = await serve.port();
  await waitFor(
    "the demo's feed has blocks",
    async () => {
      const response = await fetch(`http://127.0.0.1:${port}/networks/31337/busyThreshold`, {
        headers: { authorization: `Basic ${Buffer.from(`${KEY}:`).toString("base64")}` },
      });
      await response.arrayBuffer();
      return response.status === 200;
    },
    { timeoutMs: LISTEN_TIMEOUT_MS, everyMs: 200 },
  );
  // The backfill has its own connections to the chain, the price feed its own reads: each would warn of a chain gone.
  await waitFor(
    "the backfill and the price feed's reads",
    () => /history backfill starts[\s\S]*reading ETH in USD|reading ETH in USD[\s\S]*history backfill starts/.test(serve.stderr()),
    {
      timeoutMs: LISTEN_TIMEOUT_MS,
      everyMs: 100,
    },
  );
  return port;
}

describe("npm run serve stops quietly, whatever process gets the signal", { timeout: 2 * LISTEN_TIMEOUT_MS }, () => {
  for (const [signal, to] of [
    ["SIGINT", "group"],
    ["SIGTERM", "group"],
    ["SIGINT", "service"],
    ["SIGTERM", "service"],
  ] as const) {
    const whom = to === "group" ? "the whole process group (Ctrl-C in a terminal; systemd's default)" : "the service's process alone";
    test(`${signal} to ${whom}: one line says it stops, no warning, the port is free`, async () => {
      const serve = startServe("node");
      const port = await feedsRunning(serve);
      const before = serve.stderr().length;
      process.kill(to === "group" ? -serve.child.pid! : serve.child.pid!, signal);
      await closedOrGaveUp(serve, signal);
      const said = serve.stderr().slice(before).split("\n").filter(Boolean);
      assert.equal(said.length, 1, `one line, not: ${said.join("\n")}`);
      assert.match(said[0]!, new RegExp(`info +${signal}: stopping$`));
      assert.equal(serve.child.exitCode, 0);
      await listenOn(port);
    });
  }

  test("SIGTERM to npm's process alone (as a supervisor sends it) stops the service: the port is free", async () => {
    const serve = startServe("npm");
    const port = await feedsRunning(serve);
    const before = serve.stderr().length;
    process.kill(serve.child.pid!, "SIGTERM");
    // Closed: npm, the service and the demo's node have all let go of npm's output.
    await closedOrGaveUp(serve, "SIGTERM to npm");
    await listenOn(port);
    // npm passes the signal to its shell, which dies of it: the service sees the process that started it gone.
    const said = serve.stderr().slice(before);
    assert.match(said, /info +(SIGTERM|the process that started serve is gone): stopping\n/);
    assert.doesNotMatch(said, /\bwarn\b|\berror\b/);
  });

  test("npm killed outright (SIGKILL, a supervisor's last resort): the service sees its parent gone and stops, the port is free", async () => {
    const serve = startServe("npm");
    const port = await feedsRunning(serve);
    process.kill(serve.child.pid!, "SIGKILL");
    await closedOrGaveUp(serve, "SIGKILL to npm");
    await listenOn(port);
    assert.match(serve.stderr(), /info +the process that started serve is gone: stopping\n/);
  });
});
