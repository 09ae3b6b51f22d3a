// scripts/ensureElectron.ts in plain Node: when the Electron binary is fetched, refused or given up on, and what is
// said each time. The fetch runs for real (@electron/get's downloader and cache, electron's own install.js unpacking)
// in a child process with a controlled environment, against a local mirror on an ephemeral port that serves a zip
// laid out like an Electron release. That zip holds no Electron: these tests prove the fetch, not Electron (the
// Electron end-to-end tests run the real binary wherever it can be had).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { type AddressInfo, createServer as createTcpServer } from "node:net";
import type { Duplex } from "node:stream";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, before, test } from "node:test";
import { pathToFileURL } from "node:url";
import { crc32 } from "node:zlib";
import { electronPackageDir, findElectronBinary } from "../../scripts/electronBinary.ts";
import {
  checkReachable,
  downloadRoute,
  electronUnavailableMessage,
  explainFetchFailure,
  formatBytes,
  ignoredProxyHint,
  planElectronFetch,
  progressReporter,
} from "../../scripts/ensureElectron.ts";

const repoRoot = resolve(import.meta.dirname, "../..");
const version = (JSON.parse(readFileSync(join(electronPackageDir(), "package.json"), "utf8")) as { version: string }).version;
const zipName = `electron-v${version}-${process.platform}-${process.arch}.zip`;
const executable = process.platform === "darwin" ? "Electron.app/Contents/MacOS/Electron" : process.platform === "win32" ? "electron.exe" : "electron";

// ---- the decision, the route and the words: pure ----

const missing = { found: false, reason: "Electron 45.5.0 has not been fetched into /x/dist yet (npm ci leaves it out)" } as const;
const present = { found: true, path: "/x/dist/electron", version: "45.5.0", source: "the electron npm package 45.5.0" } as const;

test("a binary that is there is never fetched; a missing one is, unless the environment says it comes from elsewhere", () => {
  assert.deepEqual(planElectronFetch(present, {}), { kind: "present", binary: present });
  assert.deepEqual(planElectronFetch(present, { ELECTRON_SKIP_BINARY_DOWNLOAD: "1" }), { kind: "present", binary: present });
  assert.deepEqual(planElectronFetch(missing, {}), { kind: "fetch" });
  const skipped = planElectronFetch(missing, { ELECTRON_SKIP_BINARY_DOWNLOAD: "1" });
  assert.equal(skipped.kind, "refuse");
  assert.match(skipped.kind === "refuse" ? skipped.reason : "", /not been fetched.*ELECTRON_SKIP_BINARY_DOWNLOAD is set, so it is not fetched: unset it/);
  const overridden = planElectronFetch(missing, { ELECTRON_OVERRIDE_DIST_PATH: "/opt/electron" });
  assert.equal(overridden.kind, "refuse");
  assert.match(
    overridden.kind === "refuse" ? overridden.reason : "",
    /not fetched while ELECTRON_OVERRIDE_DIST_PATH is set: unset it, or unzip Electron there/,
  );
});

