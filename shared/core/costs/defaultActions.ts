// The actions whose cost /costs shows by default (CONTRACT.md, "Costs in money"); docs/configuration.md#actions says
// where each figure comes from.

/** An action: the gas it uses and the size of its signed transaction (what a rollup's L1 data fee is charged on). */
export interface Action {
  readonly id: string;
  readonly name: string;
  readonly gas: bigint;
  readonly txBytes: number;
}

export const DEFAULT_ACTIONS: readonly Action[] = Object.freeze([
  // A plain transfer costs exactly 21,000 gas (the intrinsic gas); signed as an EIP-1559 transaction moving 0.1 ETH (a
  // value of 0.0721 to 18.4 ETH takes 8 bytes) it is 118 bytes (defaultActions.test.ts signs one); 110 with no value.
  { id: "transfer", name: "ETH transfer", gas: 21_000n, txBytes: 118 },
  // A real mainnet USDT transfer(address,uint256) to an address already holding USDT: 41,309 gas, tx
  // 0x9ace5449eb6e06869811160970ae80df6c78303996f37aaef7ed48bbf55d6b18 (quoted in ethereum.stackexchange.com/q/149423).
  // 68 bytes of call data on the 110-byte envelope.
  { id: "erc20-transfer", name: "ERC-20 transfer", gas: 41_309n, txBytes: 178 },
  // Uniswap/universal-router gas snapshot recorded on a mainnet fork (block 15,360,000), "Trade on UniswapV3 with
  // Universal Router. ERC20 --> ERC20 gas: exactIn, one trade, one hop" (DAI -> WETH, 0.3% pool): gasUsed 106,467,
  // calldata 516 bytes (test/integration-tests/gas-tests/__snapshots__/Uniswap.gas.test.ts.snap @ 1aba8b9b).
  { id: "swap", name: "Swap", gas: 106_467n, txBytes: 626 },
  // Measured on a local EVM (Hardhat, Osaka rules), not a mainnet transaction: test/integration/nftTransferHardhat.test.ts
  // deploys test/support/contracts/DemoCollection.sol (OpenZeppelin's ERC721 v4.9.3, as most collections are built)
  // and sends safeTransferFrom(from, to, 1) as a wallet would: the sender keeps other tokens of the collection (its
  // balance 3 -> 2, no refund), the recipient, an ordinary address, holds none yet (0 -> 1). gasUsed 62,938; signed as
  // an EIP-1559 transaction on chain 1 with a nonce under 128 and a 1 Gwei tip, 20 Gwei cap: 211 bytes. The test fails
  // if these figures and its measurement part.
  { id: "nft-transfer", name: "NFT transfer", gas: 62_938n, txBytes: 211 },
]);

/**
 * The defaults, with the user's own after them (as the settings hold them: gas a number); one of the user's with a
 * default's id takes that default's place.
 */
export function actionsWith(userActions: ReadonlyArray<Omit<Action, "gas"> & { readonly gas: number | bigint }>): readonly Action[] {
  const own = new Map(userActions.map((action) => [action.id, { ...action, gas: BigInt(action.gas) }]));
  const defaults = DEFAULT_ACTIONS.map((action) => own.get(action.id) ?? action);
  return [...defaults, ...[...own.values()].filter((action) => !DEFAULT_ACTIONS.some((known) => known.id === action.id))];
}
