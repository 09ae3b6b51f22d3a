// Playwright's side of an e2e stack's child process (liveService.ts, historyService.ts): fork it, wait for its
// "ready", send it numbered commands and match their "done" answers, stop it.
import { fork, type ChildProcess } from "node:child_process";

/** What a stack's child says: once "ready" with its addresses, then one "done" per command. */
export type StackMessage =
  | { readonly type: "ready"; readonly url: string; readonly dashboardUrl: string; readonly token: string }
  | { readonly type: "done"; readonly id: number; readonly newestBlock?: string; readonly error?: string };

export interface StackProcess<Command> {
  readonly url: string;
  readonly dashboardUrl: string;
  readonly token: string;
  /** Sends a command (its id added here) and resolves with its answer; rejects with the child's error. */
  call(command: Command): Promise<StackMessage & { type: "done" }>;
  /** Asks the child to stop, and kills it if it has not within 5 s. */
  stop(): Promise<void>;
}

/** Forks `entry` (run through tsx) and resolves once it is ready; `name` says which stack in errors. */
export async function startStackProcess<Command extends { readonly type: string }>(entry: string, name: string): Promise<StackProcess<Command>> {
  // node:sqlite's ExperimentalWarning (the service's history store), known and harmless, as npm run serve has it.
  const child: ChildProcess = fork(entry, [], {
    execArgv: ["--disable-warning=ExperimentalWarning", "--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const waiting = new Map<number, { resolve: (message: StackMessage & { type: "done" }) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  const ready = new Promise<StackMessage & { type: "ready" }>((resolve, reject) => {
    child.on("message", (message: StackMessage) => {
      if (message.type === "ready") return resolve(message);
      const waiter = waiting.get(message.id);
      waiting.delete(message.id);
      if (message.error) waiter?.reject(new Error(message.error));
      else waiter?.resolve(message);
    });
    child.once("exit", (code) => {
      reject(new Error(`the ${name} exited (${code}) before it was ready`));
      for (const waiter of waiting.values()) waiter.reject(new Error(`the ${name} exited`));
    });
  });
  const { url, dashboardUrl, token } = await ready;
  const call = (command: Command) =>
    new Promise<StackMessage & { type: "done" }>((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      child.send({ ...command, id });
    });
  return {
    url,
    dashboardUrl,
    token,
    call,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      await call({ type: "stop" } as Command).catch(() => undefined);
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
