// `npm run serve` (and the bench) as a newcomer meets them: right after `npm ci` (a copy of this checkout with nothing
// built, its node_modules linked), with npm's own ways of eating options, offline, on a taken port, and on the first
// and later runs. Each serve is what package.json's serve script runs, in a process of its own.
import assert from "node:assert/strict";
import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { after, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { serveScriptArguments } from "../../scripts/bench/serveProcess.ts";
import { callApi } from "../support/apiClient.ts";
import { waitFor } from "../support/waitFor.ts";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const KEY = "0123456789abcdef0123456789abcdef";
/** A first start bundles the service and builds the dashboard before it listens. */
const LISTEN_TIMEOUT_MS = 120_000;

interface ServeProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly stdout: () => string;
  readonly stderr: () => string;
  /** Resolves with its exit code once it and everything it started have closed its output. */
  readonly exited: Promise<number | null>;
  /** Sends the signal to it, or to its whole process group when it was started as one (npm and its script). */
  signal(signal: NodeJS.Signals): void;
}

const running: ServeProcess[] = [];
after(async () => {
  for (const serve of running) if (serve.child.exitCode === null && serve.child.signalCode === null) serve.signal("SIGKILL");
  await Promise.all(running.map((serve) => serve.exited));
});

/**
 * Starts a command; with `group`, in a process group of its own, signalled as a whole as a terminal's Ctrl-C does
 * (npm does not pass a SIGTERM of its own on to the script it runs).
 */
function start(command: string, args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; group?: boolean } = {}): ServeProcess {
  const child = spawn(command, args, {
    cwd: options.cwd ?? REPO,
    env: { ...process.env, GASFEES_PORT: "", NODE_TEST_CONTEXT: "", ...options.env },
    detached: options.group ?? false,
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
  const serve: ServeProcess = {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    signal: (signal) => {
      try {
        if (options.group) process.kill(-child.pid!, signal);
        else child.kill(signal);
      } catch {
        // Already gone.
      }
    },
  };
  running.push(serve);
  return serve;
}

/** What `npm run serve -- <args>` runs, in `cwd`, with a settings folder of its own (GASFEES_CONFIG_DIR). */
function runServe(args: readonly string[], options: { cwd?: string; configDir?: string; env?: NodeJS.ProcessEnv } = {}): ServeProcess {
  return start(process.execPath, [...serveScriptArguments(), ...args], {
    cwd: options.cwd ?? REPO,
    env: { GASFEES_CONFIG_DIR: options.configDir ?? temporaryDir("gasfees-config-"), ...options.env },
  });
}

async function listeningUrl(serve: ServeProcess): Promise<string> {
  return waitFor(`the listening line (stderr: ${serve.stderr()})`, () => /^gasfees listening on (http:\/\/127\.0\.0\.1:\d+)\n$/.exec(serve.stdout())?.[1], {
    timeoutMs: LISTEN_TIMEOUT_MS,
    everyMs: 25,
  });
}

async function stop(serve: ServeProcess): Promise<void> {
  serve.signal("SIGTERM");
  await serve.exited;
}

const temporaryDirs: string[] = [];
after(() => {
  for (const dir of temporaryDirs) rmSync(dir, { recursive: true, force: true });
});

function temporaryDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temporaryDirs.push(dir);
  return dir;
}

/**
 * This checkout's files as they are now (tracked and new, nothing ignored: no dist/), with its node_modules linked:
 * what a clone holds right after `npm ci`.
 */
function freshCopy(): string {
  const copy = temporaryDir("gasfees-fresh-");
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: REPO, encoding: "utf8" }).split("\0");
  for (const file of files) {
    if (file === "" || !existsSync(join(REPO, file))) continue;
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(join(REPO, file), join(copy, file));
  }
  symlinkSync(join(REPO, "node_modules"), join(copy, "node_modules"));
  return copy;
}

