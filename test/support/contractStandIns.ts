// Contracts answered by a stand-in JSON-RPC server (syntheticChainServer's `ethCall`): a Chainlink price feed
// (AggregatorV3Interface) and the OP stack's GasPriceOracle, honest or lying. They are stand-ins because no real node
// can be made to lie: the honest ones answer as the real contracts do (costsHardhat.test.ts and
// costsPastRounds.test.ts run the real ones on Hardhat), the liars answer the same calls with the lie asked for.
import { decodeFunctionData, encodeFunctionResult, formatUnits, parseAbi } from "viem";

export type EthCallAnswer = { result: unknown } | { error: { code: number; message: string } };
/** Answers a call meant for it, or undefined for a call it does not know (another contract's). */
export type ContractStandIn = (data: string, to: string) => EthCallAnswer | undefined;

/** What a contract answers to a call of a function it does not have. */
const REVERTED: EthCallAnswer = { error: { code: 3, message: "execution reverted" } };

const FEED_ABI = parseAbi([
  "function decimals() view returns (uint8)",
  "function description() view returns (string)",
  "function latestRoundData() view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)",
  "function getRoundData(uint80 _roundId) view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)",
]);

const ORACLE_ABI = parseAbi([
  "function getL1Fee(bytes _data) view returns (uint256)",
  "function l1BaseFee() view returns (uint256)",
  "function blobBaseFee() view returns (uint256)",
  "function baseFeeScalar() view returns (uint32)",
  "function blobBaseFeeScalar() view returns (uint32)",
]);

export const OP_GAS_PRICE_ORACLE_ADDRESS = "0x420000000000000000000000000000000000000F";

export interface Round {
  readonly roundId: bigint;
  readonly answer: bigint;
  readonly updatedAt: number;
}

/** `count` rounds `spacingS` apart, the newest at `newestAt`, from round 1: ETH near 3,000 USD in 8 decimals, each a little different. */
export function roundsEnding(newestAt: number, count: number, spacingS = 1800): Round[] {
  return Array.from({ length: count }, (_, index) => ({
    roundId: BigInt(index + 1),
    answer: 300_000_000_000n + BigInt(index) * 37_123_457n,
    updatedAt: newestAt - (count - 1 - index) * spacingS,
  }));
}

/** A round as /priceHistory shows it. */
export const pointOf = (round: Round, decimals: number) => ({ time: round.updatedAt, value: formatUnits(round.answer, decimals) });

export interface PriceFeedStandIn {
  readonly address: `0x${string}`;
  readonly description: string;
  /** What decimals() answers (a liar may say 36 while its answers keep the true scale). */
  readonly decimals: number;
  readonly rounds: () => readonly Round[];
  /** Each answer is multiplied by this (a liar's 10x), or by what it returns at each call (a liar that turns); default 1. */
  readonly answerScale?: bigint | (() => bigint);
}

/** A Chainlink aggregator at `address`: description(), decimals(), latestRoundData() and getRoundData(id). */
export function priceFeedStandIn(feed: PriceFeedStandIn): ContractStandIn {
  const scale = feed.answerScale ?? 1n;
  const scaleNow = (): bigint => (typeof scale === "bigint" ? scale : scale());
  const roundData = (round: Round) => [round.roundId, round.answer * scaleNow(), BigInt(round.updatedAt), BigInt(round.updatedAt), round.roundId] as const;
  return (data, to) => {
    if (to.toLowerCase() !== feed.address.toLowerCase()) return undefined;
    let call;
    try {
      call = decodeFunctionData({ abi: FEED_ABI, data: data as `0x${string}` });
    } catch {
      return REVERTED;
    }
    const rounds = feed.rounds();
    switch (call.functionName) {
      case "description":
        return { result: encodeFunctionResult({ abi: FEED_ABI, functionName: "description", result: feed.description }) };
      case "decimals":
        return { result: encodeFunctionResult({ abi: FEED_ABI, functionName: "decimals", result: feed.decimals }) };
      case "latestRoundData":
        return { result: encodeFunctionResult({ abi: FEED_ABI, functionName: "latestRoundData", result: roundData(rounds.at(-1)!) }) };
      case "getRoundData": {
        const asked = rounds.find((round) => round.roundId === call.args[0]);
        if (asked === undefined) return { error: { code: 3, message: "execution reverted: No data present" } };
        return { result: encodeFunctionResult({ abi: FEED_ABI, functionName: "getRoundData", result: roundData(asked) }) };
      }
    }
  };
}

/** What the OP stack's GasPriceOracle charges with (Ecotone on). */
export interface OracleInputs {
  readonly l1BaseFee: bigint;
  readonly blobBaseFee: bigint;
  readonly baseFeeScalar: number;
  readonly blobBaseFeeScalar: number;
}

/**
 * The L1 fee of the unsigned transaction `data` as Ecotone's GasPriceOracle computes it: calldata gas (16 a non-zero
 * byte, 4 a zero byte, plus 68 non-zero bytes of signature) x (baseFeeScalar x 16 x l1BaseFee + blobBaseFeeScalar x
 * blobBaseFee) / (16 x 10^6).
 */
export function ecotoneL1Fee(txHex: string, inputs: OracleInputs): bigint {
  const bytes = txHex.replace(/^0x/, "").match(/../g) ?? [];
  const calldataGas = bytes.reduce((gas, byte) => gas + (byte === "00" ? 4n : 16n), 68n * 16n);
  const feeScaled = BigInt(inputs.baseFeeScalar) * 16n * inputs.l1BaseFee + BigInt(inputs.blobBaseFeeScalar) * inputs.blobBaseFee;
  return (calldataGas * feeScaled) / 16_000_000n;
}

/** The GasPriceOracle predeploy; `feeScale` multiplies getL1Fee's answer alone (a liar whose other answers are true). */
export function opGasPriceOracleStandIn(inputs: OracleInputs, feeScale = 1n): ContractStandIn {
  return (data, to) => {
    if (to.toLowerCase() !== OP_GAS_PRICE_ORACLE_ADDRESS.toLowerCase()) return undefined;
    let call;
    try {
      call = decodeFunctionData({ abi: ORACLE_ABI, data: data as `0x${string}` });
    } catch {
      return REVERTED;
    }
    switch (call.functionName) {
      case "getL1Fee":
        return { result: encodeFunctionResult({ abi: ORACLE_ABI, functionName: "getL1Fee", result: ecotoneL1Fee(call.args[0], inputs) * feeScale }) };
      case "l1BaseFee":
        return { result: encodeFunctionResult({ abi: ORACLE_ABI, functionName: "l1BaseFee", result: inputs.l1BaseFee }) };
      case "blobBaseFee":
        return { result: encodeFunctionResult({ abi: ORACLE_ABI, functionName: "blobBaseFee", result: inputs.blobBaseFee }) };
      case "baseFeeScalar":
        return { result: encodeFunctionResult({ abi: ORACLE_ABI, functionName: "baseFeeScalar", result: inputs.baseFeeScalar }) };
      case "blobBaseFeeScalar":
        return { result: encodeFunctionResult({ abi: ORACLE_ABI, functionName: "blobBaseFeeScalar", result: inputs.blobBaseFeeScalar }) };
    }
  };
}

/** One eth_call answerer of several stand-ins: the first that knows the call answers it; a call to no contract answers "0x". */
export function ethCallOf(...standIns: readonly ContractStandIn[]): (data: string, to: string) => EthCallAnswer {
  return (data, to) => {
    for (const standIn of standIns) {
      const answer = standIn(data, to);
      if (answer !== undefined) return answer;
    }
    return { result: "0x" };
  };
}