test("the first connection goes to the download's host, or to the proxy only when ELECTRON_GET_USE_PROXY is set", () => {
  const github = "https://github.com/electron/electron/releases/download/v45.5.0/electron-v45.5.0-linux-x64.zip";
  assert.deepEqual(downloadRoute(github, {}), { host: "github.com", port: 443, proxy: undefined });
  assert.deepEqual(downloadRoute("http://mirror.example:8080/electron/v1/e.zip", {}), { host: "mirror.example", port: 8080, proxy: undefined });
  assert.deepEqual(downloadRoute(github, { HTTPS_PROXY: "http://proxy.example:3128" }), { host: "github.com", port: 443, proxy: undefined });
  assert.deepEqual(downloadRoute(github, { ELECTRON_GET_USE_PROXY: "1", https_proxy: "http://proxy.example:3128" }), {
    host: "proxy.example",
    port: 3128,
    proxy: "http://proxy.example:3128",
  });
  assert.deepEqual(downloadRoute(github, { ELECTRON_GET_USE_PROXY: "1", HTTP_PROXY: "http://[::1]" }), { host: "::1", port: 80, proxy: "http://[::1]" });
  // As undici's EnvHttpProxyAgent chooses (what @electron/get 5 installs): an http URL goes through HTTP_PROXY only,
  // NO_PROXY exempts a host and its subdomains, and global-agent's GLOBAL_AGENT_* (@electron/get 2's) are not read.
  const mirror = "http://mirror.example:8080/electron/v1/e.zip";
  assert.deepEqual(downloadRoute(mirror, { ELECTRON_GET_USE_PROXY: "1", HTTPS_PROXY: "http://proxy.example:3128" }), {
    host: "mirror.example",
    port: 8080,
    proxy: undefined,
  });
  assert.equal(
    downloadRoute(mirror, { ELECTRON_GET_USE_PROXY: "1", http_proxy: "http://a.example:1", HTTP_PROXY: "http://b.example:2" }).proxy,
    "http://a.example:1",
  );
  const proxied = { ELECTRON_GET_USE_PROXY: "1", HTTPS_PROXY: "http://proxy.example:3128" };
  assert.equal(downloadRoute(github, { ...proxied, NO_PROXY: "example.org, .github.com" }).proxy, undefined);
  assert.equal(downloadRoute(github, { ...proxied, no_proxy: "github.com:8443" }).proxy, "http://proxy.example:3128");
  assert.equal(downloadRoute(github, { ...proxied, NO_PROXY: "*" }).proxy, undefined);
  assert.equal(downloadRoute(github, { ELECTRON_GET_USE_PROXY: "1", GLOBAL_AGENT_HTTPS_PROXY: "http://proxy.example:3128" }).proxy, undefined);
  assert.match(ignoredProxyHint({ HTTPS_PROXY: "http://proxy.example:3128" }), /uses it only with ELECTRON_GET_USE_PROXY=1/);
  assert.equal(ignoredProxyHint({ HTTPS_PROXY: "http://proxy.example:3128", ELECTRON_GET_USE_PROXY: "1" }), "");
  assert.equal(ignoredProxyHint({}), "");
});

test("a host that does not resolve and a port that refuses are told apart, from the real errors", async () => {
  const dns = await checkReachable("electron-mirror.invalid", 443, 10_000);
  const route = { host: "electron-mirror.invalid", port: 443, proxy: undefined };
  assert.match(
    explainFetchFailure(dns, route, 10_000),
    /^electron-mirror\.invalid does not resolve \(DNS lookup failed: E[A-Z_]+\), so this machine cannot reach it$/,
  );
  const closedPort = await unusedPort();
  const refused = await checkReachable("127.0.0.1", closedPort, 10_000);
  assert.equal(
    explainFetchFailure(refused, { host: "127.0.0.1", port: closedPort, proxy: undefined }, 10_000),
    `127.0.0.1 refused the connection on port ${closedPort}`,
  );
  const through = { host: "proxy.example", port: 3128, proxy: "http://proxy.example:3128" };
  assert.match(explainFetchFailure(refused, through, 10_000), /^the proxy http:\/\/proxy\.example:3128 refused the connection/);
});

test("fetch's own failures (the network's error in its cause) are told apart too", async () => {
  const closedPort = await unusedPort();
  const refused = await fetch(`http://127.0.0.1:${closedPort}/e.zip`).catch((error: unknown) => error);
  assert.equal((refused as Error).message, "fetch failed", "fetch keeps the reason in its cause");
  assert.equal(
    explainFetchFailure(refused, { host: "127.0.0.1", port: closedPort, proxy: undefined }, 10_000),
    `127.0.0.1 refused the connection on port ${closedPort}`,
  );
  const unresolved = await fetch("http://electron-mirror.invalid/e.zip").catch((error: unknown) => error);
  assert.match(
    explainFetchFailure(unresolved, { host: "electron-mirror.invalid", port: 80, proxy: undefined }, 10_000),
    /^electron-mirror\.invalid does not resolve \(DNS lookup failed: E[A-Z_]+\)/,
  );
  // undici's refusal of a proxy tunnel, two causes deep; @electron/get's HTTPError carries fetch's Response.
  const tunnel = new TypeError("fetch failed", {
    cause: new Error("Request was cancelled.", { cause: new Error("Proxy response (403) !== 200 when HTTP Tunneling") }),
  });
  const through = { host: "proxy.example", port: 3128, proxy: "http://proxy.example:3128" };
  assert.equal(explainFetchFailure(tunnel, through, 10_000), "the proxy http://proxy.example:3128 refused to connect to the download (HTTP 403)");
  const httpError = Object.assign(new Error("Response code 500"), { response: { status: 500, url: "https://mirror.example/e.zip" } });
  assert.equal(
    explainFetchFailure(httpError, { host: "mirror.example", port: 443, proxy: undefined }, 10_000),
    "the download answered HTTP 500 for https://mirror.example/e.zip",
  );
});

