// Playwright's side of the costs stack (see costsService.ts): start it, make its price stale, stop it.
import { fileURLToPath } from "node:url";
import { startStackProcess } from "./stackProcess.ts";
import type { CostsCommand } from "./costsService.ts";

export { COSTS_CHAIN_ID, COSTS_KEY, FEED_HEARTBEAT_S, PRICE_ROUNDS } from "./costsStackConstants.ts";

type CommandBody = CostsCommand extends infer C ? (C extends { id: number } ? Omit<C, "id"> : never) : never;

export interface CostsStack {
  readonly url: string;
  readonly dashboardUrl: string;
  readonly token: string;
  /** Writes a round older than the feed's heartbeat allows (its oracles stopped). */
  jumpPrice(): Promise<void>;
  stalePrice(): Promise<void>;
  stop(): Promise<void>;
}

const SERVICE_ENTRY = fileURLToPath(new URL("./costsService.ts", import.meta.url));

export async function startCostsStack(): Promise<CostsStack> {
  const stack = await startStackProcess<CommandBody>(SERVICE_ENTRY, "costs e2e service");
  return {
    url: stack.url,
    dashboardUrl: stack.dashboardUrl,
    token: stack.token,
    jumpPrice: async () => void (await stack.call({ type: "jumpPrice" })),
    stalePrice: async () => void (await stack.call({ type: "stalePrice" })),
    stop: () => stack.stop(),
  };
}
