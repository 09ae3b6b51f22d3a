// `npm run bench -- wrk`: busyThreshold of `npm run serve` as a user starts it (the demo: a real chain behind the
// service, its feeds, backfill and price reads running), against a bare node:http server on the same Node, in a
// process of its own, answering the same bytes. Load from wrk, a C load generator that is not the bottleneck (Node
// load generators are), one thread; on a machine with two cores or more each server is pinned to one core and wrk to
// another, so that neither takes the other's, and the demo's EVM node (the service's child process: the chain, which
// a user's service reaches over the network) to wrk's core, so that mining its blocks never takes the server's core.
// Seven rounds of 3 s runs in turns (control, bare, gasfees, ...) at 10, 50 and 200 connections, compared pair by
// pair: the rows give the medians, and the ratio of each pair, so that a machine whose speed drifts shows as a spread,
// not as a verdict. The control is a second bare server, the same script in a process of its own: its ratio to the
// first is the run's noise floor (1 on a steady machine), which says how far the service's ratio can be read.
// The load starts once the service has settled: its backfill done, and its process quiet (under 10% of a core for 2 s),
// so that what is measured is the service answering, not its start-up work sharing the loop (that has rows of its own).
// Then the same number of runs with two servers loaded at once, the service and the bare server, each by a wrk of its
// own (both servers on core 0, sharing it; both wrk on core 1): both meet the same machine at the same moment, so the
// ratio of their CPU time per request holds still where the machine's speed drifts from one turn to the next (its
// pairs within a few percent, where the turns' ratios spread over 0.3). It measures how much more CPU the service
// spends on a request, not requests per second, which the turns measure.
// With GASFEES_BENCH_IN_PROCESS=1, a third server in the turns: a bare one inside the service's own process
// (inProcessBareServer.mjs), which splits the service's cost into its own code and the process it runs in.
// Skipped, saying how to get it, where wrk is missing.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import type { BenchRow } from "./benchRow.ts";
import { serveNodeFlags, serveScriptArguments, stopChild } from "./serveProcess.ts";

const KEY = "0123456789abcdef0123456789abcdef";
const AUTHORIZATION = `Basic ${Buffer.from(`${KEY}:`).toString("base64")}`;
const PATH = "/networks/31337/busyThreshold";
const CONNECTIONS = [10, 50, 200] as const;
const RUNS = Number(process.env.GASFEES_BENCH_RUNS ?? 7);
const SECONDS = Number(process.env.GASFEES_BENCH_SECONDS ?? 3);
/** The service has settled once its process uses under this share of a core for SETTLED_FOR_MS, sampled every SETTLE_SAMPLE_MS. */
const SETTLED_CPU = 0.1;
const SETTLED_FOR_MS = 2_000;
const SETTLE_SAMPLE_MS = 500;
/** Past this, the load starts anyway and the row says so. */
const SETTLE_TIMEOUT_MS = 180_000;
/** Where a start gives up: a first start bundles the service and builds the dashboard. */
const START_TIMEOUT_MS = 180_000;

export const WRK_MISSING =
  "wrk not found: the served-load bench needs it (Debian/Ubuntu: apt-get install -y wrk; macOS: brew install wrk; elsewhere https://github.com/wg/wrk); skipped";

function wrkPresent(): boolean {
  return spawnSync("wrk", ["--version"], { stdio: "ignore" }).error === undefined;
}

/** With two cores or more: the servers on core 0, wrk and the demo's EVM node on core 1 (taskset, where it is). */
const pinning = (): boolean => cpus().length >= 2 && spawnSync("taskset", ["--version"], { stdio: "ignore" }).error === undefined;

function pin(pid: number, core: number): void {
  spawnSync("taskset", ["-a", "-p", "-c", String(core), String(pid)], { stdio: "ignore" });
}

/** The processes whose parent is `pid` (Linux, from /proc; none elsewhere). */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return children;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The fields after the command's closing parenthesis: state, then the parent's pid.
      const parent = Number(readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]!.split(" ")[1]);
      if (parent === pid) children.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return children;
}