test("a listening port is reachable", async (t) => {
  const server = await listen(createServer());
  t.after(() => server.close());
  assert.equal(await checkReachable("127.0.0.1", (server.address() as AddressInfo).port, 10_000), undefined);
});

test("sizes are said in B, kB or MB, and progress once per tenth in a log, once per percent on a terminal", () => {
  assert.deepEqual([formatBytes(512), formatBytes(2_500), formatBytes(105_312_345)], ["512 B", "2.5 kB", "105.3 MB"]);
  const logLines: string[] = [];
  const log = progressReporter("gasfees: Electron 45.5.0", (text) => logLines.push(text), false);
  for (let transferred = 0; transferred <= 100_000_000; transferred += 1_000_000) log({ percent: transferred / 1e8, transferred, total: 1e8 });
  assert.equal(logLines[0], "  size  100.0 MB\n");
  assert.deepEqual(logLines.slice(1, 3), ["gasfees: Electron 45.5.0: 0 B of 100.0 MB (0%)\n", "gasfees: Electron 45.5.0: 10.0 MB of 100.0 MB (10%)\n"]);
  assert.equal(logLines.length, 1 + 11);
  assert.equal(logLines.at(-1), "gasfees: Electron 45.5.0: 100.0 MB of 100.0 MB (100%)\n");
  const terminal: string[] = [];
  const onTerminal = progressReporter("E", (text) => terminal.push(text), true);
  for (let transferred = 0; transferred <= 1000; transferred += 5) onTerminal({ percent: transferred / 1000, transferred, total: 1000 });
  assert.equal(terminal.length, 1 + 101);
  assert.equal(terminal[1], "\rE: 0 B of 1.0 kB (0%)");
  assert.equal(terminal.at(-1), "\rE: 1.0 kB of 1.0 kB (100%)\n");
});

test("what npm start and npm run dist say without the binary: why, and what to do instead", () => {
  const text = electronUnavailableMessage("start", "github.com does not resolve");
  assert.match(text, /^gasfees: cannot start the desktop app: github\.com does not resolve\n\n/);
  assert.match(text, /`npm run serve` runs the same service and serves the same dashboard in a browser/);
  assert.match(text, /on a network that reaches github\.com/);
  assert.match(text, /set ELECTRON_MIRROR to a mirror/);
  assert.match(text, /ELECTRON_GET_USE_PROXY=1 with HTTPS_PROXY/);
  assert.match(text, /ELECTRON_OVERRIDE_DIST_PATH/);
  assert.match(electronUnavailableMessage("dist", "x"), /^gasfees: cannot build the installers: x\n/);
});

// ---- npm ci never downloads; the three commands fetch first ----

const packageJson = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as {
  allowScripts: Record<string, boolean>;
  scripts: Record<string, string>;
};

test("npm ci never runs electron's install script (it has none since Electron 42, and package.json's allowScripts denies one)", () => {
  const electronScripts = (JSON.parse(readFileSync(join(electronPackageDir(), "package.json"), "utf8")) as { scripts?: Record<string, string> }).scripts ?? {};
  assert.deepEqual(
    ["preinstall", "install", "postinstall"].filter((name) => name in electronScripts),
    [],
    "the electron package runs nothing at install",
  );
  assert.equal(packageJson.allowScripts.electron, false);
  const allowedElectronEntries = Object.entries(packageJson.allowScripts).filter(([name, allowed]) => /^electron(@|$)/.test(name) && allowed !== false);
  assert.deepEqual(allowedElectronEntries, []);
});

