// Playwright's side of the desktop settings stack (desktopSettingsService.ts): start it, carry the page's bridge calls
// to it, hear the settings changes it sends the window, stop it.
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { DesktopCommand, DesktopMessage } from "./desktopSettingsService.ts";

export { DESKTOP_CHAIN_ID, DESKTOP_CHAIN_NAME } from "./desktopStackConstants.ts";

type CommandBody = DesktopCommand extends infer C ? (C extends { id: number } ? Omit<C, "id"> : never) : never;

export interface DesktopStack {
  /** The local API's base URL, which serves the dashboard too. */
  readonly url: string;
  /** The dashboard's token, as the preload hands it to the page. */
  readonly token: string;
  readonly settingsPath: string;
  /** One bridge call, answered by the main process's handler for `channel` (it rejects as ipcMain.handle would). */
  invoke(channel: string, args: readonly unknown[]): Promise<unknown>;
  /** Calls `listener` with each event the main process sends the window; returns the function that stops it. */
  onEvent(listener: (channel: string, payload: unknown) => void): () => void;
  /** Mines `count` more blocks of real mainnet base fees; resolves with the newest block number. */
  mine(count: number): Promise<bigint>;
  /** Mines one block with this base fee. */
  mineFee(feeWei: bigint): Promise<bigint>;
  /** The settings file as it is on disk now. */
  settingsFile(): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

const SERVICE_ENTRY = fileURLToPath(new URL("./desktopSettingsService.ts", import.meta.url));

export async function startDesktopStack(): Promise<DesktopStack> {
  // node:sqlite's ExperimentalWarning (the service's history store), known and harmless, as npm run serve has it.
  const child = fork(SERVICE_ENTRY, [], {
    execArgv: ["--disable-warning=ExperimentalWarning", "--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const listeners = new Set<(channel: string, payload: unknown) => void>();
  let nextId = 1;
  const ready = new Promise<DesktopMessage & { type: "ready" }>((resolve, reject) => {
    child.on("message", (message: DesktopMessage) => {
      if (message.type === "ready") return resolve(message);
      if (message.type === "event") {
        for (const listener of listeners) listener(message.channel, message.payload);
        return;
      }
      const waiter = waiting.get(message.id);
      waiting.delete(message.id);
      if (message.error !== undefined) waiter?.reject(new Error(message.error));
      else waiter?.resolve(message.value);
    });
    child.once("exit", (code) => {
      reject(new Error(`the e2e desktop service exited (${code}) before it was ready`));
      for (const waiter of waiting.values()) waiter.reject(new Error("the e2e desktop service exited"));
    });
  });
  const { url, token, settingsPath } = await ready;
  const call = (command: CommandBody) =>
    new Promise<unknown>((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      child.send({ ...command, id });
    });
  return {
    url,
    token,
    settingsPath,
    invoke: (channel, args) => call({ type: "bridge", channel, args }),
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    mine: async (count) => BigInt((await call({ type: "mine", count })) as string),
    mineFee: async (feeWei) => BigInt((await call({ type: "mineFee", feeWei: feeWei.toString() })) as string),
    settingsFile: async () => (await call({ type: "settingsFile" })) as Record<string, unknown>,
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