/** A local RPC URL where nothing listens: a chain that cannot be reached, at once. */
async function deadRpcUrl(): Promise<string> {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

const count = (text: string, pattern: RegExp) => [...text.matchAll(new RegExp(pattern.source, "g"))].length;

describe("right after npm ci", () => {
  const copy = freshCopy();

  test("two serves started at once both serve the dashboard, built once, and stdout is the listening line only", async () => {
    assert.equal(existsSync(join(copy, "dist")), false, "nothing is built yet");
    const chain = `31337=${await deadRpcUrl()}`;
    const serves = [
      runServe(["--port", "0", "--chain", chain, "--api-key", KEY], { cwd: copy }),
      runServe(["--port", "0", "--chain", chain, "--api-key", KEY], { cwd: copy }),
    ];
    const urls = await Promise.all(serves.map(listeningUrl));
    const stderr = serves.map((serve) => serve.stderr()).join("\n");
    assert.equal(count(stderr, /dashboard built into dist\/renderer\/ in [\d.]+ s/), 1, `built once: ${stderr}`);
    assert.match(stderr, /gasfees: the dashboard is not built yet: building it \(vite build into dist\/renderer\/\)/);
    for (const [i, url] of urls.entries()) {
      assert.equal(serves[i]!.stdout(), `gasfees listening on ${url}\n`);
      const page = await fetch(`${url}/`);
      assert.equal(page.status, 200);
      assert.match(page.headers.get("content-type") ?? "", /^text\/html/);
      const html = await page.text();
      assert.match(html, /<div id="root"><\/div>/);
      const script = /<script type="module" crossorigin src="\.\/(assets\/[^"]+\.js)"/.exec(html)?.[1];
      assert.ok(script, html);
      assert.equal((await fetch(`${url}/${script}`)).status, 200);
    }
    await Promise.all(serves.map(stop));
  });

  test("a renderer source saved after the build is built again; an up-to-date build is left alone", async () => {
    const chain = `31337=${await deadRpcUrl()}`;
    // Built (by the test above, or now).
    const before = runServe(["--port", "0", "--chain", chain, "--api-key", KEY], { cwd: copy });
    await listeningUrl(before);
    await stop(before);
    // Saved now: after that build.
    const now = new Date();
    utimesSync(join(copy, "renderer/src/App.tsx"), now, now);
    const first = runServe(["--port", "0", "--chain", chain, "--api-key", KEY], { cwd: copy });
    await listeningUrl(first);
    assert.match(first.stderr(), /renderer\/src\/App\.tsx changed since the dashboard was built: building it/);
    assert.match(first.stderr(), /dashboard built into/);
    await stop(first);
    const second = runServe(["--port", "0", "--chain", chain, "--api-key", KEY], { cwd: copy });
    await listeningUrl(second);
    assert.doesNotMatch(second.stderr(), /building|built/);
    await stop(second);
  });
});

describe("usage", () => {
  test("serve --help prints the usage on stdout and builds nothing; a bad argument exits 2 with the usage", async () => {
    const copy = freshCopy();
    const help = runServe(["--help"], { cwd: copy });
    assert.equal(await help.exited, 0);
    assert.match(help.stdout(), /^Usage: npm run serve -- \[options\]/);
    assert.equal(existsSync(join(copy, "dist/renderer")), false, "no dashboard built for --help");
    const bad = runServe(["--bogus"], { cwd: copy });
    assert.equal(await bad.exited, 2);
    assert.match(bad.stderr(), /Unknown option '--bogus'[\s\S]*Usage: npm run serve -- \[options\]/);
    assert.equal(bad.stdout(), "");
  });

  test("npm run bench -- --help prints its usage and exits 0; a bench that does not exist exits 2 naming the ones that do", async () => {
    const bench = (args: string[]) => start(process.execPath, ["--import", "tsx", "scripts/bench/runBench.ts", ...args]);
    const help = bench(["--help"]);
    assert.equal(await help.exited, 0);
    assert.match(help.stdout(), /^Usage: npm run bench -- \[feed\|[a-z|]+ \.\.\.\]/);
    // Every word the usage names selects a bench: none of them is refused as unknown.
    const words = /\[([a-z|]+) \.\.\.\]/.exec(help.stdout())![1]!.split("|");
    assert.ok(words.includes("history") && words.includes("freshness"), words.join(" "));
    assert.doesNotMatch(help.stdout(), /\| measurement \|/, "no table");
    const bogus = bench(["bogus"]);
    assert.equal(await bogus.exited, 2);
    assert.match(bogus.stderr(), /no bench is called 'bogus'/);
    assert.match(bogus.stderr(), /Usage: npm run bench/);
    assert.equal(bogus.stdout(), "");
  });
});

