// `npm run serve` as a user or a script starts it: what package.json's serve script runs (node with its flags on
// scripts/serve.mjs, which runs the esbuild bundle of shared/cli/serve.ts, building it first when a source is newer),
// in a real process: its stdout, its exit codes and its signals.
import assert from "node:assert/strict";
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtemp, readFile } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { serveScriptArguments } from "../../scripts/bench/serveProcess.ts";
import { loadMainnetBaseFees } from "../../shared/demo/mainnetBaseFees.ts";
import { type EvmNode, startEvmNode } from "../../shared/demo/startEvmNode.ts";
import { callApi } from "../support/apiClient.ts";
import { waitFor } from "../support/waitFor.ts";
import { expectedGwei } from "../support/independentFees.ts";

const KEY = "0123456789abcdef0123456789abcdef";
const MAINNET = loadMainnetBaseFees().baseFeesWei;
/** The first start may bundle the service (esbuild) before it listens. */
const LISTEN_TIMEOUT_MS = 60_000;

interface ServeProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly stdout: () => string;
  readonly stderr: () => string;
  /** How it ended. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function runServe(args: readonly string[], configDir: string): ServeProcess {
  const child = spawn(process.execPath, [...serveScriptArguments(), ...args], {
    env: { ...process.env, GASFEES_CONFIG_DIR: configDir, GASFEES_PORT: "", GASFEES_LOG_LEVEL: "info", NODE_TEST_CONTEXT: "" },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

async function listeningUrl(serve: ServeProcess, host = "127.0.0.1"): Promise<string> {
  const line = new RegExp(`^gasfees listening on (http://${host.replaceAll(".", "\\.")}:\\d+)\n`);
  return waitFor(`the listening line (stderr so far: ${serve.stderr()})`, () => line.exec(serve.stdout())?.[1], { timeoutMs: LISTEN_TIMEOUT_MS, everyMs: 25 });
}

/**
 * Sends `signal` and waits for the process to exit of its own accord: its handler ran (its log line says so) and it
 * exited 0. How long that takes is a benchmark's figure (npm run bench -- wrk), not a test's.
 */
async function stopCleanly(serve: ServeProcess, signal: "SIGTERM" | "SIGINT"): Promise<void> {
  serve.child.kill(signal);
  const { code, signal: killedBy } = await serve.exited;
  assert.equal(killedBy, null, `serve was killed by ${killedBy}: its ${signal} handler did not run`);
  assert.equal(code, 0, `exit code after ${signal}; stderr: ${serve.stderr()}`);
  assert.match(serve.stderr(), new RegExp(`^\\S+ info  ${signal}: stopping$`, "m"), `no "${signal}: stopping" log line`);
}

const temporaryConfigDir = () => mkdtemp(join(tmpdir(), "gasfees-serve-"));

