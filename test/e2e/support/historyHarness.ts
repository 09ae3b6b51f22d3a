// Playwright's side of the history stack (see historyService.ts): start it, mine more replayed blocks, stop it.
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { HistoryCommand, HistoryMessage } from "./historyService.ts";

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
  const child: ChildProcess = fork(SERVICE_ENTRY, [], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const waiting = new Map<number, { resolve: (message: HistoryMessage & { type: "done" }) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  const ready = new Promise<HistoryMessage & { type: "ready" }>((resolve, reject) => {
    child.on("message", (message: HistoryMessage) => {
      if (message.type === "ready") return resolve(message);
      const waiter = waiting.get(message.id);
      waiting.delete(message.id);
      if (message.error) waiter?.reject(new Error(message.error));
      else waiter?.resolve(message);
    });
    child.once("exit", (code) => {
      reject(new Error(`the history e2e service exited (${code}) before it was ready`));
      for (const waiter of waiting.values()) waiter.reject(new Error("the history e2e service exited"));
    });
  });
  const { url, dashboardUrl, token } = await ready;
  const call = (body: CommandBody) =>
    new Promise<HistoryMessage & { type: "done" }>((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      child.send({ ...body, id });
    });
  return {
    url,
    dashboardUrl,
    token,
    mine: async (count) => BigInt((await call({ type: "mine", count })).newestBlock!),
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
