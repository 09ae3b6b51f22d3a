/** The history stack's fixed facts, shared by its service process and the tests. */
export const HISTORY_KEY = "fedcba9876543210fedcba9876543210";
export const HISTORY_CHAIN_ID = 31_339;
/** Blocks replayed before the service starts: 40 hours of real mainnet blocks (3-5 May 2023), which it backfills. */
export const REPLAYED_BLOCKS = 12_000;