/** Resolves with the first match of `pattern` in the child's stream; rejects if it exits or the wait gives up. */
function awaitOutput(child: ChildProcess, stream: "stdout" | "stderr", pattern: RegExp, what: string): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let text = "";
    const timer = setTimeout(() => reject(new Error(`${what}: gave up after ${START_TIMEOUT_MS} ms: ${text.slice(-2000)}`)), START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      text += chunk.toString("utf8");
      const match = pattern.exec(text);
      if (match) {
        clearTimeout(timer);
        child[stream]!.off("data", onData);
        resolve(match);
      }
    };
    child[stream]!.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${what}: exited with ${code}: ${text.slice(-2000)}`));
    });
  });
}

/** CPU time (user + system) a process has used, in ms, from /proc (Linux; clock ticks of 10 ms); NaN elsewhere. */
function cpuMsOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

interface Run {
  readonly rps: number;
  /** The server's CPU time per answer, in µs: a measure that a busy machine disturbs less than requests per second. */
  readonly cpuUs: number;
}

/** A server under load: where wrk sends its requests, and the process whose CPU time is counted. */
interface LoadedServer {
  readonly url: string;
  readonly pid: number;
}

/**
 * Two wrk runs at the same time, one per server, each on its own connections. Each server has half a core: at 200
 * connections an answer can wait longer than wrk's 2 s (which it would count as a socket error), so they wait 10 s.
 */
async function wrkAtOnce(first: LoadedServer, second: LoadedServer, connections: number, pinned: boolean): Promise<readonly [Run, Run]> {
  return Promise.all([wrk(first.url, connections, SECONDS, pinned, first.pid, 10), wrk(second.url, connections, SECONDS, pinned, second.pid, 10)]);
}

/** Requests per second of one wrk run; throws on any socket error or answer other than 2xx. */
function wrk(url: string, connections: number, seconds: number, pinned: boolean, serverPid: number, timeoutSeconds = 2): Promise<Run> {
  const cpuBefore = cpuMsOf(serverPid);
  const args = ["-t1", `-c${connections}`, `-d${seconds}s`, `--timeout`, `${timeoutSeconds}s`, "-H", `Authorization: ${AUTHORIZATION}`, url];
  const child = pinned ? spawn("taskset", ["-c", "1", "wrk", ...args]) : spawn("wrk", args);
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
  return new Promise((resolve, reject) => {
    // "close", not "exit": wrk prints its figures as it ends, and they may still be in the pipe when "exit" comes.
    child.once("close", (code) => {
      const rps = /Requests\/sec:\s+([\d.]+)/.exec(out);
      if (code !== 0 || !rps) return reject(new Error(`wrk failed (${code}): ${out}`));
      if (/Non-2xx or 3xx responses|Socket errors/.test(out)) return reject(new Error(`wrk saw failed requests at ${url}: ${out}`));
      const answered = Number(/(\d+) requests in/.exec(out)?.[1]);
      resolve({ rps: Number(rps[1]), cpuUs: ((cpuMsOf(serverPid) - cpuBefore) * 1000) / answered });
    });
  });
}

/**
 * How soon the demo's two days of history are held: the backfill's own count of seconds (its log line), and the live
 * blocks mined meanwhile (the demo mines one every 2 s from its start), against the demo's first minute.
 */
async function backfillRows(url: string, stderr: string, seconds: number): Promise<BenchRow[]> {
  const preloadHead = Number(/blocks 0 to ([\d,]+) are/.exec(stderr)?.[1]?.replaceAll(",", ""));
  const answer = await fetch(`${url}${PATH}`, { headers: { authorization: AUTHORIZATION } });
  await answer.arrayBuffer();
  const liveBlocks = Number(answer.headers.get("x-block-number")) - preloadHead;
  return [
    {
      name: "npm run serve --demo: its two days of history backfilled, in seconds (the backfill's log line)",
      value: seconds,
      unit: "s",
      baselineName: "the demo's first minute",
      baseline: 60,
      goal: "< 1",
    },
    {
      name: "the same, in live blocks mined before it was done (one every 2 s)",
      value: liveBlocks,
      unit: "blocks",
      baselineName: "the demo's first minute",
      baseline: 30,
      goal: "≤ 1",
    },
  ];
}

/** How long the service's process takes, from the end of its backfill, to use under SETTLED_CPU of a core for SETTLED_FOR_MS. */
async function settledRow(pid: number, fromMs: number): Promise<BenchRow> {
  let quietSinceMs: number | undefined;
  let cpuMs = cpuMsOf(pid);
  while (Date.now() - fromMs < SETTLE_TIMEOUT_MS) {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_SAMPLE_MS));
    const nowCpuMs = cpuMsOf(pid);
    const busy = !(nowCpuMs - cpuMs <= SETTLED_CPU * SETTLE_SAMPLE_MS);
    cpuMs = nowCpuMs;
    if (busy) quietSinceMs = undefined;
    else quietSinceMs ??= Date.now() - SETTLE_SAMPLE_MS;
    if (quietSinceMs !== undefined && Date.now() - quietSinceMs >= SETTLED_FOR_MS) break;
  }
  const settled = quietSinceMs !== undefined && Date.now() - quietSinceMs >= SETTLED_FOR_MS;
  return {
    name: `the same, settled: from the backfill's end until the process used under ${SETTLED_CPU * 100}% of a core for ${SETTLED_FOR_MS / 1000} s (its start-up work done)${settled ? "" : `: not settled within ${SETTLE_TIMEOUT_MS / 1000} s, measured anyway`}`,
    value: Math.round(((quietSinceMs ?? Date.now()) - fromMs) / 100) / 10,
    unit: "s",
    baselineName: "the demo's first minute",
    baseline: 60,
    goal: "< 1",
  };
}

