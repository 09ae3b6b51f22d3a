// `npm exec -- tsx scripts/measureOutlookObserve.ts [--input FILE.csv]`: the time of each `observe` of the outlook's
// estimator over a year of hours (synthetic, test/support/hourlySummaries.ts) or over a file's hours: mean, p99, max.
// Wall-clock on a shared machine, so upper bounds; a measurement, not a test.
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { createDefaultEstimator } from "../shared/core/outlook/defaultEstimator.ts";
import type { HourlySummary } from "../shared/core/outlook/hourlySummary.ts";
import { parseSampleCsv } from "../shared/core/outlook/sampleCsv.ts";
import { summarizeByHour } from "../shared/core/outlook/summarizeHour.ts";
import { syntheticHours } from "../test/support/hourlySummaries.ts";

const inputIndex = process.argv.indexOf("--input");
const hours: HourlySummary[] =
  inputIndex > 0
    ? summarizeByHour(parseSampleCsv(readFileSync(process.argv[inputIndex + 1] as string, "utf8")), true)
    : syntheticHours(1_700_000_000 - (1_700_000_000 % 3600), 8760);

const estimator = createDefaultEstimator();
const wall = new Float64Array(hours.length);
const cpu = new Float64Array(hours.length);
hours.forEach((hour, index) => {
  const cpuBefore = process.cpuUsage();
  const before = performance.now();
  estimator.observe(hour);
  wall[index] = performance.now() - before;
  const used = process.cpuUsage(cpuBefore);
  cpu[index] = (used.user + used.system) / 1000;
});

// Wall-clock counts the time other processes held the core; the process's CPU time does not (but counts its GC threads).
function describe(name: string, times: Float64Array): string {
  const sorted = Float64Array.from(times).sort();
  const at = (q: number) => (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number).toFixed(2);
  const mean = times.reduce((sum, time) => sum + time, 0) / times.length;
  const over = (ms: number) => times.filter((time) => time > ms).length;
  return `${name}: mean ${mean.toFixed(3)} ms, p50 ${at(0.5)}, p99 ${at(0.99)}, p99.9 ${at(0.999)}, max ${(sorted[sorted.length - 1] as number).toFixed(2)} ms; above 5 ms: ${over(5)}, above 10 ms: ${over(10)}`;
}
console.log(`${hours.length} hours observed`);
console.log(describe("wall", wall));
console.log(describe("cpu ", cpu));
