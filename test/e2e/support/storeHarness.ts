// Playwright's side of the store stack (see storeService.ts): start it, mine, lock and release the history file.
import { fileURLToPath } from "node:url";
import { startStackProcess } from "./stackProcess.ts";
import type { StoreCommand } from "./storeService.ts";

export { E2E_KEY, LIVE_CHAIN_ID } from "./stackConstants.ts";

type CommandBody = StoreCommand extends infer C ? (C extends { id: number } ? Omit<C, "id"> : never) : never;

export interface StoreStack {
  readonly dashboardUrl: string;
  /** Mines `count` more blocks of real mainnet base fees; resolves with the newest block number. */
  mine(count: number): Promise<bigint>;
  /** A second process takes the history file's write lock (BEGIN EXCLUSIVE) and holds it until `release`. */
  lock(): Promise<void>;
  release(): Promise<void>;
  stop(): Promise<void>;
}

const SERVICE_ENTRY = fileURLToPath(new URL("./storeService.ts", import.meta.url));

export async function startStoreStack(): Promise<StoreStack> {
  const stack = await startStackProcess<CommandBody>(SERVICE_ENTRY, "store e2e service");
  return {
    dashboardUrl: stack.dashboardUrl,
    mine: async (count) => BigInt((await stack.call({ type: "mine", count })).newestBlock!),
    lock: async () => void (await stack.call({ type: "lock" })),
    release: async () => void (await stack.call({ type: "release" })),
    stop: () => stack.stop(),
  };
}
