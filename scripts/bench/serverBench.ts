// Requests per second, p99 latency and CPU time per request of the three endpoints against a bare node:http server
// returning the same bytes (serverLoad.ts). The load generator runs in a fresh process of its own: in the process that
// has just driven Chromium for the dashboard bench it was slower, and a slower client squeezes every ratio towards 1.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { BenchRow } from "./benchRow.ts";

export async function runServerBench(): Promise<BenchRow[]> {
  const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/bench/serverLoad.ts"], { maxBuffer: 1 << 20 });
  return JSON.parse(stdout) as BenchRow[];
}