test("npm run dist and npm run test:electron fetch Electron before anything else; npm start does so in scripts/start.ts", () => {
  assert.match(packageJson.scripts.dist!, /^tsx scripts\/ensureElectron\.ts --for dist && /);
  assert.match(packageJson.scripts["test:electron"]!, /^tsx scripts\/ensureElectron\.ts --for tests && playwright test /);
  assert.equal(packageJson.scripts.start, "tsx scripts/start.ts");
});

test("npm start, npm run dist and the demanded Electron tests stop at once, saying why, when the binary cannot be had", async () => {
  const nowhere = mkdtempSync(join(tmpdir(), "gasfees-no-electron-"));
  try {
    const env = { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: nowhere };
    const start = await run(npm(), ["run", "--silent", "start"], { env });
    assert.equal(start.code, 1, start.stderr);
    assert.match(start.stderr, new RegExp(`gasfees: cannot start the desktop app: ELECTRON_OVERRIDE_DIST_PATH=${escape(nowhere)} has no Electron binary`));
    assert.match(start.stderr, /`npm run serve` runs the same service/);
    const dist = await run(npm(), ["run", "--silent", "dist"], { env });
    assert.equal(dist.code, 1, dist.stderr);
    assert.match(dist.stderr, /gasfees: cannot build the installers: ELECTRON_OVERRIDE_DIST_PATH=/);
    const tests = await run(npm(), ["run", "--silent", "test:electron"], { env: { ...env, GASFEES_REQUIRE_ELECTRON: "1" } });
    assert.equal(tests.code, 1, tests.stderr);
    assert.match(
      tests.stderr,
      /gasfees: the Electron end-to-end tests FAIL: Electron binary missing: ELECTRON_OVERRIDE_DIST_PATH=.*GASFEES_REQUIRE_ELECTRON=1 demands/s,
    );
  } finally {
    rmSync(nowhere, { recursive: true, force: true });
  }
});

// ---- the fetch itself, in a child process, from a local mirror ----

/** What the local mirror does with the next request for the zip. */
type MirrorMode = "serve" | "corrupt" | "missing" | "stall" | "stall-midway";

let mirror: Server;
let mirrorUrl: string;
let mirrorMode: MirrorMode = "serve";
const mirrorRequests: string[] = [];
const zip = storedZip([
  { name: executable, data: Buffer.alloc(2_000_000, 7), mode: 0o100755 },
  { name: "version", data: Buffer.from(version), mode: 0o100644 },
]);
const stalled: ServerResponse[] = [];

/** The local mirror: Electron's release layout, behaving as `mirrorMode` says. */
function mirrorHandler(request: IncomingMessage, response: ServerResponse): void {
  mirrorRequests.push(request.url ?? "");
  if (request.url !== `/v${version}/${zipName}` || mirrorMode === "missing") return void response.writeHead(404).end("not found");
  if (mirrorMode === "stall") return void stalled.push(response);
  const body = mirrorMode === "corrupt" ? Buffer.from(zip).fill(1, 100, 200) : zip;
  response.writeHead(200, { "content-type": "application/zip", "content-length": body.length });
  // The headers and a first piece, then nothing more.
  if (mirrorMode === "stall-midway") {
    response.write(body.subarray(0, 65_536));
    return void stalled.push(response);
  }
  // In 64 KiB pieces, each written once the last has drained, so the downloader reports its progress along the way.
  const writeFrom = (offset: number): void => {
    if (offset >= body.length) return void response.end();
    if (response.write(body.subarray(offset, offset + 65_536))) setImmediate(() => writeFrom(offset + 65_536));
    else response.once("drain", () => writeFrom(offset + 65_536));
  };
  writeFrom(0);
}

before(async () => {
  mirror = await listen(createServer(mirrorHandler));
  mirrorUrl = `http://127.0.0.1:${(mirror.address() as AddressInfo).port}/`;
});

after(() => {
  for (const response of stalled) response.destroy();
  mirror.close();
  mirror.closeAllConnections();
});

