// The child's side of an e2e stack process (stackProcess.ts is Playwright's side): says "ready" with its addresses,
// answers each numbered command with one "done" (the newest block when the command gives one, or the error), stops
// when asked or when Playwright goes away.
import type { StackMessage } from "./stackProcess.ts";

/** Answers the commands Playwright sends with `run`; `stop` ends the stack (also when the parent disconnects). */
export function answerStackCommands<Command extends { readonly type: string; readonly id: number }>(
  ready: { readonly url: string; readonly dashboardUrl: string; readonly token: string },
  stop: () => Promise<void>,
  run: (command: Command) => Promise<bigint | undefined | void>,
): void {
  const send = (message: StackMessage) => process.send!(message);
  process.on("message", (command: Command) => {
    run(command).then(
      (newest) => {
        send({ type: "done", id: command.id, ...(typeof newest === "bigint" ? { newestBlock: newest.toString() } : {}) });
        if (command.type === "stop") process.disconnect();
      },
      (error: Error) => send({ type: "done", id: command.id, error: error.stack ?? error.message }),
    );
  });
  process.on("disconnect", () => void stop().finally(() => process.exit(0)));
  send({ type: "ready", ...ready });
}

/** Runs a stack child's `main`; one that fails to start says so and exits with 1 (Playwright's side then says which). */
export function runStackChild(name: string, main: () => Promise<void>): void {
  main().catch((error: Error) => {
    process.stderr.write(`the ${name} failed to start: ${error.stack ?? error.message}\n`);
    process.exit(1);
  });
}
