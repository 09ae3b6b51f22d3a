// /outlook's latency beside busyThreshold's on the same service with a year of hourly summaries (outlookLoad.ts), in a
// fresh process of its own, as the server bench runs its load.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { BenchRow } from "./benchRow.ts";

export async function runOutlookBench(): Promise<BenchRow[]> {
  const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/bench/outlookLoad.ts"], { maxBuffer: 1 << 20 });
  return JSON.parse(stdout) as BenchRow[];
}
