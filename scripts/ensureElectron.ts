// Fetches the Electron binary the first time something needs it: `npm start`, `npm run dist` and
// `npm run test:electron` call this first (`npm ci` never downloads it: package.json's allowScripts keeps electron's
// install script off, so that installing needs only the npm registry).
//
// When the binary is there, this says nothing. When it is not, it says what it fetches (version, size, from where),
// checks in a few seconds that the download host (or the proxy) can be reached at all, downloads the release zip
// with Electron's own downloader (@electron/get: its cache, mirrors, proxy and checksums) showing the progress, and
// lets electron's own install.js unpack it from that cache. When any step fails it says why (DNS, refused, timeout,
// HTTP status, checksum) and what to do instead.
//
//   tsx scripts/ensureElectron.ts --for start|dist|tests
//
// start and dist exit 1 when the binary cannot be had; for tests that is a skip (exit 0; the reason in a line, the skip
// and what to do said by the tests' config), or a failure (exit 1) under GASFEES_REQUIRE_ELECTRON=1.
import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { connect } from "node:net";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import {
  describeElectronBinary,
  ELECTRON_MISSING_HELP,
  type ElectronBinary,
  electronPackageDir,
  electronPackageVersion,
  electronTestPlan,
  findElectronBinary,
} from "./electronBinary.ts";

/** What needs the binary: each says in its own words what it cannot do without it. */
export type ElectronNeed = "start" | "dist" | "tests";

const CANNOT: Record<Exclude<ElectronNeed, "tests">, string> = {
  start: "cannot start the desktop app",
  dist: "cannot build the installers",
};

/** How long the download host (or proxy) gets to accept a connection before the fetch gives up. */
export const REACHABILITY_TIMEOUT_MS = 5_000;
/** How long the download may wait for a connection, an answer or the next bytes before it gives up. */
export const STALL_TIMEOUT_MS = 30_000;

export type ElectronFetchPlan =
  | { readonly kind: "present"; readonly binary: ElectronBinary & { readonly found: true } }
  | { readonly kind: "refuse"; readonly reason: string }
  | { readonly kind: "fetch" };

/** Whether to fetch: never when the binary is there, nor when the environment says where it must come from instead. */
export function planElectronFetch(binary: ElectronBinary, env: NodeJS.ProcessEnv): ElectronFetchPlan {
  if (binary.found) return { kind: "present", binary };
  if (env.ELECTRON_OVERRIDE_DIST_PATH) {
    return { kind: "refuse", reason: `${binary.reason}; a binary is not fetched while ELECTRON_OVERRIDE_DIST_PATH is set: unset it, or unzip Electron there` };
  }
  if (env.ELECTRON_SKIP_BINARY_DOWNLOAD) {
    return { kind: "refuse", reason: `${binary.reason}, and ELECTRON_SKIP_BINARY_DOWNLOAD is set, so it is not fetched: unset it to fetch it` };
  }
  return { kind: "fetch" };
}

/** Where a connection to the download goes first: the download's host, or the proxy that @electron/get will use. */
export interface DownloadRoute {
  readonly host: string;
  readonly port: number;
  /** The proxy's URL when the download goes through one. */
  readonly proxy: string | undefined;
}

/**
 * The route @electron/get takes to `url`: through a proxy only when ELECTRON_GET_USE_PROXY is set (then
 * GLOBAL_AGENT_HTTPS_PROXY or HTTPS_PROXY, else the HTTP ones, names in any case, as its global-agent reads them).
 */
export function downloadRoute(url: string, env: NodeJS.ProcessEnv): DownloadRoute {
  const proxy = env.ELECTRON_GET_USE_PROXY ? proxyFromEnv(env) : undefined;
  const target = new URL(proxy ?? url);
  const port = target.port ? Number(target.port) : target.protocol === "https:" ? 443 : 80;
  return { host: target.hostname.replace(/^\[|\]$/g, ""), port, proxy };
}

function proxyFromEnv(env: NodeJS.ProcessEnv): string | undefined {
  const byLowerName = new Map(Object.entries(env).map(([name, value]) => [name.toLowerCase(), value]));
  const named = (name: string) => byLowerName.get(`global_agent_${name}`) || byLowerName.get(name) || undefined;
  return named("https_proxy") ?? named("http_proxy");
}

