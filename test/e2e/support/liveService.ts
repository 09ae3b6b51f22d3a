// The real stack the dashboard's end-to-end tests drive, in a child process run with tsx (Playwright's own loader
// does not reach the Hardhat child that startEvmNode forks): a Hardhat node with real mainnet base fees behind a
// fault proxy, a chain whose only RPC endpoint is down from the start, and the real service with its dashboard token.
// The service can be stopped and started again on the same port with the same token, as a restart of `npm run serve`
// does (the token is kept in the settings file). The parent sends commands over IPC and gets one answer per command.
import { silentLogger } from "../../../shared/log/logger.ts";
import type { ChainPlan } from "../../../shared/service/chainPlan.ts";
import { type RunningService, startService } from "../../../shared/app/startService.ts";
import { startFaultProxy } from "../../support/faultProxy.ts";
import { startTestChain } from "../../support/feedHarness.ts";
import { DOWN_CHAIN_ID, E2E_KEY, LIVE_CHAIN_ID } from "./stackConstants.ts";
import { answerStackCommands, runStackChild } from "./stackChild.ts";

export type LiveCommand =
  | { readonly id: number; readonly type: "mine"; readonly count: number }
  | { readonly id: number; readonly type: "mineFee"; readonly feeWei: string }
  | { readonly id: number; readonly type: "faults"; readonly mode: "pass" | "down" }
  | { readonly id: number; readonly type: "stopService" }
  | { readonly id: number; readonly type: "startService" }
  | { readonly id: number; readonly type: "stop" };

async function main(): Promise<void> {
  const chain = await startTestChain(520);
  const proxy = await startFaultProxy(chain.node.url);
  const deadProxy = await startFaultProxy(chain.node.url);
  deadProxy.setFaults({ mode: "down" });
  const chains: ChainPlan[] = [
    { chainId: LIVE_CHAIN_ID, name: "Mainnet replay", rpcUrls: [proxy.url], blockTimeMs: 1000, statsWindowBlocks: 500, pollIntervalMs: 150 },
    { chainId: DOWN_CHAIN_ID, name: "Unreachable chain", rpcUrls: [deadProxy.url], blockTimeMs: 1000, statsWindowBlocks: 500, pollIntervalMs: 500 },
  ];
  // As test/support/startLocalService.ts runs it (free port, quiet, no rate limit), with the port and token of the
  // first start kept for the next ones.
  const startOn = (port: number, dashboardToken?: string) =>
    startService(
      {
        host: "127.0.0.1",
        port,
        allowedHosts: [],
        corsOrigins: [],
        rateLimit: { requestsPerSecond: 0, burst: 1 },
        apiKeys: [{ key: E2E_KEY }],
        chains,
        ...(dashboardToken === undefined ? {} : { dashboardToken }),
      },
      silentLogger,
    );
  const first = await startOn(0);
  let service: RunningService | undefined = first;
  const stop = async () => {
    await service?.stop();
    await proxy.close();
    await deadProxy.close();
    await chain.node.stop();
  };
  answerStackCommands<LiveCommand>({ url: first.url, dashboardUrl: first.dashboardUrl, token: first.dashboardToken }, stop, async (command) => {
    switch (command.type) {
      case "mine":
        return chain.mine(command.count);
      case "mineFee":
        return chain.mineFee(BigInt(command.feeWei));
      case "faults":
        if (command.mode === "pass") proxy.reset();
        else proxy.setFaults({ mode: command.mode });
        return undefined;
      case "stopService":
        await service?.stop();
        service = undefined;
        return undefined;
      case "startService":
        if (service === undefined) service = await startOn(first.port, first.dashboardToken);
        return undefined;
      case "stop":
        await stop();
        return undefined;
    }
  });
}

runStackChild("e2e service", main);
