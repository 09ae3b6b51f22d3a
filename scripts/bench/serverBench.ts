// Requests per second and p99 latency of the three endpoints (autocannon), against a bare node:http server that
// answers the same bytes with no checks at all, both in one child process, measured in turn (A B B A) in this run.
import { spawn } from "node:child_process";
import autocannon from "autocannon";
import type { BenchRow } from "./benchRow.ts";
import { BENCH_KEY, BENCH_PATHS } from "./benchServersData.ts";
import { serveNodeFlags, stopChild } from "./serveProcess.ts";

const SECONDS = Number(process.env.GASFEES_BENCH_SECONDS ?? 3);
const CONNECTIONS = 10;

interface Measure {
  rps: number;
  p99Us: number;
  failures: number;
}

async function load(url: string, seconds: number): Promise<Measure> {
  // autocannon's own histogram keeps whole milliseconds, and these answers take a fraction of one: the latency of every
  // answer is taken from its response event instead (float milliseconds, from process.hrtime).
  const latenciesMs: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const options = { url, connections: CONNECTIONS, duration: seconds, headers: { authorization: `Basic ${Buffer.from(`${BENCH_KEY}:`).toString("base64")}` } };
    const instance = autocannon(options, (error, done) => (error ? reject(error as Error) : resolve(done)));
    instance.on("response", (_client, _status, _bytes, latencyMs) => latenciesMs.push(latencyMs));
  });
  latenciesMs.sort((a, b) => a - b);
  const p99Us = (latenciesMs[Math.ceil(0.99 * latenciesMs.length) - 1] ?? Number.NaN) * 1000;
  return { rps: result.requests.average, p99Us, failures: result.errors + result.timeouts + result.non2xx };
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

export async function runServerBench(): Promise<BenchRow[]> {
  // With the node flags that npm run serve runs the service with, for both servers alike.
  const child = spawn(process.execPath, [...serveNodeFlags(), "--import", "tsx", "scripts/bench/benchServers.ts"], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    const ports = await new Promise<{ gasfees: number; bare: number }>((resolve, reject) => {
      child.stdout!.once("data", (chunk: Buffer) => resolve(JSON.parse(chunk.toString("utf8")) as { gasfees: number; bare: number }));
      child.once("exit", (code) => reject(new Error(`the bench servers exited with ${code}`)));
    });
    const rows: BenchRow[] = [];
    for (const path of BENCH_PATHS) {
      const gasfeesUrl = `http://127.0.0.1:${ports.gasfees}${path}`;
      const bareUrl = `http://127.0.0.1:${ports.bare}${path}`;
      await load(gasfeesUrl, 1);
      await load(bareUrl, 1);
      const bare: Measure[] = [];
      const ours: Measure[] = [];
      bare.push(await load(bareUrl, SECONDS));
      ours.push(await load(gasfeesUrl, SECONDS));
      ours.push(await load(gasfeesUrl, SECONDS));
      bare.push(await load(bareUrl, SECONDS));
      const failures = [...ours, ...bare].reduce((sum, measure) => sum + measure.failures, 0);
      if (failures > 0) throw new Error(`${path}: ${failures} failed requests under load`);
      const name = path.split("/").at(-1)!;
      rows.push(
        { name: `${name}: requests per second (${CONNECTIONS} connections)`, value: mean(ours.map((m) => m.rps)), unit: "req/s", baselineName: "bare node:http, same bytes", baseline: mean(bare.map((m) => m.rps)), goal: "≥ 0.85" },
        { name: `${name}: p99 latency`, value: mean(ours.map((m) => m.p99Us)), unit: "µs", baselineName: "bare node:http, same bytes", baseline: mean(bare.map((m) => m.p99Us)), goal: "—" },
      );
    }
    return rows;
  } finally {
    await stopChild(child);
  }
}
