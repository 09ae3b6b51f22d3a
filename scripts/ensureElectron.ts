// Fetches the Electron binary the first time something needs it: `npm start`, `npm run dist` and
// `npm run test:electron` call this first (`npm ci` never downloads it: the electron package has had no install script
// since Electron 42, and package.json's allowScripts would keep one off, so that installing needs only the npm
// registry). ELECTRON_SKIP_BINARY_DOWNLOAD, which Electron itself no longer reads, still keeps this from fetching.
//
// When the binary is there, this says nothing. When it is not, it says what it fetches (version, size, from where),
// checks in a few seconds that the download host (or the proxy) can be reached at all, downloads the release zip
// with Electron's own downloader (@electron/get 5: its cache, mirrors, proxy and checksums) showing the progress, and
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
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
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
 * The route @electron/get takes to `url`: through a proxy only when ELECTRON_GET_USE_PROXY is set, as undici's
 * EnvHttpProxyAgent (which @electron/get 5 installs then) chooses it: for an https URL https_proxy or HTTPS_PROXY, else
 * the HTTP one; for an http URL http_proxy or HTTP_PROXY; none for a host that NO_PROXY names.
 */
export function downloadRoute(url: string, env: NodeJS.ProcessEnv): DownloadRoute {
  const proxy = env.ELECTRON_GET_USE_PROXY ? proxyForUrl(url, env) : undefined;
  const target = new URL(proxy ?? url);
  const port = target.port ? Number(target.port) : target.protocol === "https:" ? 443 : 80;
  return { host: target.hostname.replace(/^\[|\]$/g, ""), port, proxy };
}

/** The proxy undici's EnvHttpProxyAgent sends a request for `url` through, by the environment (lower-case names first). */
function proxyForUrl(url: string, env: NodeJS.ProcessEnv): string | undefined {
  const target = new URL(url);
  if (noProxyCovers(target, env.no_proxy ?? env.NO_PROXY ?? "")) return undefined;
  const httpProxy = env.http_proxy ?? env.HTTP_PROXY;
  const httpsProxy = env.https_proxy ?? env.HTTPS_PROXY;
  return (target.protocol === "https:" ? httpsProxy || httpProxy : httpProxy) || undefined;
}

/** Whether NO_PROXY exempts the URL's host (an entry is a host, its subdomains too, with or without a port; * is every host). */
function noProxyCovers(target: URL, noProxy: string): boolean {
  const entries = noProxy.split(/[,\s]/).filter(Boolean);
  if (entries.length === 0) return false;
  if (noProxy === "*") return true;
  const hostname = target.host.replace(/:\d*$/, "").toLowerCase();
  const port = Number(target.port) || (target.protocol === "https:" ? 443 : 80);
  return entries.some((entry) => {
    const withPort = /^(.+):(\d+)$/.exec(entry);
    const host = (withPort ? withPort[1]! : entry).replace(/^\*?\./, "").toLowerCase();
    if (withPort && Number(withPort[2]) !== port) return false;
    return hostname === host || hostname.endsWith(`.${host}`);
  });
}

/** A proxy is set, but @electron/get ignores it: the hint to add to a failure. */
export function ignoredProxyHint(env: NodeJS.ProcessEnv): string {
  if (env.ELECTRON_GET_USE_PROXY || !(env.https_proxy || env.HTTPS_PROXY || env.http_proxy || env.HTTP_PROXY)) return "";
  return " (a proxy is set in HTTPS_PROXY or HTTP_PROXY, but Electron's downloader uses it only with ELECTRON_GET_USE_PROXY=1: set that too)";
}

interface ErrorFields {
  readonly name?: unknown;
  readonly code?: unknown;
  readonly message?: unknown;
  readonly hostname?: unknown;
  readonly event?: unknown;
  readonly port?: unknown;
  /** fetch's Response (status) in @electron/get's HTTPError; got's (statusCode) in older ones. */
  readonly response?: { readonly status?: unknown; readonly statusCode?: unknown; readonly url?: unknown };
  readonly cause?: unknown;
  readonly errors?: unknown;
}