/**
 * SIGINT to serve, from its handler running (the time in its "SIGINT: stopping" log line) to its exit as seen here:
 * what the service does once told to stop, not how soon a loaded machine delivers the signal.
 */
async function stopRow(serve: ChildProcess, stderr: () => string): Promise<BenchRow> {
  const exited = new Promise<number>((resolve) => serve.once("exit", () => resolve(Date.now())));
  serve.kill("SIGINT");
  const exitedAt = await exited;
  const handledAt = /^(\S+) info +SIGINT: stopping$/m.exec(stderr())?.[1];
  if (handledAt === undefined) throw new Error(`serve did not say it stops: ${stderr().slice(-2000)}`);
  return {
    name: "npm run serve --demo: SIGINT handled to the process's exit",
    value: exitedAt - Date.parse(handledAt),
    unit: "ms",
    baselineName: "serve's stop deadline",
    baseline: 1000,
    goal: "< 1 (within a second)",
  };
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** Each pair's ratio: a run of the first list over the same turn's run of the second. */
const runRatios = (ours: readonly number[], theirs: readonly number[]) => ours.map((value, index) => value / theirs[index]!);

/** Each pair's ratio, as the rows print them. */
const pairRatios = (ours: readonly number[], theirs: readonly number[]) =>
  runRatios(ours, theirs)
    .map((ratio) => ratio.toFixed(2))
    .join(", ");

/**
 * The service's CPU time per request against the bare server's, both loaded at once (see the top of this file), and
 * with GASFEES_BENCH_IN_PROCESS=1 the bare server inside the service's process against the one in its own, likewise.
 */
async function atOnceRows(
  connections: number,
  pinned: boolean,
  gasfees: LoadedServer,
  bare: LoadedServer,
  inProcessUrl: string | undefined,
): Promise<BenchRow[]> {
  const ours: number[] = [];
  const theirs: number[] = [];
  const inProcess: number[] = [];
  const theirsBesideInProcess: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const [service, bareRun] = await wrkAtOnce(gasfees, bare, connections, pinned);
    ours.push(service.cpuUs);
    theirs.push(bareRun.cpuUs);
    if (inProcessUrl !== undefined) {
      const [inside, own] = await wrkAtOnce({ url: inProcessUrl, pid: gasfees.pid }, bare, connections, pinned);
      inProcess.push(inside.cpuUs);
      theirsBesideInProcess.push(own.cpuUs);
    }
  }
  if (!ours.every(Number.isFinite)) return [];
  const rows: BenchRow[] = [
    {
      name: `server CPU time per request, the service and the bare server loaded at once (${connections} connections each, ${pinned ? "both servers on core 0, both wrk on core 1, " : ""}${RUNS} runs of ${SECONDS} s): the median of each run's ratio (the value; the baseline is 1); each run's: ${pairRatios(ours, theirs)}`,
      value: median(runRatios(ours, theirs)),
      unit: "×",
      baselineName: "the bare server's CPU time per request in the same run",
      baseline: 1,
      goal: "≤ 1.18 (what 0.85 of its requests per second takes)",
    },
  ];
  if (inProcess.length > 0) {
    rows.push({
      name: `the same for the bare server inside the service's process against the one in its own, loaded at once (${connections} connections each): the median of each run's ratio; each run's: ${pairRatios(inProcess, theirsBesideInProcess)}`,
      value: median(runRatios(inProcess, theirsBesideInProcess)),
      unit: "×",
      baselineName: "the bare server's CPU time per request in the same run",
      baseline: 1,
      goal: "—",
    });
  }
  return rows;
}