/** A proxy is set, but @electron/get ignores it: the hint to add to a failure. */
export function ignoredProxyHint(env: NodeJS.ProcessEnv): string {
  if (env.ELECTRON_GET_USE_PROXY || proxyFromEnv(env) === undefined) return "";
  return " (a proxy is set in HTTPS_PROXY or HTTP_PROXY, but Electron's downloader uses it only with ELECTRON_GET_USE_PROXY=1: set that too)";
}

interface ErrorFields {
  readonly name?: unknown;
  readonly code?: unknown;
  readonly message?: unknown;
  readonly hostname?: unknown;
  readonly event?: unknown;
  readonly port?: unknown;
  readonly response?: { readonly statusCode?: unknown; readonly url?: unknown };
}

/** Why a connection or download failed, in words: DNS, refused, unreachable, timeout, HTTP status, checksum. */
export function explainFetchFailure(error: unknown, route: DownloadRoute, timeoutMs: number): string {
  const fields = (typeof error === "object" && error !== null ? error : { message: String(error) }) as ErrorFields;
  const code = typeof fields.code === "string" ? fields.code : undefined;
  const host = typeof fields.hostname === "string" ? fields.hostname : route.host;
  const where = route.proxy === undefined ? host : `the proxy ${route.proxy}`;
  const status = fields.response?.statusCode;
  const firstLine = (typeof fields.message === "string" ? fields.message : String(error)).split("\n")[0]!;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "EAI_FAIL") {
    return `${route.proxy === undefined ? host : `the proxy's host ${host}`} does not resolve (DNS lookup failed: ${code}), so this machine cannot reach it`;
  }
  if (code === "ETIMEDOUT" || fields.name === "TimeoutError") {
    const during = typeof fields.event === "string" ? ` (waiting for ${fields.event})` : "";
    return `${where} did not answer within ${timeoutMs / 1000} s${during}: a firewall may drop the connection, or the network is too slow`;
  }
  if (code === "ECONNREFUSED") return `${where} refused the connection on port ${typeof fields.port === "number" ? fields.port : route.port}`;
  if (code === "ECONNRESET" || code === "EPIPE") return `the connection to ${where} was cut (${code}): a firewall or proxy may block it`;
  if (code === "EHOSTUNREACH" || code === "ENETUNREACH" || code === "ENETDOWN") return `no network route to ${where} (${code})`;
  if (code?.startsWith("ERR_TLS") || code?.includes("CERT"))
    return `the TLS certificate of ${where} was refused (${code}): where a proxy intercepts TLS, give Node its CA in NODE_EXTRA_CA_CERTS`;
  if (status === 407) return `the proxy ${route.proxy ?? ""} asks for credentials (HTTP 407): put them in its URL (http://user:password@host:port)`;
  if (typeof status === "number") {
    const url = typeof fields.response?.url === "string" ? fields.response.url : "";
    const hint = status === 404 ? ": check ELECTRON_MIRROR and ELECTRON_CUSTOM_DIR" : "";
    return `the download answered HTTP ${status}${url ? ` for ${url}` : ""}${hint}`;
  }
  const errorClass = (error as { constructor?: { name?: unknown } } | null)?.constructor?.name;
  if (errorClass === "ChecksumMismatchError") {
    return `the download does not match the SHA-256 checksum Electron publishes (${firstLine}); it was not used: a proxy or mirror may have altered it`;
  }
  return firstLine;
}

/** Whether `host:port` accepts a TCP connection within `timeoutMs`: undefined when it does, else the error. */
export function checkReachable(host: string, port: number, timeoutMs: number): Promise<Error | undefined> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(Object.assign(new Error(`no connection to ${host}:${port} within ${timeoutMs} ms`), { code: "ETIMEDOUT" }));
    }, timeoutMs);
    socket.once("connect", () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(undefined);
    });
    socket.once("error", (error) => {
      clearTimeout(timer);
      resolve(error);
    });
  });
}