/**
 * The error and what caused it, outermost first: fetch says only "fetch failed" and keeps the network's error in
 * `cause` (undici nests a proxy's refusal one level deeper), and a connection tried on several addresses gathers its
 * errors in an AggregateError.
 */
function errorChain(error: unknown): ErrorFields[] {
  const chain: ErrorFields[] = [];
  let current = error;
  while (typeof current === "object" && current !== null && chain.length < 10) {
    const fields = current as ErrorFields;
    chain.push(fields);
    current = fields.cause ?? (Array.isArray(fields.errors) ? (fields.errors[0] as unknown) : undefined);
  }
  return chain.length > 0 ? chain : [{ message: String(error) }];
}

/** The first value of one field along the chain that passes `is`. */
function firstOf<T>(chain: readonly ErrorFields[], read: (fields: ErrorFields) => unknown, is: (value: unknown) => value is T): T | undefined {
  for (const fields of chain) {
    const value = read(fields);
    if (is(value)) return value;
  }
  return undefined;
}

const isString = (value: unknown): value is string => typeof value === "string" && value !== "";
const isNumber = (value: unknown): value is number => typeof value === "number";

/** Why a connection or download failed, in words: DNS, refused, unreachable, timeout, HTTP status, proxy, checksum. */
export function explainFetchFailure(error: unknown, route: DownloadRoute, timeoutMs: number): string {
  const chain = errorChain(error);
  const code = firstOf(chain, (fields) => fields.code, isString);
  const host = firstOf(chain, (fields) => fields.hostname, isString) ?? route.host;
  const where = route.proxy === undefined ? host : `the proxy ${route.proxy}`;
  const status = firstOf(chain, (fields) => fields.response?.status ?? fields.response?.statusCode, isNumber);
  const messages = chain.map((fields) => (typeof fields.message === "string" ? fields.message : "")).filter(Boolean);
  const proxyStatus = messages.map((message) => /Proxy response \((\d{3})\)/.exec(message)).find(Boolean)?.[1];
  // The innermost message says most (the outermost is often fetch's "fetch failed").
  const lastLine = (messages.at(-1) ?? String(error)).split("\n")[0]!;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "EAI_FAIL") {
    return `${route.proxy === undefined ? host : `the proxy's host ${host}`} does not resolve (DNS lookup failed: ${code}), so this machine cannot reach it`;
  }
  if (code === "ETIMEDOUT" || chain.some((fields) => fields.name === "TimeoutError")) {
    const event = firstOf(chain, (fields) => fields.event, isString);
    const during = event === undefined ? "" : ` (waiting for ${event})`;
    return `${where} did not answer within ${timeoutMs / 1000} s${during}: a firewall may drop the connection, or the network is too slow`;
  }
  if (code?.startsWith("UND_ERR_") && code.endsWith("_TIMEOUT")) {
    return `${where} did not answer in time (${code}): a firewall may drop the connection, or the network is too slow`;
  }
  if (code === "ECONNREFUSED") return `${where} refused the connection on port ${firstOf(chain, (fields) => fields.port, isNumber) ?? route.port}`;
  if (code === "ECONNRESET" || code === "EPIPE" || code === "UND_ERR_SOCKET")
    return `the connection to ${where} was cut (${code}): a firewall or proxy may block it`;
  if (code === "EHOSTUNREACH" || code === "ENETUNREACH" || code === "ENETDOWN") return `no network route to ${where} (${code})`;
  if (code?.startsWith("ERR_TLS") || code?.includes("CERT"))
    return `the TLS certificate of ${where} was refused (${code}): where a proxy intercepts TLS, give Node its CA in NODE_EXTRA_CA_CERTS`;
  if (status === 407 || proxyStatus === "407") {
    return `the proxy ${route.proxy ?? ""} asks for credentials (HTTP 407): put them in its URL (http://user:password@host:port)`;
  }
  if (proxyStatus !== undefined) return `the proxy ${route.proxy ?? ""} refused to connect to the download (HTTP ${proxyStatus})`;
  if (status !== undefined) {
    const url = firstOf(chain, (fields) => fields.response?.url, isString) ?? "";
    const hint = status === 404 ? ": check ELECTRON_MIRROR and ELECTRON_CUSTOM_DIR" : "";
    return `the download answered HTTP ${status}${url ? ` for ${url}` : ""}${hint}`;
  }
  if (chain.some((fields) => (fields as { constructor?: { name?: unknown } }).constructor?.name === "ChecksumMismatchError")) {
    return `the download does not match the SHA-256 checksum Electron publishes (${lastLine}); it was not used: a proxy or mirror may have altered it`;
  }
  return lastLine;
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