/** A TCP port free on 127.0.0.1 now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * The split of the service's CPU time per request: its own code (the service against the bare server in its process)
 * and the process it runs in (that server against the bare one in a process of its own), each a median with each
 * pair's ratio.
 */
function inProcessRows(connections: number, ours: readonly Run[], theirs: readonly Run[], inProcess: readonly Run[]): BenchRow[] {
  const cpu = (runs: readonly Run[]) => runs.map((run) => run.cpuUs);
  return [
    {
      name: `the service's own code: CPU time per request of the service against a bare node:http server inside its process (${connections} connections), medians; each pair's ratio: ${pairRatios(cpu(ours), cpu(inProcess))}`,
      value: median(cpu(ours)),
      unit: "µs",
      baselineName: "bare node:http in the service's process",
      baseline: median(cpu(inProcess)),
      goal: "—",
    },
    {
      name: `the process it runs in: the same bare server inside the service's process against one in its own (${connections} connections), medians; each pair's ratio: ${pairRatios(cpu(inProcess), cpu(theirs))}`,
      value: median(cpu(inProcess)),
      unit: "µs",
      baselineName: "bare node:http in its own process",
      baseline: median(cpu(theirs)),
      goal: "—",
    },
  ];
}

export async function runServedBench(): Promise<BenchRow[]> {
  if (!wrkPresent()) {
    process.stderr.write(`${WRK_MISSING}\n`);
    return [];
  }
  const pinned = pinning();
  const dir = mkdtempSync(join(tmpdir(), "gasfees-served-"));
  // The user's settings but one: the per-key rate limit (100 requests/s by default) would answer 429 under load.
  const configFile = join(dir, "settings.json");
  writeFileSync(configFile, JSON.stringify({ version: 1, apiKeys: [{ key: KEY }], rateLimit: { requestsPerSecond: 0, burst: 1 } }));
  const inProcessPort = process.env.GASFEES_BENCH_IN_PROCESS === "1" ? await freePort() : undefined;
  const servePort = inProcessPort === undefined ? 0 : await freePort();
  const preload = inProcessPort === undefined ? [] : ["--import", "./scripts/bench/inProcessBareServer.mjs"];
  const serve = spawn(
    process.execPath,
    [...serveNodeFlags(), ...preload, ...serveScriptArguments().slice(-1), "--demo", "--port", String(servePort), "--config", configFile],
    {
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        GASFEES_CONFIG_DIR: dir,
        GASFEES_LOG_LEVEL: "info",
        GASFEES_BENCH_AUTHORIZATION: AUTHORIZATION,
        GASFEES_BENCH_IN_PROCESS_PORT: String(inProcessPort ?? ""),
        GASFEES_BENCH_IN_PROCESS_SOURCE: `http://127.0.0.1:${servePort}${PATH}`,
      },
    },
  );
  let bare: ChildProcess | undefined;
  let control: ChildProcess | undefined;
  let stderr = "";
  serve.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  try {
    const backfilled = awaitOutput(serve, "stderr", /history backfill done: .*\(\d+ requests, ([\d.]+) s\)/, "the demo's backfill");
    const [, url] = await awaitOutput(serve, "stdout", /gasfees listening on (http:\/\/\S+)\n/, "serve's listening line");
    const [, backfillSeconds] = await backfilled;
    const rows: BenchRow[] = [...(await backfillRows(url!, stderr, Number(backfillSeconds)))];
    // Measured once the service has settled: whatever start-up work is left after the backfill (the outlook's replay
    // over the summaries, in slices that share the event loop with the requests) is done before the load starts.
    rows.push(await settledRow(serve.pid!, Date.now()));
    const startBare = async (what: string) => {
      const child = spawn(process.execPath, [...serveNodeFlags(), "scripts/bench/bareReplayServer.mjs", `${url}${PATH}`], {
        stdio: ["ignore", "pipe", "inherit"],
        env: { ...process.env, GASFEES_BENCH_AUTHORIZATION: AUTHORIZATION },
      });
      const [, port] = await awaitOutput(child, "stdout", /^(\d+)\n/, what);
      return { child, port: port! };
    };
    const first = await startBare("the bare server");
    bare = first.child;
    const second = await startBare("the control server");
    control = second.child;
    if (pinned) {
      for (const pid of [serve.pid!, bare.pid!, control.pid!]) pin(pid, 0);
      for (const pid of childrenOf(serve.pid!)) pin(pid, 1);
    }
    const urls = { gasfees: `${url}${PATH}`, bare: `http://127.0.0.1:${first.port}${PATH}`, control: `http://127.0.0.1:${second.port}${PATH}` };
    for (const connections of CONNECTIONS) {
      await wrk(urls.control, connections, 1, pinned, control.pid!);
      await wrk(urls.bare, connections, 1, pinned, bare.pid!);
      await wrk(urls.gasfees, connections, 1, pinned, serve.pid!);
      const inProcessUrl = inProcessPort === undefined ? undefined : `http://127.0.0.1:${inProcessPort}${PATH}`;
      if (inProcessUrl !== undefined) await wrk(inProcessUrl, connections, 1, pinned, serve.pid!);
      const ours: Run[] = [];
      const theirs: Run[] = [];
      const inProcess: Run[] = [];
      const controls: Run[] = [];
      for (let run = 0; run < RUNS; run++) {
        // The control just before the bare server and gasfees just after: each ratio to it spans one turn.
        controls.push(await wrk(urls.control, connections, SECONDS, pinned, control.pid!));
        theirs.push(await wrk(urls.bare, connections, SECONDS, pinned, bare.pid!));
        ours.push(await wrk(urls.gasfees, connections, SECONDS, pinned, serve.pid!));
        if (inProcessUrl !== undefined) inProcess.push(await wrk(inProcessUrl, connections, SECONDS, pinned, serve.pid!));
      }
      const rps = { ours: ours.map((run) => run.rps), theirs: theirs.map((run) => run.rps), controls: controls.map((run) => run.rps) };
      rows.push({
        name: `busyThreshold of npm run serve --demo: requests per second, wrk -t1 -c${connections} -d${SECONDS}s${pinned ? " (servers on core 0, wrk and the demo's EVM node on core 1)" : ""}, medians of ${RUNS} runs in turns; each pair's ratio: ${pairRatios(rps.ours, rps.theirs)}`,
        value: median(rps.ours),
        unit: "req/s",
        baselineName: "bare node:http, same bytes, same Node",
        baseline: median(rps.theirs),
        goal: "≥ 0.85",
      });
      rows.push({
        name: `the noise floor: a second bare server (the control, the same script in a process of its own) in the same turns, requests per second (${connections} connections), medians; each pair's ratio: ${pairRatios(rps.controls, rps.theirs)}`,
        value: median(rps.controls),
        unit: "req/s",
        baselineName: "the bare server",
        baseline: median(rps.theirs),
        goal: "1 on a steady machine",
      });
      const cpu = { ours: ours.map((run) => run.cpuUs), theirs: theirs.map((run) => run.cpuUs) };
      if (cpu.ours.every(Number.isFinite)) {
        rows.push({
          name: `the same: server CPU time per request (${connections} connections; the service's includes its feeds'), medians; each pair's ratio: ${pairRatios(cpu.ours, cpu.theirs)}`,
          value: median(cpu.ours),
          unit: "µs",
          baselineName: "bare node:http, same bytes, same Node",
          baseline: median(cpu.theirs),
          goal: "—",
        });
      }
      if (inProcess.length > 0) rows.push(...inProcessRows(connections, ours, theirs, inProcess));
      rows.push(...(await atOnceRows(connections, pinned, { url: urls.gasfees, pid: serve.pid! }, { url: urls.bare, pid: bare.pid! }, inProcessUrl)));
    }
    await stopChild(bare);
    await stopChild(control);
    rows.push(await stopRow(serve, () => stderr));
    return rows;
  } finally {
    if (bare) await stopChild(bare);
    if (control) await stopChild(control);
    await stopChild(serve);
    rmSync(dir, { recursive: true, force: true });
  }
}