/** One size for people: bytes, kB or MB (decimal). */
export function formatBytes(bytes: number): string {
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(1)} MB`;
  if (bytes >= 1e3) return `${(bytes / 1e3).toFixed(1)} kB`;
  return `${bytes} B`;
}

export interface DownloadProgress {
  readonly percent: number;
  readonly transferred: number;
  readonly total?: number | undefined;
}

/**
 * Reports a download's progress: its size once known, then the share done, rewritten in place on a terminal (every
 * percent) or one line per tenth in a log.
 */
export function progressReporter(label: string, write: (text: string) => void, onTerminal: boolean): (progress: DownloadProgress) => void {
  let sizeSaid = false;
  let lastStep = -1;
  return ({ percent, transferred, total }) => {
    if (!sizeSaid && total) {
      write(`  size  ${formatBytes(total)}\n`);
      sizeSaid = true;
    }
    const step = Math.floor(percent * (onTerminal ? 100 : 10));
    if (step === lastStep) return;
    lastStep = step;
    const line = `${label}: ${formatBytes(transferred)}${total ? ` of ${formatBytes(total)}` : ""} (${Math.floor(percent * 100)}%)`;
    if (onTerminal) write(`\r${line}${percent >= 1 ? "\n" : ""}`);
    else write(`${line}\n`);
  };
}

/**
 * Where `npm start` cannot have Electron, what a newcomer can do at once, before the ways of getting Electron: the
 * demo needs no network, which is often why the binary could not be fetched.
 */
export const TRY_THE_DEMO = [
  "To try gasfees now, in a browser and with no network:  npm run serve -- --demo",
  "(the same dashboard, following a local chain that replays real mainnet fees)",
].join("\n");

/** What `npm start` and `npm run dist` say when the binary cannot be had. */
export function electronUnavailableMessage(need: Exclude<ElectronNeed, "tests">, reason: string): string {
  return `gasfees: ${CANNOT[need]}: ${reason}\n\n${need === "start" ? `${TRY_THE_DEMO}\n\n` : ""}${ELECTRON_MISSING_HELP}\n`;
}

// The parts of @electron/get used here (version 2, a dependency of the electron package; loaded from there).
interface ArtifactDetails {
  version: string;
  artifactName: "electron";
  platform: string;
  arch: string;
}
interface ElectronGet {
  downloadArtifact(
    details: ArtifactDetails & {
      cacheRoot: string | undefined;
      checksums: Record<string, string> | undefined;
      downloadOptions: { quiet: boolean; getProgressCallback: (progress: DownloadProgress) => Promise<void>; timeout: Record<string, number> };
    },
  ): Promise<string>;
}
interface ElectronGetArtifactUtils {
  getArtifactFileName(details: ArtifactDetails): string;
  getArtifactRemoteURL(details: ArtifactDetails): Promise<string>;
  getArtifactVersion(details: ArtifactDetails): string;
}
interface ElectronGetCache {
  Cache: new (cacheRoot?: string) => { readonly cacheRoot: string; getPathForFileInCache(url: string, fileName: string): Promise<string | null> };
}
interface ElectronGetUtils {
  getNodeArch: (arch: string) => string;
}

/** The release zip this machine needs, as electron's install.js would ask @electron/get for it. */
interface ElectronDownload {
  readonly details: ArtifactDetails;
  readonly fileName: string;
  readonly url: string;
  readonly cacheRoot: string | undefined;
  readonly cacheDir: string;
  readonly cachedZip: string | null;
  readonly checksums: Record<string, string> | undefined;
}

/** The platform and architecture electron's install.js downloads for (npm_config_* first, Rosetta seen through). */
function installTarget(env: NodeJS.ProcessEnv): { platform: string; arch: string } {
  const platform = env.npm_config_platform || process.platform;
  let arch = env.npm_config_arch || process.arch;
  if (platform === "darwin" && process.platform === "darwin" && arch === "x64" && env.npm_config_arch === undefined) {
    try {
      if (execFileSync("sysctl", ["-in", "sysctl.proc_translated"]).toString().trim() === "1") arch = "arm64";
    } catch {
      // Not under Rosetta, or no sysctl: x64 it is.
    }
  }
  return { platform, arch };
}

async function describeDownload(packageDir: string, env: NodeJS.ProcessEnv, require: NodeJS.Require): Promise<ElectronDownload> {
  const artifacts = require("@electron/get/dist/cjs/artifact-utils") as ElectronGetArtifactUtils;
  const { getNodeArch } = require("@electron/get/dist/cjs/utils") as ElectronGetUtils;
  const { Cache } = require("@electron/get/dist/cjs/Cache") as ElectronGetCache;
  const { platform, arch } = installTarget(env);
  const requested: ArtifactDetails = { version: electronPackageVersion(packageDir), artifactName: "electron", platform, arch: getNodeArch(arch) };
  const details = { ...requested, version: artifacts.getArtifactVersion(requested) };
  const fileName = artifacts.getArtifactFileName(details);
  const url = await artifacts.getArtifactRemoteURL(details);
  const cacheRoot = env.electron_config_cache || undefined;
  const cache = new Cache(cacheRoot);
  const remoteChecksums = env.electron_use_remote_checksums || env.npm_config_electron_use_remote_checksums;
  const checksums = remoteChecksums ? undefined : (JSON.parse(readFileSync(join(packageDir, "checksums.json"), "utf8")) as Record<string, string>);
  return { details, fileName, url, cacheRoot, cacheDir: cache.cacheRoot, cachedZip: await cache.getPathForFileInCache(url, fileName), checksums };
}

/** Runs electron's install.js, which finds the zip in @electron/get's cache and unpacks it into the package's dist/. */
function unpackWithInstallScript(packageDir: string, download: ElectronDownload): Promise<string | undefined> {
  const env: NodeJS.ProcessEnv = { ...process.env, npm_config_platform: download.details.platform, npm_config_arch: download.details.arch };
  delete env.ELECTRON_SKIP_BINARY_DOWNLOAD;
  delete env.force_no_cache;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(packageDir, "install.js")], { cwd: packageDir, env, stdio: ["ignore", "inherit", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
    child.once("error", (error) => resolve(error.message));
    child.once("exit", (code, signal) => {
      if (code === 0) resolve(undefined);
      else resolve(`electron's install.js could not unpack ${download.fileName} (${signal ?? `exit ${code}`}): ${stderr.trim().split("\n")[0] ?? ""}`);
    });
  });
}

