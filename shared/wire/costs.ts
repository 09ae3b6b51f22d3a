// What an action costs in money (CONTRACT.md, "Costs in money"): the price of a chain's gas token, the body of
// GET /networks/{chainId}/costs, and the price points of GET /networks/{chainId}/priceHistory.
import { z } from "zod";
import { gweiStringSchema } from "./apiBodies.ts";

const blockNumberSchema = z.string().regex(/^[0-9]+$/);

/** A whole amount of wei, in decimal. */
export const weiStringSchema = z.string().regex(/^(0|[1-9][0-9]*)$/);

/**
 * An amount of money in the currency: rounded half up to the cent ("0.99", "1.40", "3120.00"); below one cent, to
 * two significant digits ("0.0034", "0.000012"); zero is "0.00".
 */
export const fiatStringSchema = z
  .string()
  .regex(/^(0|[1-9][0-9]*)\.[0-9]+$/)
  .describe('Money in the currency, rounded half up to the cent ("1.40"); below one cent to two significant digits ("0.0034").');

/** A price as the feed gives it: its answer / 10^decimals, written exactly (shortest decimal, no exponent). */
export const priceValueSchema = z
  .string()
  .regex(/^(0|[1-9][0-9]*)(\.[0-9]*[1-9])?$/)
  .describe("One gas token in the currency: the feed's answer / 10^decimals, written exactly.");

export const priceSchema = z
  .strictObject({
    value: priceValueSchema,
    token: z.string().describe('The gas token priced ("ETH", "POL").'),
    feed: z
      .string()
      .regex(/^0x[0-9a-fA-F]{40}$/)
      .describe("The price-feed aggregator's address."),
    feedChainId: z.number().int().min(1).describe("The chain the feed is read on."),
    updatedAt: z.number().int().min(0).describe("Unix seconds of the feed's round (latestRoundData's updatedAt)."),
  })
  .readonly()
  .describe("The gas token's price in the currency, read on chain from a Chainlink aggregator; used only while fresh.");

const tierCostSchema = z
  .strictObject({
    wei: weiStringSchema.describe("gas x (next base fee + the tier's tip) + l1FeeWei + operatorFeeWei, exact."),
    fiat: fiatStringSchema.nullable().describe("wei x price / 10^18 in the currency; null without a price."),
  })
  .readonly();

export const actionCostSchema = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    gas: weiStringSchema.describe("Gas the action uses (from real transactions for the default actions)."),
    txBytes: z.number().int().min(0).describe("The signed transaction's size in bytes: what a rollup's L1 data fee is charged on."),
    low: tierCostSchema,
    medium: tierCostSchema,
    high: tierCostSchema,
    l1FeeWei: weiStringSchema
      .nullable()
      .describe('The L1 data fee of a transaction of txBytes on a rollup; "0" on chains that charge none; null when it could not be read.'),
    operatorFeeWei: weiStringSchema
      .nullable()
      .describe(
        'The operator fee of a transaction using gas on an OP-stack chain (Isthmus: GasPriceOracle.getOperatorFee(gas)), included in each tier; "0" where the chain sets none; null when it could not be read.',
      ),
  })
  .readonly();

export const costsSchema = z
  .strictObject({
    currency: z.string().describe('The currency of every fiat amount ("USD").'),
    price: priceSchema.nullable(),
    priceProblem: z
      .string()
      .nullable()
      .describe(
        "Why there is no price (no feed for this chain, stale round, zero answer, failing call, testnet); with a price, why the feed's newer round is not used (suspect, and no other endpoint confirms it: the last good price is held); null otherwise.",
      ),
    l1FeeProblem: z
      .string()
      .nullable()
      .describe("Why l1FeeWei or operatorFeeWei is null (the oracle's call failed, or answered what is not a fee); null otherwise."),
    basis: z
      .strictObject({
        block: blockNumberSchema.describe("The newest block the costs are computed at."),
        baseFee: gweiStringSchema.describe("The next block's base fee, in Gwei."),
        blobBaseFee: gweiStringSchema.optional().describe("The next block's blob base fee, in Gwei, on chains with blob fees."),
      })
      .readonly(),
    actions: z.array(actionCostSchema).readonly(),
    blob: z
      .strictObject({ blobGas: weiStringSchema, wei: weiStringSchema, fiat: fiatStringSchema.nullable() })
      .readonly()
      .optional()
      .describe("The cost of one blob (131,072 blob gas) at the next block's blob base fee, on chains with blob fees."),
  })
  .readonly()
  .describe("What each action costs now at the low, medium and high tiers, in wei and in the currency.");

export const pricePointSchema = z
  .strictObject({
    time: z.number().int().min(0).describe("Unix seconds of the feed's round (its updatedAt)."),
    value: priceValueSchema,
  })
  .readonly();

export const priceHistorySchema = z
  .array(pricePointSchema)
  .readonly()
  .describe("The gas token's price points held for the range, oldest first, starting with the point in force at the range's start.");

export type Price = z.infer<typeof priceSchema>;
export type ActionCost = z.infer<typeof actionCostSchema>;
export type Costs = z.infer<typeof costsSchema>;
export type PricePoint = z.infer<typeof pricePointSchema>;
export type PriceHistory = z.infer<typeof priceHistorySchema>;
