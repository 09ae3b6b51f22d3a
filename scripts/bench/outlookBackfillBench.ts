// The outlook backfill (8 weeks of hourly summaries before the history) per chain: the pages and requests its plan
// counts, and the time they take at its gentle 2 requests a second, checked by running the same 8 weeks for real with
// the cap lifted against the project's stand-in JSON-RPC server (test/support/syntheticChainServer.ts, in this
// process: no chain can be mined that long here), every call counted. Baseline: the plan's count.
import { OutlookBackfill } from "../../shared/backfill/outlookBackfill.ts";
import { DEFAULT_BACKFILL_REQUESTS_PER_SECOND } from "../../shared/backfill/backfillRunner.ts";
import { planOutlookBackfill } from "../../shared/backfill/outlookBackfillPlan.ts";
import { silentLogger } from "../../shared/log/logger.ts";
import { ChainEndpoints } from "../../shared/rpc/endpoints/chainEndpoints.ts";
import { startSyntheticChainServer } from "../../test/support/syntheticChainServer.ts";
import type { BenchRow } from "./benchRow.ts";

const EIGHT_WEEKS = 8 * 7 * 86_400;
const PAGE_BLOCKS = 1_024;

export const OUTLOOK_CHAINS = [
  { name: "Ethereum (12 s)", blockTimeMs: 12_000 },
  { name: "Base / OP (2 s)", blockTimeMs: 2_000 },
  { name: "Arbitrum (0.25 s)", blockTimeMs: 250 },
] as const;

/** The 8 weeks before the history's oldest block of a stand-in chain with `blockTimeMs`, cap lifted: calls, pages, seconds, hours kept. */
export async function runOutlookBackfill(blockTimeMs: number, spanSeconds = EIGHT_WEEKS) {
  const head = 30_000_000n;
  // The history's oldest block at 1,700,000,000 (November 2023), the others before it at the chain's spacing.
  const timestampOf = (block: bigint) => 1_700_000_000 - Math.ceil((Number(head - block) * blockTimeMs) / 1000);
  const chain = await startSyntheticChainServer({ head, timestampOf });
  const layer = new ChainEndpoints(chain.chainId, [chain.url]);
  try {
    let hours = 0;
    const backfill = new OutlookBackfill({
      chainId: chain.chainId,
      endpoints: layer,
      floor: { block: head, timestamp: timestampOf(head) },
      floorFee: () => ({ baseFeeWei: chain.baseFeeOf(head), source: undefined }),
      spanSeconds,
      blockSpacingSeconds: blockTimeMs / 1000,
      heldHours: [],
      write: (summaries) => {
        hours += summaries.length;
      },
      logger: silentLogger,
      runner: { requestsPerSecond: Number.POSITIVE_INFINITY },
    });
    const startedAt = performance.now();
    const outcome = await backfill.run();
    return { calls: chain.calls(), pages: outcome.pagesFetched, seconds: (performance.now() - startedAt) / 1000, hours, mode: backfill.mode };
  } finally {
    layer.close();
    await chain.close();
  }
}

export async function runOutlookBackfillBench(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const perSecond = DEFAULT_BACKFILL_REQUESTS_PER_SECOND;
  for (const { name, blockTimeMs } of OUTLOOK_CHAINS) {
    const plan = planOutlookBackfill({ spanSeconds: EIGHT_WEEKS, blockSpacingSeconds: blockTimeMs / 1000, pageBlocks: PAGE_BLOCKS });
    const run = await runOutlookBackfill(blockTimeMs);
    rows.push({
      name:
        `outlook backfill: 8 weeks of ${name}, ${plan.mode === "every" ? "every block" : "one page an hour, sampled"}: ` +
        `${run.pages} pages, ${run.calls} calls counted on the stand-in (cap lifted: ${run.seconds.toFixed(1)} s, ${run.hours} hours kept); time at ${perSecond} calls/s`,
      value: run.calls / perSecond / 60,
      unit: "min",
      baselineName: `the plan's count: ${plan.pages} pages x 3 = ${plan.requests} calls`,
      baseline: plan.secondsAt(perSecond) / 60,
      goal: "< 60 min",
    });
  }
  return rows;
}