// The parts of @electron/get used here: version 5 (ESM, fetch), a dependency of the electron package, loaded from there.
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
      /** Its FetchDownloader's: quiet and the progress callback are its own, the rest goes to fetch(). */
      downloadOptions: { quiet: boolean; getProgressCallback: (progress: DownloadProgress) => Promise<void>; signal: AbortSignal };
    },
  ): Promise<string>;
}
interface ElectronGetArtifactUtils {
  getArtifactFileName(details: ArtifactDetails): string;
  getArtifactRemoteURL(details: ArtifactDetails): Promise<string>;
  getArtifactVersion(details: ArtifactDetails): string;
}
interface ElectronGetCache {
  Cache: new (cacheRoot?: string) => { readonly cacheRoot: string; getPathForFileInCache(url: string, fileName: string): string | null };
}
interface ElectronGetUtils {
  getNodeArch: (arch: string) => string;
}
interface ElectronGetModules {
  readonly index: ElectronGet;
  readonly artifacts: ElectronGetArtifactUtils;
  readonly cache: ElectronGetCache;
  readonly utils: ElectronGetUtils;
}

/**
 * @electron/get as the electron package finds it, with the modules downloadArtifact uses to name, place and cache the
 * zip: its package exports only its entry, so they are loaded from the files beside it. What this expects of them is
 * checked here, so that another @electron/get says so rather than failing halfway through a fetch.
 */
