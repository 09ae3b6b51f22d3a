// Which price feed prices each chain's gas token: Chainlink's aggregators for the default chains, from Chainlink's
// feed directory (docs.chain.link/data-feeds/price-feeds/addresses, "Standard" feeds: address and heartbeat), or the
// one a chain's settings name. docs/configuration.md#prices lists them.
import { knownChain } from "../core/chains/defaultChains.ts";
import { DEFAULT_DEVIATION } from "../core/costs/priceBounds.ts";
import type { PriceFeedSettings } from "./settings.ts";

/** A feed to read: where, what it prices, and how old its newest round may be. */
export interface PriceFeedSpec {
  readonly address: `0x${string}`;
  /** The chain whose endpoints it is read through. */
  readonly feedChainId: number;
  /** The gas token it prices ("ETH"), and other names its description may give it ("MATIC" for POL). */
  readonly token: string;
  readonly tokenAliases: readonly string[];
  /** The currency it is quoted in. */
  readonly currency: string;
  /** The feed writes a round at least this often (Chainlink's heartbeat). */
  readonly heartbeatS: number;
  /**
   * The move (a fraction) that makes the feed write a round (Chainlink's deviation threshold): how far its price may
   * move between two reads follows from it (core/costs/priceBounds.ts). DEFAULT_DEVIATION where it is not known.
   */
  readonly deviation: number;
  /**
   * What its description() must be: "pair" for "<token> / <currency>" (the default feeds), a text the user gave, or
   * "any" (a user's feed named without one).
   */
  readonly description: "pair" | "any" | { readonly exactly: string };
}

/** What prices a chain: a feed, or the reason there is none (said as /costs' priceProblem). */
export type PricePlan = { readonly kind: "feed"; readonly feed: PriceFeedSpec } | { readonly kind: "none"; readonly problem: string };

const ETHEREUM = 1;

/** Each default chain's own USD feed of its gas token, as Chainlink's directory lists it. */
const DEFAULT_USD_FEEDS: Readonly<Record<number, Omit<PriceFeedSpec, "feedChainId" | "currency" | "description">>> = {
  // Ethereum: ETH / USD, heartbeat 1 h, deviation 0.5%.
  1: { address: "0x5f4eC3Df9cbd43714FE2740f5E3616155c5b8419", token: "ETH", tokenAliases: [], heartbeatS: 3600, deviation: 0.005 },
  // Base: ETH / USD, heartbeat 20 min, deviation 0.15%.
  8453: { address: "0x71041dddad3595F9CEd3DcCFBe3D1F4b0a16Bb70", token: "ETH", tokenAliases: [], heartbeatS: 1200, deviation: 0.0015 },
  // Arbitrum One: ETH / USD, heartbeat 24 h, deviation 0.05%.
  42161: { address: "0x639Fe6ab55C921f74e7fac1ee960C0B6293ba612", token: "ETH", tokenAliases: [], heartbeatS: 86_400, deviation: 0.0005 },
  // OP Mainnet: ETH / USD, heartbeat 20 min, deviation 0.15%.
  10: { address: "0x13e3Ee699D1909E989722E753853AE30b17e08c5", token: "ETH", tokenAliases: [], heartbeatS: 1200, deviation: 0.0015 },
  // Polygon PoS: POL / USD (formerly MATIC / USD), heartbeat 27 s; its deviation is not listed here: the default.
  137: { address: "0xAB594600376Ec9fD91F8e885dADF0CE036862dE0", token: "POL", tokenAliases: ["MATIC"], heartbeatS: 27, deviation: DEFAULT_DEVIATION },
  // Linea: ETH / USD, heartbeat 24 h; its deviation is not listed here: the default.
  59144: { address: "0x3c6Cd9Cc7c7a4c2Cf5a82734CD249D7D593354dA", token: "ETH", tokenAliases: [], heartbeatS: 86_400, deviation: DEFAULT_DEVIATION },
};

/** A user's feed without a heartbeat is allowed rounds up to a day old (the longest heartbeat Chainlink's feeds have). */
export const DEFAULT_USER_FEED_HEARTBEAT_S = 86_400;

/**
 * The feed that prices `chainId`'s gas token in `currency`, given the chains followed (a feed is read only through
 * endpoints the service already follows). An ETH-gas chain reads Ethereum's ETH / USD when Ethereum is followed (one
 * read serves every such chain), else its own chain's. `override` is the chain's `priceFeed` setting.
 */
export function pricePlanOf(
  chainId: number,
  chainName: string,
  override: PriceFeedSettings | false | undefined,
  followedChainIds: readonly number[],
  currency: string,
): PricePlan {
  if (override === false) return { kind: "none", problem: `prices are turned off for ${chainName} (its priceFeed setting is false)` };
  const chain = knownChain(chainId);
  if (override !== undefined) {
    const feedChainId = override.chainId ?? chainId;
    if (!followedChainIds.includes(feedChainId)) {
      return { kind: "none", problem: `the price feed is on chain ${feedChainId}, which is not followed: add that chain or name a feed on a followed one` };
    }
    const token = override.token ?? chain?.nativeCurrency.symbol ?? "ETH";
    return {
      kind: "feed",
      feed: {
        address: override.address as `0x${string}`,
        feedChainId,
        token,
        tokenAliases: [],
        currency,
        heartbeatS: override.heartbeatSeconds ?? DEFAULT_USER_FEED_HEARTBEAT_S,
        deviation: DEFAULT_DEVIATION,
        description: override.description === undefined ? "any" : { exactly: override.description },
      },
    };
  }
  if (chain?.testnet === true) return { kind: "none", problem: `${chainName} is a testnet: its ${chain.nativeCurrency.symbol} has no price` };
  if (currency !== "USD") {
    return {
      kind: "none",
      problem: `no default price feed gives ${chainName}'s gas token in ${currency}: set the chain's priceFeed to one quoted in ${currency}`,
    };
  }
  const own = DEFAULT_USD_FEEDS[chainId];
  const ethGas = chain?.nativeCurrency.symbol === "ETH";
  if (ethGas && chainId !== ETHEREUM && followedChainIds.includes(ETHEREUM)) {
    return { kind: "feed", feed: { ...DEFAULT_USD_FEEDS[ETHEREUM]!, feedChainId: ETHEREUM, currency, description: "pair" } };
  }
  if (own !== undefined) return { kind: "feed", feed: { ...own, feedChainId: chainId, currency, description: "pair" } };
  return { kind: "none", problem: `no default price feed for ${chainName}: set the chain's priceFeed to a Chainlink aggregator of its gas token` };
}
