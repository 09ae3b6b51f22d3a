// What is read of a Chainlink aggregator (AggregatorV3Interface), decoded by viem and checked with zod: anything else
// an endpoint or a contract answers is refused with a reason, never taken as a price.
import { decodeFunctionResult, encodeFunctionData, parseAbi } from "viem";
import { z } from "zod";
import type { PastRoundAnswer } from "../../core/costs/pastRound.ts";
import { MAX_FEED_DECIMALS } from "../../core/costs/priceBounds.ts";
import type { FeedRound } from "../../core/costs/priceRound.ts";
import type { ContractClient } from "./contractClient.ts";
import { errorLine } from "../connection/errorLine.ts";

export const AGGREGATOR_V3_ABI = parseAbi([
  "function decimals() view returns (uint8)",
  "function description() view returns (string)",
  "function latestRoundData() view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)",
  "function getRoundData(uint80 _roundId) view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)",
]);

/** A feed's fixed facts, read when it is first used. */
export interface FeedSetup {
  readonly description: string;
  readonly decimals: number;
}

const setupSchema = z.strictObject({
  description: z.string().max(128, "its description is longer than any feed's"),
  decimals: z
    .number()
    .int()
    .min(0)
    .max(MAX_FEED_DECIMALS, `it states ${MAX_FEED_DECIMALS + 1} decimals or more, which no price feed has (they have 8 or 18)`),
});

/** A uint80 (a round id): viem decodes the whole 32-byte word, so a wider value is refused here. */
const uint80 = z
  .bigint()
  .min(0n)
  .max((1n << 80n) - 1n, "a round id wider than a uint80");
const roundSchema = z.tuple([uint80, z.bigint(), z.bigint().min(0n), z.bigint().min(0n), uint80]);

/** description() and decimals(); throws on a call that fails or an answer that is not theirs. */
export async function readFeedSetup(client: ContractClient, address: `0x${string}`): Promise<FeedSetup> {
  const [description, decimals] = await Promise.all([
    client.viem.readContract({ address, abi: AGGREGATOR_V3_ABI, functionName: "description" }),
    client.viem.readContract({ address, abi: AGGREGATOR_V3_ABI, functionName: "decimals" }),
  ]);
  return setupSchema.parse({ description, decimals });
}

/** A round and the endpoint (its URL as configured) that answered it. */
export interface RoundFrom {
  readonly round: FeedRound;
  readonly endpoint: string;
}

/** latestRoundData(), and which endpoint answered it; throws on a call that fails or an answer that is not a round. */
export async function readLatestRound(client: ContractClient, address: `0x${string}`): Promise<RoundFrom> {
  const answered = await client.batchFrom([roundCall(address, "latestRoundData")]);
  if (answered === undefined) throw new Error(`chain ${client.chainId} has no RPC endpoint`);
  const [outcome] = answered.outcomes;
  if (outcome === undefined) throw new Error("the endpoint left latestRoundData unanswered");
  if (!outcome.ok) throw outcome.error;
  return { round: decodeRound("latestRoundData", outcome.result), endpoint: answered.endpoint };
}

/**
 * getRoundData(`roundId`) from an endpoint of the chain other than `except`: how a suspect round is confirmed.
 * Undefined when the chain has no other endpoint; throws when each of the others fails; a round that is not the one
 * asked is returned as answered (the caller compares).
 */
export async function readRoundElsewhere(client: ContractClient, address: `0x${string}`, roundId: bigint, except: string): Promise<RoundFrom | undefined> {
  const answered = await client.batchFrom([roundCall(address, "getRoundData", roundId)], [except]);
  if (answered === undefined) return undefined;
  const [outcome] = answered.outcomes;
  if (outcome === undefined) throw new Error("the endpoint left getRoundData unanswered");
  if (!outcome.ok) throw outcome.error;
  return { round: decodeRound("getRoundData", outcome.result), endpoint: answered.endpoint };
}

function roundCall(address: `0x${string}`, functionName: "latestRoundData" | "getRoundData", roundId?: bigint) {
  const data =
    functionName === "latestRoundData"
      ? encodeFunctionData({ abi: AGGREGATOR_V3_ABI, functionName })
      : encodeFunctionData({ abi: AGGREGATOR_V3_ABI, functionName, args: [roundId ?? 0n] });
  return { method: "eth_call", params: [{ to: address, data }, "latest"] };
}

function decodeRound(functionName: "latestRoundData" | "getRoundData", result: unknown): FeedRound {
  if (typeof result !== "string" || !/^0x([0-9a-fA-F]{2})+$/.test(result)) throw new Error(`the feed's answer to ${functionName} is not call data`);
  const decoded = decodeFunctionResult({ abi: AGGREGATOR_V3_ABI, functionName, data: result as `0x${string}` });
  const [roundId, answer, startedAt, updatedAt] = roundSchema.parse(decoded);
  return { roundId, answer, startedAt, updatedAt };
}

/**
 * getRoundData() of each round id, in one JSON-RPC batch (at most MAX_BATCH_CALLS ids). A call that reverts or answers
 * what is not a round is said for its round; a batch no endpoint answers throws. Said with the endpoint that answered.
 */
export async function readPastRounds(
  client: ContractClient,
  address: `0x${string}`,
  roundIds: readonly bigint[],
): Promise<{ readonly answers: PastRoundAnswer[]; readonly endpoint: string }> {
  const answered = await client.batchFrom(
    roundIds.map((roundId) => ({
      method: "eth_call",
      params: [{ to: address, data: encodeFunctionData({ abi: AGGREGATOR_V3_ABI, functionName: "getRoundData", args: [roundId] }) }, "latest"],
    })),
  );
  if (answered === undefined) throw new Error(`chain ${client.chainId} has no RPC endpoint`);
  const { outcomes, endpoint } = answered;
  const answers = roundIds.map((_, index): PastRoundAnswer => {
    const outcome = outcomes[index];
    if (outcome === undefined) return { failed: "the endpoint left the call unanswered" };
    if (!outcome.ok) return { failed: errorLine(outcome.error) };
    try {
      if (typeof outcome.result !== "string" || !/^0x([0-9a-fA-F]{2})+$/.test(outcome.result)) throw new Error("the answer is not call data");
      const decoded = decodeFunctionResult({ abi: AGGREGATOR_V3_ABI, functionName: "getRoundData", data: outcome.result as `0x${string}` });
      const [roundId, answer, startedAt, updatedAt] = roundSchema.parse(decoded);
      return { round: { roundId, answer, startedAt, updatedAt } };
    } catch (error) {
      return { failed: `its answer is not a round (${errorLine(error, 120)})` };
    }
  });
  return { answers, endpoint };
}

/**
 * Whether a feed's description names the token and currency expected ("ETH / USD"); Chainlink's descriptions are
 * "<base> / <quote>".
 */
export function descriptionMatches(description: string, tokens: readonly string[], currency: string): boolean {
  const [base, quote, ...rest] = description.split("/").map((part) => part.trim().toUpperCase());
  return rest.length === 0 && quote === currency.toUpperCase() && base !== undefined && tokens.some((token) => token.toUpperCase() === base);
}
