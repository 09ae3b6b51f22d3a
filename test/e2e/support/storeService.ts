// The real stack of the store-health end-to-end test, in a child process run with tsx: a Hardhat node with real
// mainnet base fees, the real service keeping its history in a file of its own, and a real second process that
// takes that file's write lock on command (another gasfees on the same config folder). The parent sends commands over
// IPC and gets one answer per command.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestChain } from "../../support/feedHarness.ts";
import { startWriter, type Writer } from "../../support/storeWriterProcess.ts";
import { E2E_KEY, LIVE_CHAIN_ID } from "./stackConstants.ts";
import { answerStackCommands, runStackChild } from "./stackChild.ts";
import { startLocalService } from "../../support/startLocalService.ts";

export type StoreCommand =
  | { readonly id: number; readonly type: "mine"; readonly count: number }
  | { readonly id: number; readonly type: "lock" }
  | { readonly id: number; readonly type: "release" }
  | { readonly id: number; readonly type: "stop" };

async function main(): Promise<void> {
  const chain = await startTestChain(520);
  const historyFile = join(mkdtempSync(join(tmpdir(), "gasfees-e2e-store-")), "history.sqlite");
  const service = await startLocalService(
    [{ chainId: LIVE_CHAIN_ID, name: "Mainnet replay", rpcUrls: [chain.node.url], blockTimeMs: 1000, statsWindowBlocks: 500, pollIntervalMs: 150 }],
    [{ key: E2E_KEY }],
    { historyFile, backfill: false },
  );
  let locker: Writer | undefined;
  const stop = async () => {
    locker?.child.kill("SIGKILL");
    await service.stop();
    await chain.node.stop();
  };
  answerStackCommands<StoreCommand>({ url: service.url, dashboardUrl: service.dashboardUrl, token: service.dashboardToken }, stop, async (command) => {
    switch (command.type) {
      case "mine":
        return chain.mine(command.count);
      case "lock":
        locker = startWriter(["lock", historyFile]);
        await locker.nextLine((line) => line === "locked");
        return undefined;
      case "release":
        locker!.child.stdin!.write("release\n");
        await locker!.nextLine((line) => line === "released");
        return undefined;
      case "stop":
        await stop();
        return undefined;
    }
  });
}

runStackChild("store e2e service", main);