/** A copy of the installed electron package (no binary) whose checksums.json lists the local mirror's zip. */
function electronPackageCopy(): { dir: string; packageDir: string; cache: string } {
  const dir = mkdtempSync(join(tmpdir(), "gasfees-ensure-electron-"));
  const packageDir = join(dir, "electron");
  mkdirSync(packageDir);
  for (const file of ["package.json", "install.js"]) copyFileSync(join(electronPackageDir(), file), join(packageDir, file));
  writeFileSync(join(packageDir, "checksums.json"), JSON.stringify({ [zipName]: createHash("sha256").update(zip).digest("hex") }));
  // install.js and our script load @electron/get and extract-zip from the package's surroundings, as in node_modules.
  symlinkSync(join(repoRoot, "node_modules"), join(dir, "node_modules"), "junction");
  return { dir, packageDir, cache: join(dir, "cache") };
}

async function ensureInChild(
  need: "start" | "tests",
  packageDir: string,
  env: NodeJS.ProcessEnv,
  options: { stallTimeoutMs?: number } = {},
): Promise<{ code: number | null; stderr: string }> {
  const entry = pathToFileURL(join(repoRoot, "scripts/ensureElectron.ts")).href;
  const code = `const { runEnsureElectron } = await import(${JSON.stringify(entry)}); const [need, options] = process.argv.slice(1); process.exit(await runEnsureElectron(need, JSON.parse(options)));`;
  // Only what the fetch reads: none of this machine's mirrors, proxies or caches.
  const childEnv = { PATH: process.env.PATH, HOME: packageDir, ...env };
  return run(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code, "--", need, JSON.stringify({ packageDir, ...options })], {
    env: childEnv,
  });
}

test("a missing binary is fetched with what, from where, its size and progress, then unpacked by install.js; the next run says nothing", async (t) => {
  const { dir, packageDir, cache } = electronPackageCopy();
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  mirrorMode = "serve";
  assert.equal(findElectronBinary({}, packageDir).found, false);
  const first = await ensureInChild("start", packageDir, { ELECTRON_MIRROR: mirrorUrl, electron_config_cache: cache });
  assert.equal(first.code, 0, first.stderr);
  const url = `${mirrorUrl}v${version}/${zipName}`;
  assert.match(first.stderr, new RegExp(`^gasfees: fetching Electron ${escape(version)} for ${process.platform}-${process.arch} \\(npm ci leaves it out`));
  assert.match(
    first.stderr,
    new RegExp(`\\n  from  ${escape(url)}\\n  into  ${escape(join(packageDir, "dist"))} \\(the zip is kept in ${escape(cache)}\\)\\n`),
  );
  assert.match(first.stderr, new RegExp(`\\n  size  ${escape(formatBytes(zip.length))}\\n`));
  assert.match(
    first.stderr,
    new RegExp(`gasfees: Electron ${escape(version)}: ${escape(formatBytes(zip.length))} of ${escape(formatBytes(zip.length))} \\(100%\\)\\n`),
  );
  assert.match(first.stderr, new RegExp(`gasfees: ready: Electron ${escape(version)} at ${escape(join(packageDir, "dist", executable))}`));
  const binary = findElectronBinary({}, packageDir);
  assert.equal(binary.found && binary.path, join(packageDir, "dist", executable));
  assert.equal(binary.found && binary.version, version);

  const requestsBefore = mirrorRequests.length;
  const second = await ensureInChild("start", packageDir, { ELECTRON_MIRROR: mirrorUrl, electron_config_cache: cache });
  assert.deepEqual(second, { code: 0, stderr: "" });
  assert.equal(mirrorRequests.length, requestsBefore);
});

test("a zip already in the cache is unpacked without any connection, even with its mirror gone", async (t) => {
  const { dir, packageDir, cache } = electronPackageCopy();
  const ownMirror = await listen(createServer(mirrorHandler));
  t.after(() => {
    ownMirror.close();
    rmSync(dir, { recursive: true, force: true });
  });
  mirrorMode = "serve";
  const env = { ELECTRON_MIRROR: `http://127.0.0.1:${(ownMirror.address() as AddressInfo).port}/`, electron_config_cache: cache };
  assert.equal((await ensureInChild("start", packageDir, env)).code, 0);
  await new Promise((resolve) => ownMirror.close(resolve));
  rmSync(join(packageDir, "dist"), { recursive: true });
  rmSync(join(packageDir, "path.txt"));
  const again = await ensureInChild("start", packageDir, env);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stderr, new RegExp(`\\n  from  ${escape(cache)}\\S*\\.zip\\n  into  \\S+\\n`));
  assert.equal(findElectronBinary({}, packageDir).found, true);
});

