/** The IPC messages between `startEvmNode` (parent) and `evmNodeProcess.ts` (the forked node). Bigints travel as decimal strings. */

export type ParentMessage = { readonly type: "mine"; readonly id: number; readonly baseFeesWei: readonly string[] } | { readonly type: "stop" };

export type ChildMessage =
  | { readonly type: "ready"; readonly port: number; readonly chainId: number }
  | { readonly type: "mined"; readonly id: number; readonly newestBlock: string }
  | { readonly type: "failed"; readonly id: number; readonly message: string }
  | { readonly type: "fatal"; readonly message: string };

/** Environment the parent sets for the child (and that `hardhat.config.cjs` reads). */
export const ENV_CHAIN_ID = "GASFEES_EVM_CHAIN_ID";
export const ENV_HARDFORK = "GASFEES_EVM_HARDFORK";
export const ENV_PORT = "GASFEES_EVM_PORT";
