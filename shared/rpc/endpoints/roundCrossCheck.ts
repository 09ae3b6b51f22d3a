// A price round used is compared across the endpoints of the chain its feed is read on (CONTRACT.md, "Endpoints check
// each other"): the same round, asked by its id, must be the same everywhere.
import { decodeFunctionResult, encodeFunctionData } from "viem";
import type { FeedRound } from "../../core/costs/priceRound.ts";
import type { ContractClient } from "../contracts/contractClient.ts";
import { AGGREGATOR_V3_ABI } from "../contracts/priceFeedReads.ts";
import { differenceText, judgeAnswers, type Witness } from "./judgeAnswers.ts";

/**
 * `agreed`: every endpoint that answered gives the round as read (or the chain has one endpoint). `outvoted`: the round
 * as read stands against a majority: the endpoints that gave it are set aside, and the round is to be read again.
 * `disputed`: two stories and no majority: the chain is disputed and the round is not used (`problem` says why).
 */
export type RoundCheck = { readonly kind: "agreed" } | { readonly kind: "outvoted" } | { readonly kind: "disputed"; readonly problem: string };

/**
 * Asks every endpoint the layer trusts for round `round.roundId` of the feed at `address` (getRoundData, one call each)
 * and judges their answers with the round as read: an endpoint against a majority is set aside for every reader, with
 * how it differed; no majority is a dispute, said on the chain (and settled by the next round that agrees).
 */
export async function crossCheckRound(client: ContractClient, address: `0x${string}`, round: FeedRound, readFrom: string | undefined): Promise<RoundCheck> {
  const subject = `price feed ${address.toLowerCase()}`;
  const endpoints = client.trustedEndpoints();
  if (endpoints.length < 2) return { kind: "agreed" };
  const call = {
    method: "eth_call",
    params: [{ to: address, data: encodeFunctionData({ abi: AGGREGATOR_V3_ABI, functionName: "getRoundData", args: [round.roundId] }) }, "latest"],
  };
  const valueOf = (answer: bigint, updatedAt: bigint) => `${answer} updated at ${updatedAt}`;
  const read = valueOf(round.answer, round.updatedAt);
  const answers = await Promise.all(
    endpoints.map(async (url): Promise<Witness | undefined> => {
      try {
        const [outcome] = await client.batchAt(url, [call]);
        if (outcome === undefined || !outcome.ok || typeof outcome.result !== "string") return undefined;
        const [, answer, , updatedAt] = decodeFunctionResult({ abi: AGGREGATOR_V3_ABI, functionName: "getRoundData", data: outcome.result as `0x${string}` });
        return { source: url, value: valueOf(answer, updatedAt) };
      } catch {
        // An endpoint that cannot answer now (failing, no such round yet) is no witness.
        return undefined;
      }
    }),
  );
  const witnesses = answers.filter((witness) => witness !== undefined);
  if (readFrom !== undefined && !witnesses.some((witness) => witness.source === readFrom)) witnesses.push({ source: readFrom, value: read });
  const judgement = judgeAnswers(witnesses);
  if (judgement.kind === "agreed") {
    client.dispute(subject, undefined);
    return judgement.value === read || witnesses.length === 0 ? { kind: "agreed" } : { kind: "outvoted" };
  }
  const how = differenceText(`round ${round.roundId} of the price feed ${address}`, judgement);
  if (judgement.kind === "disputed") {
    client.dispute(subject, how);
    return { kind: "disputed", problem: `the chain's endpoints disagree on the price and no majority settles it: ${how}` };
  }
  client.dispute(subject, undefined);
  for (const outlier of judgement.outliers)
    client.setAside(outlier.source, new Error(`${outlier.source} is set aside: it differs from the chain's other endpoints: ${how}`));
  return judgement.value === read ? { kind: "agreed" } : { kind: "outvoted" };
}