export interface EnsureElectronOptions {
  /** The electron npm package's folder (default: the installed one). */
  readonly packageDir?: string;
  readonly reachabilityTimeoutMs?: number;
  readonly stallTimeoutMs?: number;
  /** Where messages and progress go (default: stderr). */
  readonly write?: (text: string) => void;
  /** Whether progress is rewritten on one line (default: whether stderr is a terminal). */
  readonly onTerminal?: boolean;
}

/**
 * The Electron binary, fetched first when it is missing and can be fetched; otherwise why it is missing. Silent when
 * the binary is there. Reads the environment (ELECTRON_MIRROR, proxies, cache) from process.env, as @electron/get does.
 */
export async function ensureElectron(options: EnsureElectronOptions = {}): Promise<ElectronBinary> {
  const packageDir = options.packageDir ?? electronPackageDir();
  const write = options.write ?? ((text: string) => void process.stderr.write(text));
  const reachabilityTimeoutMs = options.reachabilityTimeoutMs ?? REACHABILITY_TIMEOUT_MS;
  const stallTimeoutMs = options.stallTimeoutMs ?? STALL_TIMEOUT_MS;
  const env = process.env;
  const plan = planElectronFetch(findElectronBinary(env, packageDir), env);
  if (plan.kind === "present") return plan.binary;
  if (plan.kind === "refuse") return { found: false, reason: plan.reason };

  const require = createRequire(join(packageDir, "package.json"));
  const download = await describeDownload(packageDir, env, require);
  const label = `Electron ${download.details.version.replace(/^v/, "")}`;
  const cannotFetch = (why: string) => ({ found: false, reason: `${label} could not be fetched from ${download.url}: ${why}` }) as const;
  write(
    `gasfees: fetching ${label} for ${download.details.platform}-${download.details.arch} (npm ci leaves it out; once fetched, it stays)\n` +
      `  from  ${download.cachedZip ?? download.url}\n` +
      `  into  ${join(packageDir, "dist")}${download.cachedZip ? "" : ` (the zip is kept in ${download.cacheDir})`}\n`,
  );

  if (download.cachedZip === null) {
    const route = downloadRoute(download.url, env);
    const unreachable = await checkReachable(route.host, route.port, reachabilityTimeoutMs);
    if (unreachable) return cannotFetch(explainFetchFailure(unreachable, route, reachabilityTimeoutMs) + ignoredProxyHint(env));
    const electronGet = require("@electron/get") as ElectronGet;
    const report = progressReporter(`gasfees: ${label}`, write, options.onTerminal ?? process.stderr.isTTY === true);
    // @electron/get draws its own progress bar after 30 s unless told not to; the lines above say it already.
    const hadNoProgress = env.ELECTRON_GET_NO_PROGRESS;
    env.ELECTRON_GET_NO_PROGRESS = "1";
    try {
      await electronGet.downloadArtifact({
        ...download.details,
        cacheRoot: download.cacheRoot,
        checksums: download.checksums,
        downloadOptions: {
          quiet: true,
          getProgressCallback: (progress) => Promise.resolve(report(progress)),
          timeout: { lookup: stallTimeoutMs, connect: stallTimeoutMs, secureConnect: stallTimeoutMs, response: stallTimeoutMs, socket: stallTimeoutMs },
        },
      });
    } catch (error) {
      return cannotFetch(explainFetchFailure(error, route, stallTimeoutMs) + ignoredProxyHint(env));
    } finally {
      if (hadNoProgress === undefined) delete env.ELECTRON_GET_NO_PROGRESS;
    }
  }

  const unpackFailure = await unpackWithInstallScript(packageDir, download);
  if (unpackFailure !== undefined) return { found: false, reason: unpackFailure };
  const binary = findElectronBinary(env, packageDir);
  if (!binary.found) return { found: false, reason: `electron's install.js finished, but ${binary.reason}` };
  write(`gasfees: ready: ${describeElectronBinary(binary)}\n`);
  return binary;
}

