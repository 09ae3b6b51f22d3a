/** The desktop settings stack's fixed facts, shared by its process (desktopSettingsService.ts) and the tests. */
export const DESKTOP_CHAIN_ID = 31337;
export const DESKTOP_CHAIN_NAME = "Mainnet replay";