test("a download that does not match Electron's checksum is not used, and says so", async (t) => {
  const { dir, packageDir, cache } = electronPackageCopy();
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  mirrorMode = "corrupt";
  const result = await ensureInChild("start", packageDir, { ELECTRON_MIRROR: mirrorUrl, electron_config_cache: cache });
  assert.equal(result.code, 1, result.stderr);
  assert.match(result.stderr, /gasfees: cannot start the desktop app: Electron \S+ could not be fetched from http:\/\/127\.0\.0\.1:\d+\/\S+\.zip: /);
  assert.match(result.stderr, /does not match the SHA-256 checksum Electron publishes/);
  assert.match(result.stderr, /`npm run serve` runs the same service/);
  assert.equal(findElectronBinary({}, packageDir).found, false);
  assert.deepEqual(existsSync(cache) ? readdirSync(cache, { recursive: true }).filter((name) => String(name).endsWith(".zip")) : [], []);
});

test("a mirror without the release says HTTP 404 and which variables choose the mirror", async (t) => {
  const { dir, packageDir, cache } = electronPackageCopy();
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  mirrorMode = "missing";
  const result = await ensureInChild("start", packageDir, { ELECTRON_MIRROR: mirrorUrl, electron_config_cache: cache });
  assert.equal(result.code, 1, result.stderr);
  assert.match(result.stderr, /: the download answered HTTP 404 for http:\/\/127\.0\.0\.1:\d+\/\S+\.zip: check ELECTRON_MIRROR and ELECTRON_CUSTOM_DIR\n/);
});

test("a mirror that accepts the connection and then says nothing is given up on after the stall timeout", async (t) => {
  const { dir, packageDir, cache } = electronPackageCopy();
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  mirrorMode = "stall";
  const result = await ensureInChild("start", packageDir, { ELECTRON_MIRROR: mirrorUrl, electron_config_cache: cache }, { stallTimeoutMs: 1_000 });
  assert.equal(result.code, 1, result.stderr);
  assert.match(result.stderr, /: 127\.0\.0\.1 did not answer within 1 s \(waiting for an answer\): a firewall may drop the connection/);
});

test("a download that stops halfway is given up on after the stall timeout, and nothing is unpacked", async (t) => {
  const { dir, packageDir, cache } = electronPackageCopy();
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  mirrorMode = "stall-midway";
  const result = await ensureInChild("start", packageDir, { ELECTRON_MIRROR: mirrorUrl, electron_config_cache: cache }, { stallTimeoutMs: 1_000 });
  assert.equal(result.code, 1, result.stderr);
  assert.match(result.stderr, /: 127\.0\.0\.1 did not answer within 1 s \(waiting for more of the download\)/);
  assert.equal(existsSync(join(packageDir, "dist")), false);
});

