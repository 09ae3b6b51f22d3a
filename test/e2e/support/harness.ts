// Playwright's side of the live stack (see liveService.ts): start it, send it commands, stop it.
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { LiveCommand, LiveMessage } from "./liveService.ts";

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
  const child: ChildProcess = fork(SERVICE_ENTRY, [], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const waiting = new Map<number, { resolve: (message: LiveMessage & { type: "done" }) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  const ready = new Promise<LiveMessage & { type: "ready" }>((resolve, reject) => {
    child.on("message", (message: LiveMessage) => {
      if (message.type === "ready") return resolve(message);
      const waiter = waiting.get(message.id);
      waiting.delete(message.id);
      if (message.error) waiter?.reject(new Error(message.error));
      else waiter?.resolve(message);
    });
    child.once("exit", (code) => {
      reject(new Error(`the e2e service exited (${code}) before it was ready`));
      for (const waiter of waiting.values()) waiter.reject(new Error("the e2e service exited"));
    });
  });
  const { url, dashboardUrl, token } = await ready;
  const call = (body: CommandBody) =>
    new Promise<LiveMessage & { type: "done" }>((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      child.send({ ...body, id });
    });
  return {
    url,
    dashboardUrl,
    token,
    mine: async (count) => BigInt((await call({ type: "mine", count })).newestBlock!),
    mineFee: async (feeWei) => BigInt((await call({ type: "mineFee", feeWei: feeWei.toString() })).newestBlock!),
    setRpc: async (mode) => void (await call({ type: "faults", mode })),
    stopService: async () => void (await call({ type: "stopService" })),
    startService: async () => void (await call({ type: "startService" })),
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      await call({ type: "stop" }).catch(() => undefined);
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
