/** The costs stack's fixed facts, shared by its service process and the tests. */
export const COSTS_KEY = "c0575c0575c0575c0575c0575c0575c0";
export const COSTS_CHAIN_ID = 31_341;
/** Blocks replayed before the service starts: about 13 hours of real mainnet blocks (3-4 May 2023), which it backfills. */
export const COSTS_REPLAYED_BLOCKS = 4_000;
/** The price feed's decimals, as Chainlink's ETH / USD feed has them. */
export const FEED_DECIMALS = 8;
/** How old a round may be: 6 hours (the stack writes a round every ~2 hours of the replay). */
export const FEED_HEARTBEAT_S = 6 * 3600;
/**
 * ETH / USD over the replayed span, one round every 2 hours: made-up figures in the range ETH traded in on 3-4 May
 * 2023 (about $1,860 to $1,910), so that a day's costs move with both the base fee and the price.
 */
export const PRICE_ROUNDS = ["1871.25", "1884.9", "1902.37", "1895.02", "1878.6", "1866.44", "1889.13"] as const;