test("where the download host does not resolve, the fetch gives up with the reason and unpacks nothing", async (t) => {
  const { dir, packageDir, cache } = electronPackageCopy();
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const result = await ensureInChild("start", packageDir, { ELECTRON_MIRROR: "https://electron-mirror.invalid/", electron_config_cache: cache });
  assert.equal(result.code, 1, result.stderr);
  assert.match(
    result.stderr,
    /could not be fetched from https:\/\/electron-mirror\.invalid\/\S+: electron-mirror\.invalid does not resolve \(DNS lookup failed/,
  );
  assert.equal(existsSync(join(packageDir, "dist")), false);
});

test("a proxy that is set but not enabled for Electron's downloader is pointed out with the failure", async (t) => {
  const { dir, packageDir, cache } = electronPackageCopy();
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const closedPort = await unusedPort();
  const env = { ELECTRON_MIRROR: `http://127.0.0.1:${closedPort}/`, electron_config_cache: cache, HTTPS_PROXY: "http://127.0.0.1:9" };
  const result = await ensureInChild("start", packageDir, env);
  assert.equal(result.code, 1, result.stderr);
  assert.match(result.stderr, new RegExp(`127\\.0\\.0\\.1 refused the connection on port ${closedPort} \\(a proxy is set .* ELECTRON_GET_USE_PROXY=1`));
});

test("a proxy that asks for credentials is said so (ELECTRON_GET_USE_PROXY=1, a real proxy answering 407)", async (t) => {
  const { dir, packageDir, cache } = electronPackageCopy();
  // undici's proxy agent asks for a tunnel (CONNECT) to http URLs too; a plain request is answered alike.
  const proxy = await listen(createServer((_request, response) => response.writeHead(407, { "proxy-authenticate": 'Basic realm="proxy"' }).end()));
  proxy.on("connect", (_request: IncomingMessage, socket: Duplex) =>
    socket.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="proxy"\r\n\r\n'),
  );
  t.after(() => {
    proxy.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  const env = { ELECTRON_MIRROR: mirrorUrl, electron_config_cache: cache, ELECTRON_GET_USE_PROXY: "1", HTTP_PROXY: proxyUrl };
  const result = await ensureInChild("start", packageDir, env);
  assert.equal(result.code, 1, result.stderr);
  assert.match(result.stderr, new RegExp(`: the proxy ${escape(proxyUrl)} asks for credentials \\(HTTP 407\\)`));
});

test("for the Electron tests a binary that cannot be had is a skip with the reason, or a failure when demanded", async (t) => {
  const { dir, packageDir, cache } = electronPackageCopy();
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const env = { ELECTRON_MIRROR: "https://electron-mirror.invalid/", electron_config_cache: cache };
  const skipped = await ensureInChild("tests", packageDir, env);
  assert.equal(skipped.code, 0, skipped.stderr);
  // Why, in a line; the skip and what to do are said once, by playwright.electron.config.ts (test/commandLine.test.ts).
  assert.match(
    skipped.stderr,
    /gasfees: no Electron binary for the end-to-end tests: Electron \S+ could not be fetched from .*electron-mirror\.invalid does not resolve/,
  );
  assert.doesNotMatch(skipped.stderr, /skipped|Where it cannot be fetched/);
  const demanded = await ensureInChild("tests", packageDir, { ...env, GASFEES_REQUIRE_ELECTRON: "1" });
  assert.equal(demanded.code, 1, demanded.stderr);
  assert.match(demanded.stderr, /the Electron end-to-end tests FAIL: .*does not resolve.*GASFEES_REQUIRE_ELECTRON=1 demands the Electron tests here/s);
});

test("ELECTRON_SKIP_BINARY_DOWNLOAD keeps the fetch from happening at all", async (t) => {
  const { dir, packageDir, cache } = electronPackageCopy();
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  mirrorMode = "serve";
  const requestsBefore = mirrorRequests.length;
  const result = await ensureInChild("start", packageDir, { ELECTRON_MIRROR: mirrorUrl, electron_config_cache: cache, ELECTRON_SKIP_BINARY_DOWNLOAD: "1" });
  assert.equal(result.code, 1, result.stderr);
  assert.match(result.stderr, /^gasfees: cannot start the desktop app: Electron \S+ has not been fetched .*ELECTRON_SKIP_BINARY_DOWNLOAD is set/);
  assert.equal(mirrorRequests.length, requestsBefore);
});

// ---- helpers ----

function listen(server: Server): Promise<Server> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

/** A port nothing listens on (just released by the system). */
function unusedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createTcpServer().once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function npm(): string {
  return process.platform === "win32" ? "npm.cmd" : "npm";
}

function run(command: string, args: string[], options: { env: NodeJS.ProcessEnv }): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: repoRoot, env: options.env, stdio: ["ignore", "ignore", "pipe"], shell: process.platform === "win32" });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stderr: stderr.replace(/^npm warn .*\n/gm, "") }));
  });
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A zip with stored (uncompressed) entries and Unix modes: the layout of an Electron release, without Electron. */
function storedZip(files: readonly { name: string; data: Buffer; mode: number }[]): Buffer {
  const dosDate = ((2025 - 1980) << 9) | (1 << 5) | 1;
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const file of files) {
    const name = Buffer.from(file.name);
    const crc = crc32(file.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(dosDate, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(file.data.length, 18);
    local.writeUInt32LE(file.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(dosDate, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(file.data.length, 20);
    central.writeUInt32LE(file.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(file.mode * 0x10000, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, file.data);
    centrals.push(central, name);
    offset += local.length + name.length + file.data.length;
  }
  const centralDirectory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(centralDirectory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, centralDirectory, end]);
}
