// Child process of serverBench: requests per second, p99 latency and the servers' CPU time per request of the three
// endpoints (autocannon), against a bare node:http server that answers the same bytes with no checks at all, both in
// one child process of this one, measured in turn (A B B A). busyThreshold is measured at 10, 50 and 200 connections
// (what a connection costs shows only with many open: docs/benchmarks.md), the others at 10. Prints the rows as one
// JSON line.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import autocannon from "autocannon";
import type { BenchRow } from "./benchRow.ts";
import { BENCH_KEY, BENCH_PATHS } from "./benchServersData.ts";
import { serveNodeFlags, stopChild } from "./serveProcess.ts";

const SECONDS = Number(process.env.GASFEES_BENCH_SECONDS ?? 3);
/** The connection counts each path is measured at. */
const LOADS: ReadonlyArray<{ readonly path: (typeof BENCH_PATHS)[number]; readonly connections: number }> = [
  ...[10, 50, 200].map((connections) => ({ path: BENCH_PATHS[0], connections })),
  ...BENCH_PATHS.slice(1).map((path) => ({ path, connections: 10 })),
];

interface Measure {
  rps: number;
  p99Us: number;
  /** CPU time (user + system) of the servers' process per answered request; NaN where /proc is missing. */
  cpuUsPerRequest: number;
  failures: number;
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

async function load(url: string, connections: number, seconds: number, serversPid: number): Promise<Measure> {
  // autocannon's own histogram keeps whole milliseconds, and these answers take a fraction of one: the latency of every
  // answer is taken from its response event instead (float milliseconds, from process.hrtime).
  const latenciesMs: number[] = [];
  const cpuMsBefore = cpuMsOf(serversPid);
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const options = {
      url,
      connections,
      duration: seconds,
      headers: { authorization: `Basic ${Buffer.from(`${BENCH_KEY}:`).toString("base64")}` },
    };
    const instance = autocannon(options, (error, done) => (error ? reject(error as Error) : resolve(done)));
    instance.on("response", (_client, _status, _bytes, latencyMs) => latenciesMs.push(latencyMs));
  });
  const cpuUsPerRequest = ((cpuMsOf(serversPid) - cpuMsBefore) * 1000) / result.requests.total;
  latenciesMs.sort((a, b) => a - b);
  const p99Us = (latenciesMs[Math.ceil(0.99 * latenciesMs.length) - 1] ?? Number.NaN) * 1000;
  return { rps: result.requests.average, p99Us, cpuUsPerRequest, failures: result.errors + result.timeouts + result.non2xx };
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

async function measure(): Promise<BenchRow[]> {
  // With the node flags that npm run serve runs the service with, for both servers alike.
  const child = spawn(process.execPath, [...serveNodeFlags(), "--import", "tsx", "scripts/bench/benchServers.ts"], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    const ports = await new Promise<{ gasfees: number; bare: number }>((resolve, reject) => {
      child.stdout.once("data", (chunk: Buffer) => resolve(JSON.parse(chunk.toString("utf8")) as { gasfees: number; bare: number }));
      child.once("exit", (code) => reject(new Error(`the bench servers exited with ${code}`)));
    });
    const rows: BenchRow[] = [];
    for (const { path, connections } of LOADS) {
      const gasfeesUrl = `http://127.0.0.1:${ports.gasfees}${path}`;
      const bareUrl = `http://127.0.0.1:${ports.bare}${path}`;
      const pid = child.pid!;
      await load(gasfeesUrl, connections, 1, pid);
      await load(bareUrl, connections, 1, pid);
      const bare: Measure[] = [];
      const ours: Measure[] = [];
      bare.push(await load(bareUrl, connections, SECONDS, pid));
      ours.push(await load(gasfeesUrl, connections, SECONDS, pid));
      ours.push(await load(gasfeesUrl, connections, SECONDS, pid));
      bare.push(await load(bareUrl, connections, SECONDS, pid));
      const failures = [...ours, ...bare].reduce((sum, measure) => sum + measure.failures, 0);
      if (failures > 0) throw new Error(`${path}: ${failures} failed requests under load`);
      const name = path.split("/").at(-1)!;
      rows.push(
        {
          name: `${name}: requests per second (${connections} connections)`,
          value: mean(ours.map((m) => m.rps)),
          unit: "req/s",
          baselineName: "bare node:http, same bytes",
          baseline: mean(bare.map((m) => m.rps)),
          goal: "≥ 0.85",
        },
        {
          name: `${name}: p99 latency (${connections} connections)`,
          value: mean(ours.map((m) => m.p99Us)),
          unit: "µs",
          baselineName: "bare node:http, same bytes",
          baseline: mean(bare.map((m) => m.p99Us)),
          goal: "—",
        },
      );
      // On two cores the load generator and the servers share the machine, so requests per second understate what a
      // server costs; its CPU time per answer does not.
      const cpuUs = mean(ours.map((m) => m.cpuUsPerRequest));
      if (Number.isFinite(cpuUs)) {
        rows.push({
          name: `${name}: server CPU time per request (${connections} connections)`,
          value: cpuUs,
          unit: "µs",
          baselineName: "bare node:http, same bytes",
          baseline: mean(bare.map((m) => m.cpuUsPerRequest)),
          goal: "—",
        });
      }
    }
    return rows;
  } finally {
    await stopChild(child);
  }
}

process.stdout.write(`${JSON.stringify(await measure())}\n`);