describe("npm run serve", () => {
  test("a taken port is named and found before anything starts: no demo node", async () => {
    const holder = createServer().listen(0, "127.0.0.1");
    await once(holder, "listening");
    const { port } = holder.address() as AddressInfo;
    try {
      const serve = runServe(["--demo", "--port", String(port)]);
      assert.equal(await serve.exited, 1);
      assert.match(serve.stderr(), new RegExp(`gasfees: cannot listen on 127\\.0\\.0\\.1:${port}: the port is already in use: pick another with --port N`));
      assert.doesNotMatch(serve.stderr(), /demo chain/, "the demo's node was not started");
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  test("npm run serve --demo (no --): npm keeps the option, yet serve runs the demo, saying so in one line with what to type next time", async () => {
    // Through npm itself, as the user types it: npm takes --demo and passes the rest.
    const serve = start("npm", ["run", "serve", "--demo", "--", "--port", "0", "--api-key", KEY], {
      env: { GASFEES_CONFIG_DIR: temporaryDir("gasfees-config-") },
      group: true,
    });
    const url = await waitFor(
      "serve's listening line",
      () => /gasfees listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(serve.stdout())?.[1],
      LISTEN_TIMEOUT_MS,
    );
    // (npm says "Unknown cli config" first, in a line of its own.)
    const said = serve
      .stderr()
      .split("\n")
      .filter((line) => line.includes("npm kept"));
    assert.equal(said.length, 1, serve.stderr());
    assert.match(
      said[0]!,
      /info +npm kept --demo for itself \(npm run passes options to the script only after "--"\), so serve took it from npm: next time, type {2}npm run serve -- --demo --port 0 --api-key [0-9a-f]{32}$/,
    );
    const networks = (await callApi<Array<{ chainId: number; name: string }>>(url, "/networks", KEY)).body;
    assert.deepEqual(
      networks.map((chain) => chain.chainId),
      [31337],
      "the demo's chain only, not the default chains",
    );
    assert.match(networks[0]!.name, /^Demo/);
    await stop(serve);
  });

  test("npm run serve --port --host (no --): values npm passed on alone that cannot be paired are not guessed: what to type, exit 2", async () => {
    const serve = start("npm", ["run", "serve", "--port", "0", "--host", "127.0.0.1"], {
      env: { GASFEES_CONFIG_DIR: temporaryDir("gasfees-config-") },
      group: true,
    });
    assert.equal(await serve.exited, 2, serve.stderr());
    assert.match(
      serve.stderr(),
      /gasfees: npm kept --port --host for itself \(npm run passes options to the script only after "--"\), and passed their values on alone: type {2}npm run serve -- --port <value> --host <value>\n/,
    );
    assert.doesNotMatch(serve.stdout(), /listening/);
  });

  test("with no chain reachable: one short line per chain, then one hint that suggests the demo; the details at debug level and in /networks", async () => {
    const configDir = temporaryDir("gasfees-config-");
    const settingsFile = join(configDir, "offline.json");
    writeFileSync(
      settingsFile,
      JSON.stringify({
        version: 2,
        chains: [
          { chainId: 1, rpcUrls: [await deadRpcUrl(), await deadRpcUrl()] },
          { chainId: 10, rpcUrls: [await deadRpcUrl()] },
        ],
      }),
    );
    const serve = runServe(["--port", "0", "--config", settingsFile, "--api-key", KEY], { configDir });
    const url = await listeningUrl(serve);
    const hint =
      /warn +no chain answers: check the network connection or the RPC URLs \(--chain, or "chains" in the settings\)\. To try gasfees offline: npm run serve -- --demo$/m;
    await waitFor("the hint", () => (hint.test(serve.stderr()) ? true : undefined), 60_000);
    // The feeds keep trying (each endpoint's next attempt moves on); nothing more is said.
    const networks = async () =>
      (await callApi<Array<{ state: string; endpoints: Array<{ retryAt?: number; lastError?: string }> }>>(url, "/networks", KEY)).body;
    const then = (await networks()).flatMap((chain) => chain.endpoints.map((endpoint) => endpoint.retryAt ?? 0));
    await waitFor(
      "every endpoint tried again",
      async () => ((await networks()).flatMap((chain) => chain.endpoints).every((endpoint, i) => (endpoint.retryAt ?? 0) > then[i]!) ? true : undefined),
      60_000,
    );
    // After the dashboard's address: a line per chain, then the hint, each short (the timestamp included).
    const lines = serve.stderr().split("\n");
    const said = lines.slice(lines.findIndex((line) => line.startsWith("dashboard: ")) + 1).filter((line) => line !== "");
    assert.equal(said.length, 3, said.join("\n"));
    const chainLine = (chainId: number) =>
      new RegExp(`error +chain ${chainId}: no RPC endpoint answers \\(\\d tried; last: connect ECONNREFUSED 127\\.0\\.0\\.1:\\d+\\); no data until one does$`);
    assert.deepEqual(
      said
        .slice(0, 2)
        .map((line) => [chainLine(1), chainLine(10)].findIndex((pattern) => pattern.test(line)))
        .sort(),
      [0, 1],
      said.join("\n"),
    );
    assert.match(said[2]!, hint);
    for (const line of said) assert.ok(line.length <= 190, `${line.length} characters: ${line}`);
    // The full errors: in /networks (and in the debug lines, GASFEES_LOG_LEVEL=debug: see chainFeedFailover.test.ts).
    for (const chain of await networks()) {
      assert.equal(chain.state, "unreachable");
      for (const endpoint of chain.endpoints) assert.match(endpoint.lastError ?? "", /^eth_chainId at http:\/\/127\.0\.0\.1:\d+ failed: connect ECONNREFUSED/);
    }
    await stop(serve);
  });

  test("the first run shows the new key and where it is stored; later runs show it masked, and where the full key is", async () => {
    const configDir = temporaryDir("gasfees-config-");
    const chain = `31337=${await deadRpcUrl()}`;
    const first = runServe(["--port", "0", "--chain", chain], { configDir });
    await listeningUrl(first);
    await stop(first);
    const settingsFile = join(configDir, "settings.json");
    const key = (JSON.parse(readFileSync(settingsFile, "utf8")) as { apiKeys: Array<{ key: string }> }).apiKeys[0]!.key;
    assert.match(first.stderr(), new RegExp(`created an API key and stored it in ${settingsFile}: ${key}`));
    const second = runServe(["--port", "0", "--chain", chain], { configDir });
    await listeningUrl(second);
    await stop(second);
    assert.match(second.stderr(), new RegExp(`API key from ${settingsFile}: ${key.slice(0, 4)}…${key.slice(-4)} \\(the full key is there, under "apiKeys"\\)`));
    assert.equal(second.stderr().includes(key), false, "the stored key is not printed in full again");
  });

  test("a settings.json nested 200,000 deep is set aside as corrupt; serve writes its new settings and runs", async () => {
    const configDir = temporaryDir("gasfees-config-");
    const settingsFile = join(configDir, "settings.json");
    const deep = `{"version":3,"alerts":[${"[".repeat(200_000)}${"]".repeat(200_000)}]}`;
    writeFileSync(settingsFile, deep, { mode: 0o600 });
    const serve = runServe(["--port", "0", "--chain", `31337=${await deadRpcUrl()}`], { configDir });
    const url = await listeningUrl(serve);
    // Its first write (the key it made) went through: the settings file is new and valid, the old one kept beside it.
    const key = (JSON.parse(readFileSync(settingsFile, "utf8")) as { apiKeys: Array<{ key: string }> }).apiKeys[0]!.key;
    assert.equal((await fetch(`${url}/healthz`)).status, 200);
    await stop(serve);
    assert.match(
      serve.stderr(),
      /settings were not valid, so defaults are used; the old file is kept as .*settings\.json\.corrupt-.*nested more than 64 levels deep/,
    );
    assert.match(serve.stderr(), new RegExp(`created an API key and stored it in ${settingsFile}: ${key}`));
    assert.doesNotMatch(serve.stderr(), /RangeError/);
    const kept = readdirSync(configDir).filter((name) => name.startsWith("settings.json.corrupt-"));
    assert.equal(kept.length, 1);
    assert.equal(readFileSync(join(configDir, kept[0]!), "utf8"), deep);
  });
});
