// Playwright's side of the history stack (see historyService.ts): start it, mine more replayed blocks, stop it.
import { fileURLToPath } from "node:url";
import { startStackProcess } from "./stackProcess.ts";
import type { HistoryCommand } from "./historyService.ts";

export { HISTORY_CHAIN_ID, HISTORY_KEY, REPLAYED_BLOCKS } from "./historyStackConstants.ts";

type CommandBody = HistoryCommand extends infer C ? (C extends { id: number } ? Omit<C, "id"> : never) : never;

export interface HistoryStack {
  readonly url: string;
  readonly dashboardUrl: string;
  readonly token: string;
  /** Mines the next `count` replayed mainnet blocks at their real timestamps; resolves with the newest block number. */
  mine(count: number): Promise<bigint>;
  stop(): Promise<void>;
}

const SERVICE_ENTRY = fileURLToPath(new URL("./historyService.ts", import.meta.url));

export async function startHistoryStack(): Promise<HistoryStack> {
  const stack = await startStackProcess<CommandBody>(SERVICE_ENTRY, "history e2e service");
  return {
    url: stack.url,
    dashboardUrl: stack.dashboardUrl,
    token: stack.token,
    mine: async (count) => BigInt((await stack.call({ type: "mine", count })).newestBlock!),
    stop: () => stack.stop(),
  };
}
