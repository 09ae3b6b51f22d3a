// A real Hardhat node replaying real mainnet blocks with their real timestamps and base fees: its genesis is set just
// before the first replayed block (Hardhat's `initialDate`), and each block is mined with
// `hardhat_setNextBlockBaseFeePerGas` then `evm_mine` at the block's own timestamp.
import { fileURLToPath } from "node:url";
import { startEvmNode, type EvmNode } from "../../shared/demo/startEvmNode.ts";
import { loadTimedMainnetBlocks } from "../../shared/demo/timedMainnetBlocks.ts";

/** Hardhat's genesis base fee (hardhat.config.cjs, initialBaseFeePerGas). */
const GENESIS_BASE_FEE_WEI = 1_000_000_000n;
const TIMED_CONFIG = fileURLToPath(new URL("./timedHardhat.config.cjs", import.meta.url));

export interface TimedTestChain {
  readonly node: EvmNode;
  /** The newest block (blocks 0..newest exist; block n >= 1 is the replay's row `firstRow + n - 1`). */
  readonly newestBlock: bigint;
  timestampOf(this: void, block: bigint): number;
  baseFeeOf(this: void, block: bigint): bigint;
}

/**
 * Starts a node (chain id `chainId`) whose blocks 1..`blocks` carry the timed mainnet rows from `firstRow` on, their
 * fees and timestamps exactly; its genesis is `genesisLeadSeconds` before the first of them. A few thousand blocks take
 * seconds (two calls each).
 */
export async function startTimedTestChain(
  blocks: number,
  options: { chainId?: number; firstRow?: number; genesisLeadSeconds?: number } = {},
): Promise<TimedTestChain> {
  const { chainId = 1, firstRow = 0, genesisLeadSeconds = 3600 } = options;
  const data = loadTimedMainnetBlocks();
  if (firstRow + blocks > data.timestamps.length) throw new RangeError(`the timed data holds ${data.timestamps.length} rows, not ${firstRow + blocks}`);
  const genesisTimestamp = data.timestamps[firstRow]! - genesisLeadSeconds;
  const saved = { config: process.env.HARDHAT_CONFIG, genesis: process.env.GASFEES_TEST_GENESIS_DATE };
  process.env.HARDHAT_CONFIG = TIMED_CONFIG;
  process.env.GASFEES_TEST_GENESIS_DATE = new Date(genesisTimestamp * 1000).toISOString();
  let node: EvmNode;
  try {
    node = await startEvmNode({ chainId });
  } finally {
    restore("HARDHAT_CONFIG", saved.config);
    restore("GASFEES_TEST_GENESIS_DATE", saved.genesis);
  }
  const timestampOf = (block: bigint) => (block === 0n ? genesisTimestamp : data.timestamps[firstRow + Number(block) - 1]!);
  const baseFeeOf = (block: bigint) => (block === 0n ? GENESIS_BASE_FEE_WEI : data.baseFeesWei[firstRow + Number(block) - 1]!);
  for (let block = 1n; block <= BigInt(blocks); block++) {
    await node.request("hardhat_setNextBlockBaseFeePerGas", [`0x${baseFeeOf(block).toString(16)}`]);
    await node.request("evm_mine", [timestampOf(block)]);
  }
  return { node, newestBlock: BigInt(blocks), timestampOf, baseFeeOf };
}

function restore(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
