import type { EvmNode } from "./startEvmNode.ts";
import type { BaseFeeSeries } from "./mainnetBaseFees.ts";
import { replayedBaseFeeWei } from "./demoReplayPlan.ts";

export interface DemoReplayOptions {
  /**
   * Blocks mined at once at the start, oldest first, so that charts and statistics are full from the first second:
   * their base fees and, optionally, their timestamps (unix seconds, each after the one before and after the newest
   * block's; the node's clock then runs on from the last). Default: none.
   */
  history?: { readonly baseFeesWei: readonly bigint[]; readonly timestamps?: readonly number[] };
  /** The replay's index of the first live block: live block k carries the series' fee at `liveFrom + k`, looping. Default 0. */
  liveFrom?: number;
  /** Milliseconds between the live blocks. Default 2000. */
  intervalMs?: number;
  /** Called when mining a block failed (the node stopped, say); the replay stops. */
  onError?: (error: Error) => void;
  /**
   * The tips (wei) of the transfers that the block of this number holds, one transfer per tip, as many for every block.
   * Default: one transfer with a tip of 1 gwei.
   */
  tipsOf?: (block: bigint) => readonly bigint[];
  /** How many of the history's newest blocks hold transfers too, so that tips are known from the first block on. Default 0. */
  tippedHistoryBlocks?: number;
}

/**
 * Each live block holds plain transfers (21,000 gas each, one per tip of `tipsOf`) under a block gas limit of twice
 * their gas: the block uses exactly its gas target, so EIP-1559 leaves the base fee as it is and the node reports the
 * replayed block's own base fee as the next block's (the current base fee the service compares with the busy
 * threshold). Empty blocks would make it report 7/8 of it (EIP-1559's fall after an empty block), and the demo would
 * seldom look busy.
 */
const TRANSFER_GAS = 21_000n;
/** Without `tipsOf`: one transfer at a round 1 gwei. */
const DEFAULT_TIPS: readonly bigint[] = [1_000_000_000n];
/** Enough ether that the replay's fees never run the sender dry. */
const SENDER_BALANCE_WEI = 10n ** 30n;

const hex = (value: bigint) => `0x${value.toString(16)}`;

/**
 * Replays real base fees on a local node (a chain with EIP-1559): the history at once, then one block per `intervalMs`
 * with the series' next fee, starting over at its end. Turns the node's automining off (the replay mines every block)
 * and lowers its block gas limit so that a block's transfers fill it to its gas target. Resolves once the history is mined, with
 * the function that stops it (after which no timer of the replay remains; a block being mined then is finished).
 */
export async function startDemoReplay(node: EvmNode, fees: BaseFeeSeries, options: DemoReplayOptions = {}): Promise<() => void> {
  const { liveFrom = 0, intervalMs = 2000, tipsOf = () => DEFAULT_TIPS } = options;
  const history = options.history?.baseFeesWei ?? [];
  const timestamps = options.history?.timestamps;
  const tipped = Math.min(history.length, options.tippedHistoryBlocks ?? 0);
  if (fees.baseFeesWei.length === 0) throw new RangeError("a demo replay needs at least one base fee");
  if (!Number.isInteger(liveFrom) || liveFrom < 0) throw new RangeError(`liveFrom must be a non-negative integer (got ${liveFrom})`);
  if (!(intervalMs > 0)) throw new RangeError(`intervalMs must be positive (got ${intervalMs})`);

  const untipped = history.length - tipped;
  if (untipped > 0) await node.mineBlocks(history.slice(0, untipped), timestamps?.slice(0, untipped));
  const [sender] = await node.request<string[]>("eth_accounts");
  if (sender === undefined) throw new Error("the local EVM node has no unlocked account to send the demo's transfers from: check hardhat.config.cjs");
  let nextBlock = BigInt(await node.request<string>("eth_blockNumber")) + 1n;
  const transfers = tipsOf(nextBlock).length;
  if (transfers < 1) throw new RangeError("a demo block holds at least one transfer (tipsOf gave none)");
  // The sender's nonces are counted here, so that a block's transfers are sent at once, none waiting for another.
  let nonce = BigInt(await node.request<string>("eth_getTransactionCount", [sender, "pending"]));
  await node.request("evm_setAutomine", [false]);
  await node.request("evm_setBlockGasLimit", [hex(2n * TRANSFER_GAS * BigInt(transfers))]);
  await node.request("hardhat_setBalance", [sender, hex(SENDER_BALANCE_WEI)]);

  /** The transfers of block `block`, their fee caps covering the base fee before and after. */
  const transfersOf = (block: bigint, previousFeeWei: bigint, feeWei: bigint) => {
    const tips = tipsOf(block);
    if (tips.length !== transfers) throw new RangeError(`tipsOf gave ${tips.length} tips for block ${block}, not ${transfers} as for every block`);
    const cap = feeWei > previousFeeWei ? feeWei : previousFeeWei;
    return tips.map((tipWei) => ({
      from: sender,
      to: sender,
      nonce: hex(nonce++),
      value: "0x0",
      gas: hex(TRANSFER_GAS),
      maxFeePerGas: hex(cap + tipWei),
      maxPriorityFeePerGas: hex(tipWei),
    }));
  };
  /**
   * Puts the transfers of the block to come into the mempool, ahead of it: the block is mined with them at once, and
   * the node never shows that block without them.
   */
  const queueTransfers = async (previousFeeWei: bigint, feeWei: bigint) => {
    await Promise.all(transfersOf(nextBlock, previousFeeWei, feeWei).map((transfer) => node.request("eth_sendTransaction", [transfer])));
  };

  // The history's newest blocks with their transfers, in one round trip to the node.
  if (tipped > 0) {
    const tippedTransfers = history.slice(untipped).map((feeWei, offset) => {
      const index = untipped + offset;
      return transfersOf(nextBlock + BigInt(offset), history[index - 1] ?? feeWei, feeWei);
    });
    await node.mineBlocks(history.slice(untipped), timestamps?.slice(untipped), tippedTransfers);
    nextBlock += BigInt(tipped);
  }
  // Until the first live block, the history's newest fee is the next one too, as it is after every later block.
  if (history.length > 0) await node.request("hardhat_setNextBlockBaseFeePerGas", [hex(history[history.length - 1]!)]);

  let next = liveFrom;
  await queueTransfers(history[history.length - 1] ?? 0n, replayedBaseFeeWei(fees, next));
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const fail = (error: Error) => {
    stopped = true;
    options.onError?.(error);
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = undefined;
      const feeWei = replayedBaseFeeWei(fees, next);
      next++;
      node
        .mineBlock(feeWei)
        .then(() => {
          nextBlock++;
          return stopped ? undefined : queueTransfers(feeWei, replayedBaseFeeWei(fees, next));
        })
        .then(schedule, fail);
    }, intervalMs);
  };
  schedule();

  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    timer = undefined;
  };
}
