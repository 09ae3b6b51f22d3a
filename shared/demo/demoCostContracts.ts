// The demo chain's price feed and L1 fee oracle, placed without mining a block (the demo's blocks are all replayed
// mainnet blocks): code with hardhat_setCode, state with hardhat_setStorageAt, the same slots the contracts' own
// functions write (their storage layouts: MockV3Aggregator's source, contracts-bedrock's forge artifacts).
import { MOCK_V3_AGGREGATOR } from "./contracts/mockV3Aggregator.ts";
import { encodeAbiParameters, keccak256, numberToHex, toHex } from "viem";
import { deployedBytecodeOf, OP_GAS_PRICE_ORACLE, OP_L1_BLOCK, type OpL1Values } from "./costContracts.ts";
import type { EvmNode } from "./startEvmNode.ts";

/** The demo's feed sits where Chainlink's ETH / USD feed sits on mainnet (the chain it replays). */
export const DEMO_PRICE_FEED = "0x5f4eC3Df9cbd43714FE2740f5E3616155c5b8419";
export const DEMO_FEED_DECIMALS = 8;
/** MockV3Aggregator's description(): what the demo's chain plan expects of its feed. */
export const DEMO_FEED_DESCRIPTION = "v0.8/tests/MockV3Aggregator.sol";

/**
 * ETH in USD on the morning of 5 May 2023 (the hours the live replay plays, 02:12 to 04:05 UTC): about 1,878.50. ETH
 * closed 4 May near 1,876 and rose to about 1,990 later on 5 May (public daily price history); this is an approximate
 * figure, not a recorded Chainlink round (docs/demo.md says so).
 */
export const DEMO_ETH_USD_ANSWER = 187_850_000_000n;

/** L1 values like Base's after Ecotone (its scalars), with an L1 base fee of 30 Gwei and a blob base fee of 1 wei. */
export const DEMO_L1_VALUES: OpL1Values = {
  baseFeeScalar: 2269,
  blobBaseFeeScalar: 1_055_762,
  l1BaseFeeWei: 30_000_000_000n,
  l1BlobBaseFeeWei: 1n,
  l1Number: 17_191_292n,
  l1Timestamp: 1_683_252_707,
};

const word = (value: bigint) => toHex(BigInt.asUintN(256, value), { size: 32 });
const mappingSlot = (key: bigint, slot: bigint) => keccak256(encodeAbiParameters([{ type: "uint256" }, { type: "uint256" }], [key, slot]));

async function setSlot(node: EvmNode, address: string, slot: bigint | `0x${string}`, value: bigint): Promise<void> {
  await node.request("hardhat_setStorageAt", [address, typeof slot === "bigint" ? numberToHex(slot) : slot, word(value)]);
}

export interface DemoRound {
  readonly roundId: bigint;
  readonly answer: bigint;
  readonly updatedAt: number;
}

/**
 * Places the feed (MockV3Aggregator's runtime code, from its creation code run by eth_call) holding `rounds` (oldest
 * first), the last of them its newest: what getRoundData and latestRoundData answer.
 */
export async function placeDemoPriceFeed(node: EvmNode, rounds: readonly DemoRound[]): Promise<void> {
  const artifact = MOCK_V3_AGGREGATOR;
  const newest = rounds.at(-1);
  if (newest === undefined) throw new Error("the demo's price feed needs a round");
  const args = encodeAbiParameters([{ type: "uint8" }, { type: "int256" }], [DEMO_FEED_DECIMALS, newest.answer]).slice(2);
  const runtime = await node.request<string>("eth_call", [{ data: `${artifact.bytecode}${args}` }, "latest"]);
  await node.request("hardhat_setCode", [DEMO_PRICE_FEED, runtime]);
  await setSlot(node, DEMO_PRICE_FEED, 0n, BigInt(DEMO_FEED_DECIMALS)); // decimals
  for (const round of rounds.slice(0, -1)) await writePastRound(node, round);
  await writeDemoRound(node, newest);
}

/** A round as MockV3Aggregator.updateRoundData keeps it for getRoundData: its getAnswer, getTimestamp, getStartedAt. */
async function writePastRound(node: EvmNode, round: DemoRound): Promise<void> {
  const at = BigInt(round.updatedAt);
  await setSlot(node, DEMO_PRICE_FEED, mappingSlot(round.roundId, 4n), round.answer); // getAnswer
  await setSlot(node, DEMO_PRICE_FEED, mappingSlot(round.roundId, 5n), at); // getTimestamp
  await setSlot(node, DEMO_PRICE_FEED, mappingSlot(round.roundId, 6n), at); // getStartedAt
}

/** A new newest round as MockV3Aggregator.updateRoundData writes it: latestRound, latestAnswer, latestTimestamp too. */
export async function writeDemoRound(node: EvmNode, round: DemoRound): Promise<void> {
  await writePastRound(node, round);
  await setSlot(node, DEMO_PRICE_FEED, 1n, round.answer); // latestAnswer
  await setSlot(node, DEMO_PRICE_FEED, 2n, BigInt(round.updatedAt)); // latestTimestamp
  await setSlot(node, DEMO_PRICE_FEED, 3n, round.roundId); // latestRound
}

/**
 * GasPriceOracle and L1Block at their predeploy addresses, Ecotone and Fjord on, and `values` in L1Block's slots as
 * setL1BlockValuesEcotone writes them (number and timestamp in slot 0, basefee 1, the scalars and sequence number 3,
 * blobBaseFee 7).
 */
export async function placeDemoOpStackOracle(node: EvmNode, values: OpL1Values): Promise<void> {
  await node.request("hardhat_setCode", [OP_GAS_PRICE_ORACLE, deployedBytecodeOf("GasPriceOracle")]);
  await node.request("hardhat_setCode", [OP_L1_BLOCK, deployedBytecodeOf("L1Block")]);
  await setSlot(node, OP_GAS_PRICE_ORACLE, 0n, 0x0101n); // isEcotone, isFjord
  await setSlot(node, OP_L1_BLOCK, 0n, (BigInt(values.l1Timestamp) << 64n) | values.l1Number);
  await setSlot(node, OP_L1_BLOCK, 1n, values.l1BaseFeeWei);
  await setSlot(node, OP_L1_BLOCK, 3n, (BigInt(values.baseFeeScalar) << 96n) | (BigInt(values.blobBaseFeeScalar) << 64n));
  await setSlot(node, OP_L1_BLOCK, 7n, values.l1BlobBaseFeeWei);
}
