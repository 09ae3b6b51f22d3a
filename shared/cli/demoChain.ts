import { demoHistory } from "../demo/demoHistory.ts";
import { DEMO_REPLAY, demoReplaySeries } from "../demo/demoReplayPlan.ts";
import { startDemoReplay } from "../demo/startDemoReplay.ts";
import { startEvmNode } from "../demo/startEvmNode.ts";
import { loadTimedMainnetBlocks } from "../demo/timedMainnetBlocks.ts";
import type { ChainPlan } from "../service/chainPlan.ts";
import type { Logger } from "../log/logger.ts";

export const DEMO_CHAIN_ID = 31337;

/**
 * `--demo`: a real local EVM node (Hardhat) whose chain holds two days of real Ethereum mainnet blocks with their real
 * spacing, ending now (shared/demo/demoHistory.ts), then goes on replaying real base fees live, one block every two
 * seconds (shared/demo/demoReplayPlan.ts: which blocks, and why those), followed like any other chain: the service
 * backfills the history from it as from a real chain. Needs no internet.
 */
export async function startDemoChain(logger: Logger): Promise<{ plan: ChainPlan; stop: () => Promise<void> }> {
  const timed = loadTimedMainnetBlocks();
  const series = demoReplaySeries(timed);
  const history = demoHistory(timed, Math.floor(Date.now() / 1000));
  // The history's first block is the chain's genesis (block 0): every block of the chain is a real one.
  const node = await startEvmNode({ chainId: DEMO_CHAIN_ID, genesis: { timestamp: history.timestamps[0]!, baseFeeWei: history.baseFeesWei[0]! } });
  let stopReplay: () => void;
  try {
    stopReplay = await startDemoReplay(node, series, {
      history: { baseFeesWei: history.baseFeesWei.slice(1), timestamps: history.timestamps.slice(1) },
      liveFrom: DEMO_REPLAY.preloadBlocks,
      intervalMs: DEMO_REPLAY.blockIntervalMs,
      onError: (error) => logger.error("the demo chain stopped mining", { error: error.message }),
    });
  } catch (error) {
    await node.stop();
    throw error;
  }
  const lastBlock = series.firstBlock + BigInt(series.baseFeesWei.length - 1);
  const hours = (history.timestamps[history.timestamps.length - 1]! - history.timestamps[0]!) / 3600;
  logger.info(
    `demo chain ${DEMO_CHAIN_ID} at ${node.url}: ${history.baseFeesWei.length} real mainnet blocks (${hours.toFixed(1)} hours, ` +
      `${timed.firstBlock} to ${timed.firstBlock + BigInt(timed.baseFeesWei.length - 1)}) up to now, then replaying blocks ` +
      `${series.firstBlock} to ${lastBlock} in a loop, one block every ${DEMO_REPLAY.blockIntervalMs / 1000} s`,
    { mining: node.miningPath },
  );
  return {
    plan: {
      chainId: DEMO_CHAIN_ID,
      name: `Demo: Ethereum mainnet replay (blocks ${series.firstBlock}–${lastBlock})`,
      // The ws endpoint pushes new heads (one request per block); http is the fallback.
      rpcUrls: [node.wsUrl, node.url],
      blockTimeMs: DEMO_REPLAY.blockIntervalMs,
      statsWindowBlocks: DEMO_REPLAY.statsWindowBlocks,
      // A new chain at every start under the same id: nothing of it is worth keeping.
      persistHistory: false,
    },
    stop: async () => {
      stopReplay();
      await node.stop();
    },
  };
}
