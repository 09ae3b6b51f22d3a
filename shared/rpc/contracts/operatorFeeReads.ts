// OP-stack chains' operator fee (Isthmus) of transactions of given gas, from the chain's own GasPriceOracle predeploy
// (getOperatorFee), through the same contract client as its L1 fee; bounded and judged before it is used.
import { decodeFunctionResult, encodeFunctionData, parseAbi } from "viem";
import type { ContractClient } from "./contractClient.ts";
import { RpcEndpointError } from "../connection/errors.ts";
import { OP_GAS_PRICE_ORACLE, resultData } from "./l1FeeReads.ts";

export const OPERATOR_FEE_ABI = parseAbi(["function getOperatorFee(uint256 _gasUsed) view returns (uint256)"]);

/** No operator fee of one transaction reaches this (1,000 ETH): an answer above it is garbage. */
const MAX_OPERATOR_FEE_WEI = 10n ** 21n;

/**
 * A revert without a reason, as nodes word it (op-geth "execution reverted", Hardhat's EDR "Transaction reverted
 * without a reason string"): what an oracle from before Isthmus answers, having no getOperatorFee.
 */
const REVERT_WITHOUT_REASON = /^(error: )?(execution reverted|transaction reverted without a reason( string)?)\.?$/i;

/**
 * The operator fee of a transaction using each amount of `gasAmounts`, in one JSON-RPC batch. An oracle from before
 * Isthmus has no getOperatorFee: every call reverts without a reason, and the chain sets none (0 each). Throws (with
 * the reason) when a call fails otherwise, answers what is not a fee, or the fees are not what the oracle's formula
 * (a scalar per gas and a constant) can give: a fee that falls as the gas grows, or some calls reverting and not others.
 */
export async function readOperatorFees(client: ContractClient, gasAmounts: readonly bigint[]): Promise<ReadonlyMap<bigint, bigint>> {
  const gases = [...new Set(gasAmounts)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (gases.length === 0) return new Map();
  const outcomes = await client.batch(
    gases.map((gas) => ({
      method: "eth_call",
      params: [{ to: OP_GAS_PRICE_ORACLE, data: encodeFunctionData({ abi: OPERATOR_FEE_ABI, functionName: "getOperatorFee", args: [gas] }) }, "latest"],
    })),
  );
  const reverted = outcomes.map((outcome) => outcome !== undefined && !outcome.ok && isRevertWithoutReason(outcome.error));
  if (reverted.every(Boolean)) return new Map(gases.map((gas) => [gas, 0n]));
  if (reverted.some(Boolean)) throw new Error("the oracle's getOperatorFee reverted for some gas amounts and not for others");
  const fees = gases.map((gas, index) => {
    // A uint256: never negative, but it may be any size.
    const fee = decodeFunctionResult({ abi: OPERATOR_FEE_ABI, functionName: "getOperatorFee", data: resultData(outcomes[index]) });
    if (fee > MAX_OPERATOR_FEE_WEI)
      throw new Error(`the oracle's operator fee at ${gas} gas, ${fee} wei, is more than any transaction's operator fee (1,000 ETH)`);
    return fee;
  });
  fees.forEach((fee, index) => {
    if (index > 0 && fee < fees[index - 1]!) {
      throw new Error(
        `the oracle's operator fee falls as the gas grows (${fees[index - 1]} wei at ${gases[index - 1]} gas, ${fee} wei at ${gases[index]} gas)`,
      );
    }
  });
  return new Map(gases.map((gas, index) => [gas, fees[index]!]));
}

function isRevertWithoutReason(error: Error): boolean {
  return (
    error instanceof RpcEndpointError &&
    (error.rpcCode === 3 || error.rpcCode === -32603 || error.rpcCode === -32000) &&
    REVERT_WITHOUT_REASON.test(error.reason.trim())
  );
}
