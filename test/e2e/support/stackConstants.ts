/** The live stack's fixed facts, shared by the service process and the tests. */
export const E2E_KEY = "0123456789abcdef0123456789abcdef";
export const LIVE_CHAIN_ID = 31337;
export const DOWN_CHAIN_ID = 31338;
/** The blob view's chain (blobService.ts): Ethereum's id, so that its known blob schedule is mainnet's. */
export const BLOB_CHAIN_ID = 1;
/** Its newest block at start: a week of 12 s blocks and some. */
export const BLOB_CHAIN_HEAD = 52_700n;
/** The disputed chain's (disputedService.ts): two endpoints, one doubling every base fee, and no third to settle it. */
export const DISPUTED_CHAIN_ID = 43_101;
