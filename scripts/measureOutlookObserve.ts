// `npm exec -- tsx scripts/measureOutlookObserve.ts [--input FILE.csv] [--runs N]`: the wall-clock time of each
// `observe` of the outlook's estimator over a year of hours (synthetic, test/support/hourlySummaries.ts) or over a
// file's hours, replayed N times (default 5) by fresh estimators in one process. A measurement, not a test.
//
// The first replay is the cold one the service does at its start. On a shared machine any one call may also wait for
// another process or a garbage collection; each hour's least time over the replays leaves these out, and so shows the
// estimator's own work, hour by hour (its spikes come back at every replay, the machine's do not).
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { createDefaultEstimator } from "../shared/core/outlook/defaultEstimator.ts";
import type { HourlySummary } from "../shared/core/outlook/hourlySummary.ts";
import { parseSampleCsv } from "../shared/core/outlook/sampleCsv.ts";
import { summarizeByHour } from "../shared/core/outlook/summarizeHour.ts";
import { syntheticHours } from "../test/support/hourlySummaries.ts";

function option(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index > 0 ? process.argv[index + 1] : undefined;
}

const input = option("--input");
const runs = Number(option("--runs") ?? 5);
const hours: HourlySummary[] = input
  ? summarizeByHour(parseSampleCsv(readFileSync(input, "utf8")), true)
  : syntheticHours(1_700_000_000 - (1_700_000_000 % 3600), 8760);

const first = new Float64Array(hours.length);
const least = new Float64Array(hours.length).fill(Number.POSITIVE_INFINITY);
for (let run = 0; run < runs; run++) {
  const estimator = createDefaultEstimator();
  hours.forEach((hour, index) => {
    const before = performance.now();
    estimator.observe(hour);
    const took = performance.now() - before;
    if (run === 0) first[index] = took;
    least[index] = Math.min(least[index] as number, took);
  });
}

function describe(name: string, times: Float64Array): string {
  const sorted = Float64Array.from(times).sort();
  const at = (q: number) => (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number).toFixed(2);
  const mean = times.reduce((sum, time) => sum + time, 0) / times.length;
  const over = (ms: number) => times.filter((time) => time > ms).length;
  return (
    `${name}: mean ${mean.toFixed(3)} ms, p50 ${at(0.5)}, p99 ${at(0.99)}, p99.9 ${at(0.999)}, ` +
    `max ${(sorted[sorted.length - 1] as number).toFixed(2)} ms; above 1 ms: ${over(1)}, above 5 ms: ${over(5)}, above 10 ms: ${over(10)}`
  );
}
console.log(`${hours.length} hours observed, ${runs} replays`);
console.log(describe("first replay", first));
console.log(describe(`each hour's least of ${runs}`, least));
