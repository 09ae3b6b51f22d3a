// The real service (startLocalService) in a child process of its own, so that a test can see it exit, and measure its
// resident memory after garbage collection without counting the test's own servers. The child runs with the
// collector exposed; it is controlled over IPC (serviceProcessMain.ts).
import { fork, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import type { ApiKeySettings } from "../../shared/config/settings.ts";
import type { LocalServiceExtras } from "./startLocalService.ts";
import type { ChainPlan } from "../../shared/service/chainPlan.ts";

export interface ServiceProcess {
  readonly url: string;
  readonly pid: number;
  /** Null while it runs; how it ended once it has. */
  readonly exit: { code: number | null; signal: NodeJS.Signals | null } | null;
  /** Resident memory (bytes) right after full collections in the child. */
  rssAfterGc(): Promise<number>;
  /** Stops the service and waits for the process to end (SIGKILL after 5 s). */
  stop(): Promise<void>;
}

export type ServiceProcessMessage = { readonly type: "ready"; readonly url: string } | { readonly type: "rss"; readonly id: number; readonly rssBytes: number };
export type ServiceProcessCommand = { readonly type: "measure"; readonly id: number } | { readonly type: "stop" };
export const ENV_SERVICE_CONFIG = "GASFEES_TEST_SERVICE_CONFIG";

const MAIN = fileURLToPath(new URL("./serviceProcessMain.ts", import.meta.url));

/** Node flags of this process to hand on (tsx's loader), without the test runner's own. */
function childExecArgv(): string[] {
  return process.execArgv.filter((arg) => !arg.startsWith("--test"));
}

export async function startServiceProcess(
  chains: readonly ChainPlan[],
  apiKeys: readonly ApiKeySettings[],
  extras: LocalServiceExtras = {},
): Promise<ServiceProcess> {
  const env: NodeJS.ProcessEnv = { ...process.env, [ENV_SERVICE_CONFIG]: JSON.stringify({ chains, apiKeys, extras }) };
  delete env.NODE_TEST_CONTEXT;
  const child: ChildProcess = fork(MAIN, [], { execArgv: [...childExecArgv(), "--expose-gc"], env, stdio: ["ignore", "inherit", "inherit", "ipc"] });
  let exit: ServiceProcess["exit"] = null;
  const exited = once(child, "exit").then(([code, signal]) => {
    exit = { code: code as number | null, signal: signal as NodeJS.Signals | null };
  });
  const ready = await Promise.race([
    new Promise<string>((resolve) => {
      const onMessage = (message: ServiceProcessMessage) => {
        if (message.type !== "ready") return;
        child.off("message", onMessage);
        resolve(message.url);
      };
      child.on("message", onMessage);
    }),
    exited.then(() => undefined),
  ]);
  if (ready === undefined) throw new Error(`the service process exited before it listened (${JSON.stringify(exit)}); its stderr says why`);
  let nextId = 1;
  return {
    url: ready,
    pid: child.pid!,
    get exit() {
      return exit;
    },
    async rssAfterGc() {
      if (exit) throw new Error(`the service process has exited (${JSON.stringify(exit)})`);
      const id = nextId++;
      const measured = new Promise<number>((resolve) => {
        const onMessage = (message: ServiceProcessMessage) => {
          if (message.type !== "rss" || message.id !== id) return;
          child.off("message", onMessage);
          resolve(message.rssBytes);
        };
        child.on("message", onMessage);
      });
      child.send({ type: "measure", id } satisfies ServiceProcessCommand);
      const rss = await Promise.race([measured, exited.then(() => undefined)]);
      if (rss === undefined) throw new Error(`the service process exited while measuring (${JSON.stringify(exit)})`);
      return rss;
    },
    async stop() {
      if (exit) return;
      child.send({ type: "stop" } satisfies ServiceProcessCommand);
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
