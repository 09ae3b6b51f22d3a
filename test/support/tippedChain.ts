// A real Hardhat node whose recent blocks carry transactions with varied tips, followed by the real service: the
// setting of the suggestedGasFees tests. Each tipped block's transactions all pay the same tip, because Hardhat's
// eth_feeHistory (EDR) answers the largest tip for every reward percentile above 0 in a block of mixed tips, where
// geth answers the gas-weighted percentile; with one tip per block both agree, so the expected values are exact.
import { type EvmNode, startEvmNode } from "../../shared/demo/startEvmNode.ts";
import type { RunningService } from "../../shared/app/startService.ts";
import { callApi } from "./apiClient.ts";
import { waitFor } from "./waitFor.ts";
import { startLocalService } from "./startLocalService.ts";

export const KEY = "0123456789abcdef0123456789abcdef";
export const CHAIN_ID = 31337;
export const BLOCK_TIME_MS = 2000;
export const GWEI = 1_000_000_000n;

export interface TippedChain {
  readonly node: EvmNode;
  readonly service: RunningService;
  readonly accounts: readonly string[];
  /** The tip each tipped block's transactions paid, by block number. */
  readonly tipsWeiByBlock: ReadonlyMap<bigint, bigint>;
  readonly newestBlock: bigint;
  stop(): Promise<void>;
}

const hex = (value: bigint) => `0x${value.toString(16)}`;

/** Sends one transaction per tip into the pending pool (automine is off), from the node's accounts in turn. */
export async function sendTips(node: EvmNode, accounts: readonly string[], tipsWei: readonly bigint[]): Promise<void> {
  for (const [i, tipWei] of tipsWei.entries()) {
    const from = accounts[i % accounts.length]!;
    const to = accounts[(i + 1) % accounts.length]!;
    await node.request("eth_sendTransaction", [
      { from, to, value: "0x1", gas: hex(21_000n), maxPriorityFeePerGas: hex(tipWei), maxFeePerGas: hex(500n * GWEI) },
    ]);
  }
}

/** Waits until the service serves `block` as its newest (X-Block-Number of suggestedGasFees). */
export async function servedBlock(service: RunningService, block: bigint): Promise<void> {
  await waitFor(
    `block ${block} to be served`,
    async () => {
      const answer = await callApi(service.url, `/networks/${CHAIN_ID}/suggestedGasFees`, KEY);
      return answer.status === 200 && answer.headers.get("x-block-number") === block.toString() ? true : undefined;
    },
    20_000,
  );
}

/**
 * 30 empty blocks with varied base fees, then 25 blocks each holding 1 to 3 transactions that pay one tip per block
 * (tips from 0.1 to 2 Gwei plus 1 wei, in a scrambled order), then the service following the node.
 */
export async function startTippedChain(): Promise<TippedChain> {
  const node = await startEvmNode({ chainId: CHAIN_ID });
  try {
    const accounts = await node.request<string[]>("eth_accounts");
    await node.request("evm_setAutomine", [false]);
    await node.mineBlocks(Array.from({ length: 30 }, (_, i) => (20n + BigInt((i * 13) % 17)) * GWEI + BigInt(i)));
    const tipsWeiByBlock = new Map<bigint, bigint>();
    let newestBlock = 30n;
    for (let i = 0; i < 25; i++) {
      const tipWei = BigInt(((i * 7) % 20) + 1) * 100_000_000n + 1n;
      await sendTips(
        node,
        accounts,
        Array.from({ length: 1 + (i % 3) }, () => tipWei),
      );
      newestBlock = await node.mineBlock((25n + BigInt((i * 5) % 11)) * GWEI + 123n);
      tipsWeiByBlock.set(newestBlock, tipWei);
    }
    const service = await startLocalService(
      [{ chainId: CHAIN_ID, name: "Local", rpcUrls: [node.url], blockTimeMs: BLOCK_TIME_MS, statsWindowBlocks: 500, pollIntervalMs: 300 }],
      [{ key: KEY }],
    );
    await servedBlock(service, newestBlock);
    return {
      node,
      service,
      accounts,
      tipsWeiByBlock,
      newestBlock,
      stop: async () => {
        await service.stop();
        await node.stop();
      },
    };
  } catch (error) {
    await node.stop();
    throw error;
  }
}
