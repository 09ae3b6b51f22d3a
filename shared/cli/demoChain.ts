import { DEMO_REPLAY, demoReplaySeries } from "../demo/demoReplayPlan.ts";
import { startDemoReplay } from "../demo/startDemoReplay.ts";
import { startEvmNode } from "../demo/startEvmNode.ts";
import type { ChainPlan } from "../service/chainPlan.ts";
import type { Logger } from "../log/logger.ts";

export const DEMO_CHAIN_ID = 31337;

/**
 * `--demo`: a real local EVM node (Hardhat) replaying real Ethereum mainnet base fees (shared/demo/demoReplayPlan.ts:
 * which blocks, and why those), 500 blocks at once and then one every two seconds, followed like any other chain.
 * Needs no internet.
 */
export async function startDemoChain(logger: Logger): Promise<{ plan: ChainPlan; stop: () => Promise<void> }> {
  const fees = demoReplaySeries();
  const node = await startEvmNode({ chainId: DEMO_CHAIN_ID });
  let stopReplay: () => void;
  try {
    stopReplay = await startDemoReplay(node, fees, {
      preloadBlocks: DEMO_REPLAY.preloadBlocks,
      intervalMs: DEMO_REPLAY.blockIntervalMs,
      onError: (error) => logger.error("the demo chain stopped mining", { error: error.message }),
    });
  } catch (error) {
    await node.stop();
    throw error;
  }
  const lastBlock = fees.firstBlock + BigInt(fees.baseFeesWei.length - 1);
  logger.info(
    `demo chain ${DEMO_CHAIN_ID} at ${node.url}: replaying mainnet blocks ${fees.firstBlock} to ${lastBlock} in a loop, ` +
      `one block every ${DEMO_REPLAY.blockIntervalMs / 1000} s`,
  );
  return {
    plan: {
      chainId: DEMO_CHAIN_ID,
      name: `Demo: Ethereum mainnet replay (blocks ${fees.firstBlock}–${lastBlock})`,
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
