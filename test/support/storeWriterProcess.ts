// A separate process on a history file (shared/history/historyStoreWriterProcess.ts): a writer, or a holder of its
// write lock, as another gasfees or any SQLite client on the same config folder would be. Tests read its stdout
// lines as events.
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const WRITER = fileURLToPath(new URL("../../shared/history/historyStoreWriterProcess.ts", import.meta.url));
export interface Writer {
  readonly child: ChildProcess;
  /** Resolves with the next line the writer prints that passes `accept`. */
  nextLine(accept?: (line: string) => boolean): Promise<string>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
}

export function startWriter(args: readonly string[]): Writer {
  // The experimental warning of node:sqlite is silenced in this child only, to keep the test's output clean.
  const child = spawn(process.execPath, ["--disable-warning=ExperimentalWarning", "--import", "tsx", WRITER, ...args], { stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const lines: string[] = [];
  const waiters: Array<{ accept: (line: string) => boolean; resolve: (line: string) => void }> = [];
  createInterface({ input: child.stdout }).on("line", (line) => {
    const waiter = waiters.find((candidate) => candidate.accept(line));
    if (waiter) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(line);
    } else lines.push(line);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    exited,
    stderr: () => stderr,
    nextLine: (accept = () => true) => {
      const index = lines.findIndex(accept);
      if (index >= 0) return Promise.resolve(lines.splice(index, 1)[0]!);
      return new Promise((resolve, reject) => {
        waiters.push({ accept, resolve });
        void exited.then(({ code, signal }) =>
          reject(new Error(`the writer exited (code ${code}, signal ${signal}) before printing the line awaited: ${stderr}`)),
        );
      });
    },
  };
}
