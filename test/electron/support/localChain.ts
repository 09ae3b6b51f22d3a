import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";

export interface LocalChain {
  readonly url: string;
  /** Mines one block per base fee (wei), in order, in one JSON-RPC batch. */
  mine(baseFeesWei: readonly bigint[]): Promise<void>;
  stop(): Promise<void>;
}

/** Starts the Hardhat node of support/evmNodeMain.ts in a child process (Playwright's workers do not run tsx). */
export async function startLocalChain(): Promise<LocalChain> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "test/electron/support/evmNodeMain.ts"], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    const timer = setTimeout(() => reject(new Error("the local EVM node did not start within 60 s")), 60_000);
    lines.once("line", (line) => {
      clearTimeout(timer);
      resolve((JSON.parse(line) as { url: string }).url);
    });
    child.once("exit", (code) => reject(new Error(`the local EVM node exited (${code})`)));
  });
  let id = 1;
  return {
    url,
    async mine(baseFeesWei) {
      const batch = baseFeesWei.flatMap((fee) => [
        { jsonrpc: "2.0", id: id++, method: "hardhat_setNextBlockBaseFeePerGas", params: [`0x${fee.toString(16)}`] },
        { jsonrpc: "2.0", id: id++, method: "evm_mine", params: [] },
      ]);
      const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(batch) });
      const answers = (await response.json()) as Array<{ error?: { message: string } }>;
      const failed = answers.find((answer) => answer.error);
      if (failed) throw new Error(`mining failed: ${failed.error!.message}`);
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.stdin!.end();
        setTimeout(() => child.kill("SIGKILL"), 3000).unref();
      }),
  };
}
