// Requests per second, p99 latency and CPU time per request of the three endpoints against a bare node:http server
// returning the same bytes (serverLoad.ts), then what /metrics costs that throughput (metricsLoad.ts). Each load
// generator runs in a fresh process of its own: in the process that has just driven Chromium for the dashboard bench
// it was slower, and a slower client squeezes every ratio towards 1.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { BenchRow } from "./benchRow.ts";

async function rowsOf(script: string): Promise<BenchRow[]> {
  const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", script], { maxBuffer: 1 << 20 });
  return JSON.parse(stdout) as BenchRow[];
}

export async function runServerBench(): Promise<BenchRow[]> {
  return [...(await rowsOf("scripts/bench/serverLoad.ts")), ...(await rowsOf("scripts/bench/metricsLoad.ts"))];
}
