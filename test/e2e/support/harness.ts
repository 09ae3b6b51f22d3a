// Playwright's side of the live stack (see liveService.ts): start it, send it commands, stop it.
import { fileURLToPath } from "node:url";
import { startStackProcess } from "./stackProcess.ts";
import type { LiveCommand } from "./liveService.ts";

export { DOWN_CHAIN_ID, E2E_KEY, LIVE_CHAIN_ID } from "./stackConstants.ts";

type CommandBody = LiveCommand extends infer C ? (C extends { id: number } ? Omit<C, "id"> : never) : never;

export interface LiveStack {
  readonly url: string;
  readonly dashboardUrl: string;
  readonly token: string;
  /** Mines `count` more blocks of real mainnet base fees; resolves with the newest block number. */
  mine(count: number): Promise<bigint>;
  /** Mines one block with this base fee. */
  mineFee(feeWei: bigint): Promise<bigint>;
  /** "down": the live chain's only RPC endpoint stops answering; "pass": it answers again. */
  setRpc(mode: "pass" | "down"): Promise<void>;
  /** Stops the service (its port is closed; the chains and their nodes keep running). */
  stopService(): Promise<void>;
  /** Starts the service again on the same port with the same dashboard token, as a restart of `npm run serve` does. */
  startService(): Promise<void>;
  stop(): Promise<void>;
}

const SERVICE_ENTRY = fileURLToPath(new URL("./liveService.ts", import.meta.url));

export async function startLiveStack(): Promise<LiveStack> {
  const stack = await startStackProcess<CommandBody>(SERVICE_ENTRY, "e2e service");
  return {
    url: stack.url,
    dashboardUrl: stack.dashboardUrl,
    token: stack.token,
    mine: async (count) => BigInt((await stack.call({ type: "mine", count })).newestBlock!),
    mineFee: async (feeWei) => BigInt((await stack.call({ type: "mineFee", feeWei: feeWei.toString() })).newestBlock!),
    setRpc: async (mode) => void (await stack.call({ type: "faults", mode })),
    stopService: async () => void (await stack.call({ type: "stopService" })),
    startService: async () => void (await stack.call({ type: "startService" })),
    stop: () => stack.stop(),
  };
}
