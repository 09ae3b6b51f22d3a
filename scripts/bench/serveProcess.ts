// The headless service as users run it (`npm run serve`: the esbuild bundle of shared/cli/serve.ts on plain node,
// with the node flags of package.json's serve script), or as the tests run it (`node --import tsx shared/cli/serve.ts`), in a child
// process of its own so that its memory can be read from /proc and the load generator does not share its event loop.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface ServeProcess {
  readonly url: string;
  readonly pid: number;
  /** Resident memory now (VmRSS), in MB. */
  rssMb(): number;
  stop(): Promise<void>;
}

/** VmRSS of a process in MB, from /proc (Linux). */
export function rssMbOf(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!match) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(match[1]) / 1024;
}

/**
 * Starts serve with these settings (written to a temporary --config file) and resolves once it listens: as
 * `npm run serve` does (scripts/serve.mjs, which bundles it first if needed), or with `tsx`, from source through tsx.
 */
export async function startServeProcess(settings: object, options: { tsx?: boolean } = {}): Promise<ServeProcess> {
  const dir = mkdtempSync(join(tmpdir(), "gasfees-bench-"));
  const configFile = join(dir, "settings.json");
  writeFileSync(configFile, JSON.stringify({ version: 1, ...settings }));
  const entry = options.tsx ? ["--import", "tsx", "shared/cli/serve.ts"] : serveScriptArguments();
  const child = spawn(process.execPath, [...entry, "--port", "0", "--config", configFile], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, GASFEES_CONFIG_DIR: dir, GASFEES_LOG_LEVEL: "warn" },
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString("utf8")).slice(-4000)));
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = "";
    const timer = setTimeout(() => reject(new Error(`serve did not listen within 60 s: ${stderr}`)), 60_000);
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
      const match = /gasfees listening on (http:\/\/\S+)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}: ${stderr}`));
    });
  });
  return {
    url,
    pid: child.pid!,
    rssMb: () => rssMbOf(child.pid!),
    stop: async () => {
      await stopChild(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The arguments of node in package.json's `serve` script (`node <flags> scripts/serve.mjs`), so that what is measured
 * is what `npm run serve` runs, flags included, wherever they are changed.
 */
export function serveScriptArguments(): string[] {
  const script = (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts["serve"] ?? "";
  const [program, ...args] = script.trim().split(/\s+/);
  if (program !== "node" || args.at(-1) !== "scripts/serve.mjs")
    throw new Error(`package.json's serve script is not "node [flags] scripts/serve.mjs": ${script}`);
  return args;
}

/** The node flags alone of package.json's `serve` script. */
export const serveNodeFlags = (): string[] => serveScriptArguments().slice(0, -1);

export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 3000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/** An idle `node --import tsx` (or, without tsx, plain node) process: the runtime's own footprint, for a baseline RSS. */
export async function bareNodeRssMb(withTsx = true): Promise<number> {
  const args = [...(withTsx ? ["--import", "tsx"] : []), "-e", "setInterval(() => {}, 1000); console.log('ready')"];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "ignore"] });
  await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
  await new Promise((resolve) => setTimeout(resolve, 500));
  const rss = rssMbOf(child.pid!);
  await stopChild(child);
  return rss;
}