describe("npm run serve", () => {
  let node: EvmNode;

  before(async () => {
    node = await startEvmNode();
    await node.mineBlocks(MAINNET.slice(0, 20));
  });
  after(() => node?.stop());

  test("prints exactly one line on stdout once it answers, serves the chain, and stops on SIGTERM", async () => {
    const serve = runServe(["--port", "0", "--chain", `31337=${node.url}`, "--api-key", KEY], await temporaryConfigDir());
    const url = await listeningUrl(serve);
    assert.equal((await callApi(url, "/healthz")).status, 200);
    const history = await waitFor("data for chain 31337", async () => {
      const answer = await callApi<string[]>(url, "/networks/31337/baseFeeHistory", KEY);
      return answer.status === 200 ? answer.body : undefined;
    });
    assert.deepEqual(history.slice(1), MAINNET.slice(0, 20).map(expectedGwei));
    assert.equal(serve.stdout(), `gasfees listening on ${url}\n`);
    // The dashboard's address with this run's session token, on stderr; the token is a key of the API.
    const token = new RegExp(`^dashboard: ${url.replace(/[.]/g, "\\.")}/\\?token=([0-9a-f]{32})$`, "m").exec(serve.stderr())?.[1];
    assert.ok(token, `a dashboard line in: ${serve.stderr()}`);
    assert.equal((await callApi(url, "/networks/31337/busyThreshold", token)).status, 200);
    assert.equal((await callApi(url, "/networks/31337/busyThreshold", "f".repeat(32))).status, 401);

    assert.doesNotMatch(serve.stderr(), /not only on this computer/, "no warning for the default interface");

    await stopCleanly(serve, "SIGTERM");
    assert.equal(serve.stderr().includes(KEY), false, "the key is never logged");
  });

  test("without --api-key it creates a key once, stores it, and reuses it on the next run", async () => {
    const configDir = await temporaryConfigDir();
    const first = runServe(["--port", "0", "--chain", `31337=${node.url}`], configDir);
    const firstUrl = await listeningUrl(first);
    const settings = JSON.parse(await readFile(join(configDir, "settings.json"), "utf8")) as { apiKeys: Array<{ key: string }> };
    const key = settings.apiKeys[0]!.key;
    assert.match(key, /^[0-9a-f]{32}$/);
    assert.ok(first.stderr().includes(key), "the new key is shown once");
    assert.equal((await callApi(firstUrl, "/networks", key)).status, 200);
    await stopCleanly(first, "SIGINT");

    const second = runServe(["--port", "0", "--chain", `31337=${node.url}`], configDir);
    const secondUrl = await listeningUrl(second);
    assert.equal((await callApi(secondUrl, "/networks", key)).status, 200);
    assert.equal(second.stderr().includes(key), false, "a stored key is not printed again");
    second.child.kill("SIGINT");
    await second.exited;
  });

  test("the dashboard's address stays valid across restarts: its token is kept in the settings file", async () => {
    const configDir = await temporaryConfigDir();
    const dashboardToken = (serve: ServeProcess) => /^dashboard: http:\/\/127\.0\.0\.1:\d+\/\?token=([0-9a-f]{32})$/m.exec(serve.stderr())?.[1];
    const first = runServe(["--port", "0", "--chain", `31337=${node.url}`, "--api-key", KEY], configDir);
    await listeningUrl(first);
    const token = await waitFor("the dashboard line", () => dashboardToken(first));
    const stored = JSON.parse(await readFile(join(configDir, "settings.json"), "utf8")) as { dashboardToken?: string };
    assert.equal(stored.dashboardToken, token);
    first.child.kill("SIGINT");
    await first.exited;

    const second = runServe(["--port", "0", "--chain", `31337=${node.url}`, "--api-key", KEY], configDir);
    const secondUrl = await listeningUrl(second);
    assert.equal(await waitFor("the dashboard line", () => dashboardToken(second)), token);
    assert.equal((await callApi(secondUrl, "/networks", token)).status, 200);
    second.child.kill("SIGINT");
    await second.exited;
  });

  test("a bad command line exits 2 with what to type, and nothing on stdout", async () => {
    const serve = runServe(["--chain", "0x1=https://rpc.example"], await temporaryConfigDir());
    const { code } = await serve.exited;
    assert.equal(code, 2);
    assert.match(serve.stderr(), /'0x1' is not a chain id/);
    assert.match(serve.stderr(), /Usage: npm run serve/);
    assert.equal(serve.stdout(), "");
  });

  test("a port in use is a clear message and exit 1", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const serve = runServe(["--port", String(port), "--chain", `31337=${node.url}`, "--api-key", KEY], await temporaryConfigDir());
      const { code } = await serve.exited;
      assert.equal(code, 1);
      assert.match(serve.stderr(), /port is already in use: pick another with --port N/);
    } finally {
      blocker.close();
    }
  });

  test("--host other than a loopback name is logged as a warning, and the service listens there", async () => {
    const serve = runServe(["--host", "127.0.0.2", "--port", "0", "--chain", `31337=${node.url}`, "--api-key", KEY], await temporaryConfigDir());
    try {
      const url = await listeningUrl(serve, "127.0.0.2");
      assert.match(
        serve.stderr(),
        / warn {2}listening on 127\.0\.0\.2, not only on this computer: other machines on the network can reach the API \(they still need a key\)$/m,
      );
      // It answers on that interface (to a Host the Host check allows).
      const port = Number(new URL(url).port);
      const status = await new Promise<number | undefined>((resolve, reject) => {
        httpRequest({ host: "127.0.0.2", port, path: "/healthz", headers: { Host: `localhost:${port}` }, setHost: false }, (res) => {
          res.resume();
          resolve(res.statusCode);
        })
          .on("error", reject)
          .end();
      });
      assert.equal(status, 200);
    } finally {
      serve.child.kill("SIGTERM");
      await serve.exited;
    }
  });

  test("--demo serves live data on chain 31337 with no internet: real mainnet base fees, then a new block", async () => {
    const serve = runServe(["--port", "0", "--demo", "--api-key", KEY], await temporaryConfigDir());
    try {
      const url = await listeningUrl(serve);
      const first = await waitFor(
        "demo data",
        async () => {
          const answer = await callApi<string[]>(url, "/networks/31337/baseFeeHistory", KEY);
          return answer.status === 200 && answer.body.length === 500 ? answer : undefined;
        },
        20_000,
      );
      const mainnetGwei = MAINNET.map(expectedGwei);
      const start = mainnetGwei.indexOf(first.body[0]!);
      assert.ok(start >= 0, "the history is a run of real mainnet base fees");
      assert.deepEqual(first.body, mainnetGwei.slice(start, start + 500));
      const newest = BigInt(first.headers.get("x-block-number")!);
      await waitFor(
        "a new demo block",
        async () => {
          const answer = await callApi(url, "/networks/31337/busyThreshold", KEY);
          return BigInt(answer.headers.get("x-block-number") ?? "0") > newest ? true : undefined;
        },
        6000,
      );
    } finally {
      serve.child.kill("SIGTERM");
      await serve.exited;
    }
  });
});
