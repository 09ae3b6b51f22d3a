/** The live stack's fixed facts, shared by the service process and the tests. */
export const E2E_KEY = "0123456789abcdef0123456789abcdef";
export const LIVE_CHAIN_ID = 31337;
export const DOWN_CHAIN_ID = 31338;
