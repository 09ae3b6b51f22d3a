import { BLOB_SCHEDULES, blobBaseFeeOf, GAS_PER_BLOB, nextExcessBlobGas } from "../core/fees/blobFeeRule.ts";
import type { RequestingProvider } from "./edrCallRunner.ts";

/**
 * The demo chain's blob fees. Hardhat's EDR mines no blob transactions and answers `eth_feeHistory` without
 * `baseFeePerBlobGas` or `blobGasUsedRatio`, so this thin layer in front of its provider adds them: each block is said
 * to have used a number of blobs (a pattern of the block number: busy stretches above the target, steady ones at it,
 * quiet ones below), and its blob base fee follows from that by EIP-4844's rule with EIP-7918's reserve price, from
 * the node's own base fees, as an execution client computes it. Only `eth_feeHistory` answers change.
 */

/** The demo chain's blob schedule: Ethereum's now (BPO2: target 14, max 21 blobs), as the dashboard assumes for it. */
export const DEMO_BLOB_SCHEDULE = BLOB_SCHEDULES.bpo2;

/**
 * Blobs the demo's block `block` used: a cycle of an hour of 2 s blocks. A busy stretch two thirds of a blob above the
 * target of 14 on average lifts the fee about tenfold off EIP-7918's floor, a steady one at the target holds it, a
 * quiet one below it brings it back down to the floor.
 */
export function demoBlobsOf(block: number): number {
  const phase = block % 1_800;
  if (phase < 300) return [15, 14, 15, 14, 15, 15][block % 6]!; // busy: above the target
  if (phase < 1_100) return [14, 13, 15, 14, 14][block % 5]!; // at it
  return [10, 12, 9, 11, 13, 8, 12][block % 7]!; // quiet: below it
}

/** How many blocks to read the node's base fees for at once, when the layer needs those of blocks it has not seen. */
const BASE_FEE_PAGE = 1_024;

interface FeeHistoryResult {
  readonly oldestBlock: string;
  readonly baseFeePerGas: readonly string[];
  readonly gasUsedRatio: readonly number[];
}

/** Each block's excess blob gas from block 0 on, computed in order once and kept (the demo's blocks never change). */
export class DemoBlobFees {
  readonly #provider: RequestingProvider;
  /** Excess blob gas by block number, from 0 up. */
  readonly #excess: bigint[] = [0n];
  /** The node's base fee by block number, as far as read. */
  readonly #baseFees: bigint[] = [];

  constructor(provider: RequestingProvider) {
    this.#provider = provider;
  }

  /** The call, answered by the node; an `eth_feeHistory` answer with the blob fields added. */
  async request(args: { method: string; params?: unknown[] }): Promise<unknown> {
    const answer = await this.#provider.request(args);
    if (args.method !== "eth_feeHistory" || !isFeeHistory(answer)) return answer;
    const oldest = Number(BigInt(answer.oldestBlock));
    const blocks = answer.gasUsedRatio.length;
    answer.baseFeePerGas.forEach((fee, i) => (this.#baseFees[oldest + i] = BigInt(fee)));
    await this.#readBaseFeesBefore(oldest);
    const withNext = answer.baseFeePerGas.length;
    const fees: string[] = [];
    for (let i = 0; i < withNext; i++) fees.push(`0x${blobBaseFeeOf(this.#excessAt(oldest + i), DEMO_BLOB_SCHEDULE).toString(16)}`);
    const ratios = Array.from({ length: blocks }, (_, i) => demoBlobsOf(oldest + i) / DEMO_BLOB_SCHEDULE.max);
    return { ...answer, baseFeePerBlobGas: fees, blobGasUsedRatio: ratios };
  }

  /** Reads the node's base fees of the blocks below `block` not read yet (the excess of a block needs its parents'). */
  async #readBaseFeesBefore(block: number): Promise<void> {
    let missing = block - 1;
    while (missing >= this.#excess.length - 1 && missing >= 0 && this.#baseFees[missing] === undefined) {
      const count = Math.min(BASE_FEE_PAGE, missing + 1);
      const page = await this.#provider.request({ method: "eth_feeHistory", params: [`0x${count.toString(16)}`, `0x${missing.toString(16)}`, []] });
      if (!isFeeHistory(page)) throw new Error("the node answered eth_feeHistory in a shape the demo's blob layer does not know");
      const first = Number(BigInt(page.oldestBlock));
      page.baseFeePerGas.slice(0, page.gasUsedRatio.length).forEach((fee, i) => (this.#baseFees[first + i] = BigInt(fee)));
      missing = first - 1;
    }
  }

  /** Block `block`'s excess blob gas: its parent's, moved by EIP-7918's rule with the parent's blobs and base fee. */
  #excessAt(block: number): bigint {
    for (let next = this.#excess.length; next <= block; next++) {
      const parent = next - 1;
      const baseFeeWei = this.#baseFees[parent] ?? 0n;
      this.#excess.push(
        nextExcessBlobGas({ excessBlobGas: this.#excess[parent]!, blobGasUsed: BigInt(demoBlobsOf(parent)) * GAS_PER_BLOB, baseFeeWei }, DEMO_BLOB_SCHEDULE),
      );
    }
    return this.#excess[block]!;
  }
}

/** `provider` with the demo's blob fees in its `eth_feeHistory` answers; everything else as it is. */
export function withDemoBlobFees<P extends RequestingProvider>(provider: P): P {
  const fees = new DemoBlobFees(provider);
  return new Proxy(provider, {
    get(target, property) {
      if (property === "request") return (args: { method: string; params?: unknown[] }) => fees.request(args);
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

function isFeeHistory(value: unknown): value is FeeHistoryResult {
  if (typeof value !== "object" || value === null) return false;
  const { oldestBlock, baseFeePerGas, gasUsedRatio } = value as Record<string, unknown>;
  return typeof oldestBlock === "string" && Array.isArray(baseFeePerGas) && Array.isArray(gasUsedRatio);
}