/** The command line: fetch if needed, then the exit code for `need` (see the top of this file). */
export async function runEnsureElectron(need: ElectronNeed, options: EnsureElectronOptions = {}): Promise<number> {
  const write = options.write ?? ((text: string) => void process.stderr.write(text));
  const binary = await ensureElectron({ ...options, write });
  if (need === "tests") {
    const plan = electronTestPlan(binary);
    // The skip, with what to do, is said once, by the tests' own config (playwright.electron.config.ts) as they start:
    // here only why the binary could not be had, in a line.
    if (plan.kind === "skip") write(`gasfees: no Electron binary for the end-to-end tests: ${binary.found ? "" : binary.reason}\n`);
    if (plan.kind === "fail") write(`gasfees: the Electron end-to-end tests FAIL: ${plan.reason}\n`);
    return plan.kind === "fail" ? 1 : 0;
  }
  if (binary.found) return 0;
  write(electronUnavailableMessage(need, binary.reason));
  return 1;
}

function isElectronNeed(value: unknown): value is ElectronNeed {
  return value === "start" || value === "dist" || value === "tests";
}

/** Whether this file is the program being run (not imported, as scripts/start.ts does); Windows paths ignore case. */
function isMainModule(): boolean {
  if (process.argv[1] === undefined) return false;
  const [self, main] = [fileURLToPath(import.meta.url), resolve(process.argv[1])].map((path) => (process.platform === "win32" ? path.toLowerCase() : path));
  return self === main;
}

if (isMainModule()) {
  const { values } = parseArgs({ options: { for: { type: "string" } } });
  if (!isElectronNeed(values.for)) {
    process.stderr.write("usage: tsx scripts/ensureElectron.ts --for start|dist|tests\n");
    process.exit(2);
  }
  // An exit of its own: a DNS lookup abandoned after its timeout would otherwise keep the process alive.
  process.exit(await runEnsureElectron(values.for));
}
