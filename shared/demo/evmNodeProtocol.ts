/** The IPC messages between `startEvmNode` (parent) and `evmNodeProcess.ts` (the forked node). Bigints travel as decimal strings. */

export type ParentMessage =
  | {
      readonly type: "mine";
      readonly id: number;
      readonly baseFeesWei: readonly string[];
      /** Each block's timestamp (unix seconds), one per fee; without them, the node's clock times the blocks. */
      readonly timestamps?: readonly number[];
      /** Each block's transactions (eth_sendTransaction's parameter objects), one list per fee, sent just before it is mined. */
      readonly transactions?: readonly (readonly object[])[];
    }
  | { readonly type: "stop" };

/**
 * How the node mines a run of blocks: `batched` sends them to Hardhat's EDR provider as lists of calls (9 to 12 µs a
 * block here); `per call` awaits one call at a time through Hardhat's provider (105 to 145 µs a block).
 */
export type MiningPath = "batched" | "per call";

export type ChildMessage =
  | { readonly type: "ready"; readonly port: number; readonly chainId: number; readonly miningPath: MiningPath }
  | { readonly type: "mined"; readonly id: number; readonly newestBlock: string }
  | { readonly type: "failed"; readonly id: number; readonly message: string }
  | { readonly type: "fatal"; readonly message: string };

/** Environment the parent sets for the child (and that `hardhat.config.cjs` reads). */
export const ENV_CHAIN_ID = "GASFEES_EVM_CHAIN_ID";
export const ENV_HARDFORK = "GASFEES_EVM_HARDFORK";
export const ENV_PORT = "GASFEES_EVM_PORT";
/** "1": the node's eth_feeHistory answers carry the demo's blob fees (demoBlobFees.ts). */
export const ENV_BLOB_FEES = "GASFEES_EVM_BLOB_FEES";
/** The genesis block's timestamp (unix seconds) and base fee (wei), both decimal; Hardhat's defaults (now, 1 gwei) without them. */
export const ENV_GENESIS_TIMESTAMP = "GASFEES_EVM_GENESIS_TIMESTAMP";
export const ENV_GENESIS_BASE_FEE = "GASFEES_EVM_GENESIS_BASE_FEE";
