// Rollups' L1 data fee for transactions of given sizes, from the chain's own oracle: the OP-stack GasPriceOracle
// predeploy (getL1Fee), or Arbitrum's ArbGasInfo precompile (getPricesInWei: the L1 price of a byte).
import { decodeFunctionResult, encodeFunctionData, parseAbi } from "viem";
import { z } from "zod";
import { opStackL1FeeProblem, type OpStackL1Inputs } from "../../core/costs/l1FeeBound.ts";
import { opStackStandInTx } from "../../core/costs/l1FeeData.ts";
import type { ContractClient } from "./contractClient.ts";
import type { RpcOutcome } from "../connection/rpcConnection.ts";

export const OP_GAS_PRICE_ORACLE = "0x420000000000000000000000000000000000000F";
export const ARB_GAS_INFO = "0x000000000000000000000000000000000000006C";

export const GAS_PRICE_ORACLE_ABI = parseAbi([
  "function getL1Fee(bytes _data) view returns (uint256)",
  "function l1BaseFee() view returns (uint256)",
  "function blobBaseFee() view returns (uint256)",
  "function baseFeeScalar() view returns (uint32)",
  "function blobBaseFeeScalar() view returns (uint32)",
]);
/** The oracle's inputs (Ecotone on), read in the fees' batch to bound them (core/costs/l1FeeBound.ts). */
const OP_INPUTS = ["l1BaseFee", "blobBaseFee", "baseFeeScalar", "blobBaseFeeScalar"] as const;
export const ARB_GAS_INFO_ABI = parseAbi(["function getPricesInWei() view returns (uint256, uint256, uint256, uint256, uint256, uint256)"]);

/** How a chain charges for L1 data: the OP stack's oracle, Arbitrum's, or not at all. */
export type L1FeeKind = "op-stack" | "arbitrum" | "none";

/** No L1 data fee of one transaction reaches this (1,000 ETH): an answer above it is garbage. */
const MAX_L1_FEE_WEI = 10n ** 21n;
const l1FeeSchema = z.bigint().min(0n).max(MAX_L1_FEE_WEI, "more than any transaction's L1 fee");

/** An oracle's fee its own inputs cannot explain (l1FeeBound.ts): refused, not a failed call. */
export class L1FeeRefusedError extends Error {
  override name = "L1FeeRefusedError";
}

/** L1 fees read, and on the OP stack the oracle inputs they were judged by (a later read may use them again). */
export interface L1FeeRead {
  readonly fees: ReadonlyMap<number, bigint>;
  readonly opInputs?: OpStackL1Inputs | undefined;
}

/**
 * The L1 fee of a transaction of each size in `sizes`, in one JSON-RPC batch; throws (with the oracle's reason) when
 * a call fails or answers what is not a fee. On the OP stack each fee is judged by the oracle's L1 base fee, blob base
 * fee and scalars (l1FeeBound.ts): `known` ones from an earlier read when given, else read in the same batch; a fee the
 * known inputs cannot explain is read again with fresh inputs, and refused when those cannot explain it either.
 */
export async function readL1Fees(
  client: ContractClient,
  kind: Exclude<L1FeeKind, "none">,
  sizes: readonly number[],
  known?: OpStackL1Inputs,
): Promise<L1FeeRead> {
  if (kind === "arbitrum") {
    const [outcome] = await client.batch([
      { method: "eth_call", params: [{ to: ARB_GAS_INFO, data: encodeFunctionData({ abi: ARB_GAS_INFO_ABI, functionName: "getPricesInWei" }) }, "latest"] },
    ]);
    const prices = decodeFunctionResult({ abi: ARB_GAS_INFO_ABI, functionName: "getPricesInWei", data: resultData(outcome) });
    // The second value is the price of one byte of L1 call data, in wei.
    const perByte = l1FeeSchema.parse(prices[1]);
    return { fees: new Map(sizes.map((size) => [size, l1FeeSchema.parse(perByte * BigInt(size))])) };
  }
  const inputCalls =
    known !== undefined
      ? []
      : OP_INPUTS.map((functionName) => ({
          method: "eth_call",
          params: [{ to: OP_GAS_PRICE_ORACLE, data: encodeFunctionData({ abi: GAS_PRICE_ORACLE_ABI, functionName }) }, "latest"],
        }));
  const outcomes = await client.batch([
    ...inputCalls,
    ...sizes.map((size) => ({
      method: "eth_call",
      params: [
        { to: OP_GAS_PRICE_ORACLE, data: encodeFunctionData({ abi: GAS_PRICE_ORACLE_ABI, functionName: "getL1Fee", args: [opStackStandInTx(size)] }) },
        "latest",
      ],
    })),
  ]);
  const inputs = known ?? decodeInputs(outcomes);
  const fees = sizes.map((size, index) => ({
    size,
    fee: l1FeeSchema.parse(
      decodeFunctionResult({ abi: GAS_PRICE_ORACLE_ABI, functionName: "getL1Fee", data: resultData(outcomes[inputCalls.length + index]) }),
    ),
  }));
  const problem = fees.map(({ size, fee }) => opStackL1FeeProblem(size, fee, inputs)).find((found) => found !== undefined);
  if (problem !== undefined) {
    if (known !== undefined) return readL1Fees(client, kind, sizes);
    throw new L1FeeRefusedError(problem);
  }
  return { fees: new Map(fees.map(({ size, fee }) => [size, fee])), opInputs: inputs };
}

function decodeInputs(outcomes: readonly RpcOutcome[]): OpStackL1Inputs {
  const [l1BaseFee, blobBaseFee, baseFeeScalar, blobBaseFeeScalar] = OP_INPUTS.map((functionName, index) =>
    BigInt(decodeFunctionResult({ abi: GAS_PRICE_ORACLE_ABI, functionName, data: resultData(outcomes[index]) })),
  ) as [bigint, bigint, bigint, bigint];
  return { l1BaseFee, blobBaseFee, baseFeeScalar, blobBaseFeeScalar };
}

/** The call data an oracle's call answered; throws when the call failed or answered what is not call data, or nothing. */
export function resultData(outcome: { ok: true; result: unknown } | { ok: false; error: Error } | undefined): `0x${string}` {
  if (outcome === undefined) throw new Error("the endpoint left a call of the batch unanswered");
  if (!outcome.ok) throw outcome.error;
  if (typeof outcome.result !== "string" || !/^0x([0-9a-fA-F]{2})*$/.test(outcome.result)) throw new Error("the oracle's answer is not call data");
  if (outcome.result === "0x") throw new Error("the oracle answered nothing (no contract at its address?)");
  return outcome.result as `0x${string}`;
}

/** How `chainId` charges for L1 data, for the default chains: OP Mainnet and Base the OP stack's way, Arbitrum One its own. */
export function defaultL1FeeKind(chainId: number): L1FeeKind {
  if (chainId === 10 || chainId === 8453) return "op-stack";
  if (chainId === 42161) return "arbitrum";
  return "none";
}
