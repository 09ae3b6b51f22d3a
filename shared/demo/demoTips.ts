/**
 * The tips (priority fees) of the demo's transfers. The shipped mainnet data holds base fees only, and no copy of the
 * replayed blocks' own tips was at hand, so the demo draws each block's tips from a distribution shaped after one
 * published answer of the hosted Gas API for Ethereum mainnet: the example of `GET /networks/1/suggestedGasFees` in
 * MetaMask's Gas API reference (docs.metamask.io, "Get EIP-1559 gas prices"). There the tiers' tips are 0.05, 0.1 and
 * 0.3 Gwei (low, medium, high), the newest block's tips run from 0 to 3 Gwei, and the recent blocks' up to 89 Gwei.
 *
 * How this file turns those figures into blocks, so that the service's own rule (suggestGasFees: a tier's tip is the
 * 50th, 75th or 95th percentile of the recent blocks' 10th-percentile tips) gives the published tiers back:
 * - a block's cheapest tip (its 10th percentile too: each block holds DEMO_TRANSFERS_PER_BLOCK transfers of equal gas)
 *   is drawn with the quantiles 0.05 Gwei at 50%, 0.1 at 75% and 0.3 at 95%, interpolated on a log scale, with tails
 *   of our own choosing (0.01 Gwei at 0%, 0.5 at 100%);
 * - its highest tip is drawn between 1 and 3 Gwei (the newest block's range), and in one block of twenty between 3
 *   and 89 Gwei (the recent blocks' range): a few senders always pay far above the rest;
 * - the tips between lie evenly on a log scale from the cheapest to the highest.
 * Each block's draw is a fixed function of its number, so a run of the demo is the same at every start. It is a
 * simplification: real blocks hold hundreds of transactions, and real tips rise with congestion.
 */

/** Transfers in each of the demo's blocks: enough for a spread of tips, few enough to send every 2 s at no cost. */
export const DEMO_TRANSFERS_PER_BLOCK = 6;

const GWEI = 1_000_000_000;
/** Tips are whole thousandths of a Gwei ("0.052"), as wallets round them. */
const TIP_STEP_WEI = 1_000_000n;

/** The cheapest tip's quantiles in Gwei: the published tiers at 50, 75 and 95%; the two ends are the demo's own. */
export const DEMO_FLOOR_QUANTILES: readonly (readonly [share: number, gwei: number])[] = [
  [0, 0.01],
  [0.5, 0.05],
  [0.75, 0.1],
  [0.95, 0.3],
  [1, 0.5],
];
/** The highest tip of a block, in Gwei: most blocks (the newest block's published range), and one in twenty. */
const TOP_TIP_GWEI = { usual: [1, 3], rare: [3, 89] } as const;
const RARE_TOP_SHARE = 0.05;

/** The block's tips in wei, ascending, DEMO_TRANSFERS_PER_BLOCK of them (see the file's comment). */
export function demoBlockTipsWei(block: bigint): readonly bigint[] {
  const random = blockRandom(block);
  const floorGwei = quantileOf(DEMO_FLOOR_QUANTILES, random());
  const [low, high] = random() < RARE_TOP_SHARE ? TOP_TIP_GWEI.rare : TOP_TIP_GWEI.usual;
  const topGwei = low * (high / low) ** random();
  const tips: bigint[] = [];
  for (let index = 0; index < DEMO_TRANSFERS_PER_BLOCK; index++) {
    const gwei = floorGwei * (topGwei / floorGwei) ** (index / (DEMO_TRANSFERS_PER_BLOCK - 1));
    tips.push(roundedTipWei(gwei));
  }
  return tips;
}

/** The value at `share` (0 to 1) of a quantile table, interpolated on a log scale between its points. */
export function quantileOf(table: readonly (readonly [number, number])[], share: number): number {
  const upper = table.findIndex(([at]) => at >= share);
  if (upper <= 0) return table[0]![1];
  const [shareLow, low] = table[upper - 1]!;
  const [shareHigh, high] = table[upper]!;
  return low * (high / low) ** ((share - shareLow) / (shareHigh - shareLow));
}

function roundedTipWei(gwei: number): bigint {
  const steps = BigInt(Math.max(1, Math.round((gwei * GWEI) / Number(TIP_STEP_WEI))));
  return steps * TIP_STEP_WEI;
}

/** Uniform numbers in [0, 1) that depend on the block number only (splitmix32 seeded by it). */
function blockRandom(block: bigint): () => number {
  let state = Number(BigInt.asUintN(32, block * 0x9e3779b1n + 0x7f4a7c15n));
  return () => {
    state = (state + 0x9e3779b9) | 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    z ^= z >>> 16;
    return (z >>> 0) / 4_294_967_296;
  };
}