async function loadElectronGet(packageDir: string): Promise<ElectronGetModules> {
  const entry = createRequire(join(packageDir, "package.json")).resolve("@electron/get");
  const load = async (file: string) => (await import(pathToFileURL(join(dirname(entry), file)).href)) as Record<string, unknown>;
  const [index, artifacts, cache, utils] = await Promise.all([load("index.js"), load("artifact-utils.js"), load("Cache.js"), load("utils.js")]);
  const expected = {
    "index.js downloadArtifact": index.downloadArtifact,
    "artifact-utils.js getArtifactFileName": artifacts.getArtifactFileName,
    "artifact-utils.js getArtifactRemoteURL": artifacts.getArtifactRemoteURL,
    "artifact-utils.js getArtifactVersion": artifacts.getArtifactVersion,
    "Cache.js Cache": cache.Cache,
    "utils.js getNodeArch": utils.getNodeArch,
  };
  const missing = Object.entries(expected).filter(([, value]) => typeof value !== "function");
  if (missing.length > 0) {
    throw new Error(`the @electron/get beside ${packageDir} lacks ${missing.map(([name]) => name).join(", ")}: scripts/ensureElectron.ts expects version 5`);
  }
  return {
    index: index as unknown as ElectronGet,
    artifacts: artifacts as unknown as ElectronGetArtifactUtils,
    cache: cache as unknown as ElectronGetCache,
    utils: utils as unknown as ElectronGetUtils,
  };
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

/** The platform and architecture electron's install.js downloads for (ELECTRON_INSTALL_*, then npm_config_*; Rosetta seen through). */
function installTarget(env: NodeJS.ProcessEnv): { platform: string; arch: string } {
  const platform = env.ELECTRON_INSTALL_PLATFORM || env.npm_config_platform || process.platform;
  let arch = env.ELECTRON_INSTALL_ARCH || env.npm_config_arch || process.arch;
  if (platform === "darwin" && process.platform === "darwin" && arch === "x64" && env.npm_config_arch === undefined) {
    try {
      if (execFileSync("sysctl", ["-in", "sysctl.proc_translated"]).toString().trim() === "1") arch = "arm64";
    } catch {
      // Not under Rosetta, or no sysctl: x64 it is.
    }
  }
  return { platform, arch };
}

async function describeDownload(packageDir: string, env: NodeJS.ProcessEnv, electronGet: ElectronGetModules): Promise<ElectronDownload> {
  const { artifacts } = electronGet;
  const { platform, arch } = installTarget(env);
  const requested: ArtifactDetails = {
    version: electronPackageVersion(packageDir),
    artifactName: "electron",
    platform,
    arch: electronGet.utils.getNodeArch(arch),
  };
  const details = { ...requested, version: artifacts.getArtifactVersion(requested) };
  const fileName = artifacts.getArtifactFileName(details);
  const url = await artifacts.getArtifactRemoteURL(details);
  const cacheRoot = env.electron_config_cache || undefined;
  const cache = new electronGet.cache.Cache(cacheRoot);
  const remoteChecksums = env.electron_use_remote_checksums || env.npm_config_electron_use_remote_checksums;
  const checksums = remoteChecksums ? undefined : (JSON.parse(readFileSync(join(packageDir, "checksums.json"), "utf8")) as Record<string, string>);
  return { details, fileName, url, cacheRoot, cacheDir: cache.cacheRoot, cachedZip: cache.getPathForFileInCache(url, fileName), checksums };
}

/**
 * A signal that aborts once `timeoutMs` pass with no progress (`touch` is progress): fetch itself has no such
 * timeout, and a fixed one would cut a slow download that is still going.
 */
function stallSignal(timeoutMs: number): { readonly signal: AbortSignal; touch(gotBytes: boolean): void; stop(): void } {
  const controller = new AbortController();
  let gotBytes = false;
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      const event = gotBytes ? "more of the download" : "an answer";
      controller.abort(Object.assign(new Error(`no progress for ${timeoutMs} ms`), { name: "TimeoutError", code: "ETIMEDOUT", event }));
    }, timeoutMs);
  };
  arm();
  return {
    signal: controller.signal,
    touch(bytes) {
      gotBytes ||= bytes;
      arm();
    },
    stop: () => clearTimeout(timer),
  };
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

  const electronGet = await loadElectronGet(packageDir);
  const download = await describeDownload(packageDir, env, electronGet);
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
    const report = progressReporter(`gasfees: ${label}`, write, options.onTerminal ?? process.stderr.isTTY === true);
    const stall = stallSignal(stallTimeoutMs);
    // @electron/get draws its own progress bar after 30 s unless told not to; the lines above say it already.
    const hadNoProgress = env.ELECTRON_GET_NO_PROGRESS;
    env.ELECTRON_GET_NO_PROGRESS = "1";
    try {
      await electronGet.index.downloadArtifact({
        ...download.details,
        cacheRoot: download.cacheRoot,
        checksums: download.checksums,
        downloadOptions: {
          quiet: true,
          getProgressCallback: (progress) => {
            stall.touch(progress.transferred > 0);
            report(progress);
            return Promise.resolve();
          },
          signal: stall.signal,
        },
      });
    } catch (error) {
      return cannotFetch(explainFetchFailure(error, route, stallTimeoutMs) + ignoredProxyHint(env));
    } finally {
      stall.stop();
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
