// The real stack the history views' end-to-end tests drive, in a child process run with tsx (Playwright's own loader
// does not reach the Hardhat child that startEvmNode forks): a Hardhat node that has replayed 40 hours of real mainnet
// blocks with their real timestamps and base fees, and the real service following it from a first start, with its
// statistics window of 24 hours and a history of 7 days, which it backfills (gently, as it would any chain), and the
// 12 weeks before those blocks as hourly summaries of real mainnet samples (the demo's past, moved to end there). The
// parent sends commands over IPC and gets one answer per command.
import { parseWindowSpec } from "../../../shared/core/history/duration.ts";
import type { RunningService } from "../../../shared/app/startService.ts";
import { loadTimedMainnetBlocks } from "../../../shared/demo/timedMainnetBlocks.ts";
import { demoPastSummaries, loadDemoPastSamples } from "../../../shared/demo/demoPastSummaries.ts";
import { startTimedTestChain } from "../../support/timedTestChain.ts";
import { HISTORY_CHAIN_ID, HISTORY_KEY, REPLAYED_BLOCKS } from "./historyStackConstants.ts";
import { answerStackCommands, runStackChild } from "./stackChild.ts";
import { startLocalService } from "../../support/startLocalService.ts";

export type HistoryCommand = { readonly id: number; readonly type: "mine"; readonly count: number } | { readonly id: number; readonly type: "stop" };

async function main(): Promise<void> {
  const chain = await startTimedTestChain(REPLAYED_BLOCKS, { chainId: HISTORY_CHAIN_ID });
  const rows = loadTimedMainnetBlocks();
  let newest = chain.newestBlock;
  const service: RunningService = await startLocalService(
    [
      {
        chainId: HISTORY_CHAIN_ID,
        name: "Mainnet replay, 3-5 May 2023",
        rpcUrls: [chain.node.url],
        blockTimeMs: 12_000,
        statsWindow: parseWindowSpec("24h")!,
        historyHorizon: "7d",
        pollIntervalMs: 200,
        // The weeks before the replayed blocks, as the demo has them: 12 weeks of real mainnet samples, summarised by hour.
        pastHourlySummaries: demoPastSummaries(loadDemoPastSamples(), chain.timestampOf(0n)).summaries,
      },
    ],
    [{ key: HISTORY_KEY }],
  );
  /** The next replayed rows, at their own timestamps: block n is row n - 1. */
  const mine = async (count: number): Promise<bigint> => {
    for (let block = newest + 1n; block <= newest + BigInt(count); block++) {
      const row = Number(block) - 1;
      if (row >= rows.timestamps.length) throw new RangeError(`the timed data ends at block ${rows.timestamps.length}`);
      await chain.node.request("hardhat_setNextBlockBaseFeePerGas", [`0x${rows.baseFeesWei[row]!.toString(16)}`]);
      await chain.node.request("evm_mine", [rows.timestamps[row]]);
    }
    newest += BigInt(count);
    return newest;
  };
  const stop = async () => {
    await service.stop();
    await chain.node.stop();
  };
  answerStackCommands<HistoryCommand>({ url: service.url, dashboardUrl: service.dashboardUrl, token: service.dashboardToken }, stop, async (command) => {
    switch (command.type) {
      case "mine":
        return mine(command.count);
      case "stop":
        await stop();
        return undefined;
    }
  });
}

runStackChild("history e2e service", main);
