// A past range in money: each bucket of baseFeeStats turned into what one action cost then, from the gas token's
// price points held (GET /networks/{chainId}/priceHistory). The cost at a time t is gas × the base fee at t × the
// newest price at or before t / 10^18 (docs/api.md, "Costs in money"): the base fee only, without a tip or a rollup's
// L1 fee, which are not kept per block.
import { parseGweiAmount } from "../../../shared/core/fees/parseGweiAmount.ts";
import { fiatOfWei } from "../../../shared/core/text/money.ts";
import type { BaseFeeStatsBucket } from "../../../shared/wire/baseFeeStats.ts";
import type { PricePoint } from "../../../shared/wire/costs.ts";

/** The price in force at `seconds`: the newest point at or before it; undefined before the first. Points oldest first. */
export function priceAt(points: readonly PricePoint[], seconds: number): string | undefined {
  let low = 0;
  let high = points.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (points[middle]!.time <= seconds) low = middle + 1;
    else high = middle;
  }
  return low === 0 ? undefined : points[low - 1]!.value;
}

const GWEI_FIELDS = ["min", "p10", "p25", "p50", "p75", "p90", "max"] as const;

export interface CostedBuckets {
  /** The buckets with each Gwei figure replaced by the action's cost in money; a bucket without a price holds none. */
  readonly buckets: readonly BaseFeeStatsBucket[];
  /** Buckets holding blocks but no price in force (before the first price point held): left empty. */
  readonly unpriced: number;
}

/**
 * Each bucket's base fees (min, percentiles, max) as the cost of `gas` at the price in force at the bucket's middle,
 * rounded as the contract rounds money. A bucket with blocks but no price is left without figures (a gap), counted in
 * `unpriced`.
 */
export function costBuckets(buckets: readonly BaseFeeStatsBucket[], gas: bigint, points: readonly PricePoint[]): CostedBuckets {
  let unpriced = 0;
  const costed = buckets.map((bucket): BaseFeeStatsBucket => {
    if (bucket.blocks === 0) return bucket;
    const price = priceAt(points, Math.floor((bucket.start + bucket.end) / 2));
    if (price === undefined) {
      unpriced += 1;
      return { start: bucket.start, end: bucket.end, blocks: 0 };
    }
    const figures: Partial<Record<(typeof GWEI_FIELDS)[number], string>> = {};
    for (const field of GWEI_FIELDS) {
      const gwei = bucket[field];
      if (gwei === undefined) continue;
      const amount = parseGweiAmount(gwei);
      if ("wei" in amount) figures[field] = fiatOfWei(amount.wei * gas, price);
    }
    return { ...bucket, ...figures };
  });
  return { buckets: costed, unpriced };
}
