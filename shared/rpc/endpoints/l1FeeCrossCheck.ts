// An L1 fee used is compared across the rollup's endpoints (CONTRACT.md, "Endpoints check each other"). The fee moves
// block to block and endpoints stand at slightly different heads, so answers within L1_FEE_AGREEMENT of each other
// are one story; a lie (an oracle 1,000 times off) is not.
import { decodeFunctionResult, encodeFunctionData } from "viem";
import { opStackStandInTx } from "../../core/costs/l1FeeData.ts";
import type { ContractClient } from "../contracts/contractClient.ts";
import { ARB_GAS_INFO, ARB_GAS_INFO_ABI, GAS_PRICE_ORACLE_ABI, OP_GAS_PRICE_ORACLE, type L1FeeKind } from "../contracts/l1FeeReads.ts";
import { differenceText, judgeAnswers, type Witness } from "./judgeAnswers.ts";
import type { RoundCheck } from "./roundCrossCheck.ts";

/** Two L1 fees within this factor of each other tell one story (the fee of a block or two apart). */
export const L1_FEE_AGREEMENT = 1.5;

/**
 * Asks every endpoint the layer trusts for the L1 fee of a `size`-byte transaction (one call each) and judges the
 * answers with the fee read (`read`, from `readFrom`): an endpoint against a majority is set aside for every reader;
 * no majority is a dispute of the chain. Answers are grouped into stories of fees within L1_FEE_AGREEMENT.
 */
export async function crossCheckL1Fee(
  client: ContractClient,
  kind: Exclude<L1FeeKind, "none">,
  size: number,
  read: bigint,
  readFrom: string | undefined,
): Promise<RoundCheck> {
  const subject = "L1 fee";
  const endpoints = client.trustedEndpoints();
  if (endpoints.length < 2) return { kind: "agreed" };
  const call =
    kind === "arbitrum"
      ? { method: "eth_call", params: [{ to: ARB_GAS_INFO, data: encodeFunctionData({ abi: ARB_GAS_INFO_ABI, functionName: "getPricesInWei" }) }, "latest"] }
      : {
          method: "eth_call",
          params: [
            { to: OP_GAS_PRICE_ORACLE, data: encodeFunctionData({ abi: GAS_PRICE_ORACLE_ABI, functionName: "getL1Fee", args: [opStackStandInTx(size)] }) },
            "latest",
          ],
        };
  const fees = await Promise.all(
    endpoints.map(async (url): Promise<{ url: string; fee: bigint } | undefined> => {
      try {
        const [outcome] = await client.batchAt(url, [call]);
        if (outcome === undefined || !outcome.ok || typeof outcome.result !== "string") return undefined;
        const data = outcome.result as `0x${string}`;
        const fee =
          kind === "arbitrum"
            ? decodeFunctionResult({ abi: ARB_GAS_INFO_ABI, functionName: "getPricesInWei", data })[1] * BigInt(size)
            : decodeFunctionResult({ abi: GAS_PRICE_ORACLE_ABI, functionName: "getL1Fee", data });
        return { url, fee };
      } catch {
        return undefined;
      }
    }),
  );
  const answered = fees.filter((fee) => fee !== undefined);
  if (readFrom !== undefined && !answered.some((fee) => fee.url === readFrom)) answered.push({ url: readFrom, fee: read });
  const storyOf = stories([...answered.map((fee) => fee.fee), read]);
  const witnesses: Witness[] = answered.map(({ url, fee }) => ({ source: url, value: storyOf(fee) }));
  const judgement = judgeAnswers(witnesses);
  if (judgement.kind === "agreed") {
    client.dispute(subject, undefined);
    return judgement.value === storyOf(read) || witnesses.length === 0 ? { kind: "agreed" } : { kind: "outvoted" };
  }
  const how = differenceText(`the L1 fee of a ${size}-byte transaction`, judgement);
  if (judgement.kind === "disputed") {
    client.dispute(subject, how);
    return { kind: "disputed", problem: `the chain's endpoints disagree on the L1 fee and no majority settles it: ${how}` };
  }
  client.dispute(subject, undefined);
  for (const outlier of judgement.outliers)
    client.setAside(outlier.source, new Error(`${outlier.source} is set aside: it differs from the chain's other endpoints: ${how}`));
  return judgement.value === storyOf(read) ? { kind: "agreed" } : { kind: "outvoted" };
}

/** Groups fees into stories: sorted, a fee within L1_FEE_AGREEMENT of the one before it joins its story, named "about <lowest> wei". */
function stories(fees: readonly bigint[]): (fee: bigint) => string {
  const sorted = [...new Set(fees)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const names = new Map<bigint, string>();
  let name = "";
  let previous: bigint | undefined;
  for (const fee of sorted) {
    if (previous === undefined || Number(fee) > Number(previous) * L1_FEE_AGREEMENT) name = `about ${fee} wei`;
    names.set(fee, name);
    previous = fee;
  }
  return (fee) => names.get(fee) ?? `about ${fee} wei`;
}
