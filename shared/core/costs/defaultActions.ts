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
  // A plain transfer costs exactly 21,000 gas (the intrinsic gas); signed as an EIP-1559 transaction it is 110 bytes.
  { id: "transfer", name: "ETH transfer", gas: 21_000n, txBytes: 110 },
  // transfer(address,uint256) on a token such as USDC or USDT: 68 bytes of call data on the 110-byte envelope.
  { id: "erc20-transfer", name: "ERC-20 transfer", gas: 65_000n, txBytes: 178 },
  // A one-pool swap through the chain's main router (Uniswap's Universal Router on Ethereum and its rollups).
  { id: "swap", name: "Swap", gas: 184_000n, txBytes: 900 },
  // safeTransferFrom(address,address,uint256) of an ERC-721 token.
  { id: "nft-transfer", name: "NFT transfer", gas: 85_000n, txBytes: 210 },
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
