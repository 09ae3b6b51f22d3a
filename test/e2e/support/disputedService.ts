// The disputed chain's stack, in a child process run with tsx (as blobService.ts): two of the project's stand-in JSON-RPC
// servers (test/support/syntheticChainServer.ts) for one chain, the second doubling every base fee, a block a second on
// both, and the real service following them. With two endpoints and two stories no majority settles it: the chain is
// disputed (issue 29), which is what the dashboard is checked to say.
import { startSyntheticChainServer } from "../../support/syntheticChainServer.ts";
import { DISPUTED_CHAIN_ID, E2E_KEY } from "./stackConstants.ts";
import { answerStackCommands, runStackChild } from "./stackChild.ts";
import { startLocalService } from "../../support/startLocalService.ts";

export type DisputedCommand = { readonly id: number; readonly type: "stop" };

const START_HEAD = 4_111n;
const GWEI = 1_000_000_000n;
const startS = Math.floor(Date.now() / 1000);
/** A block a second up to now, then one a second as they are mined. */
const timestampOf = (block: bigint) => startS + Number(block - START_HEAD);
const honestFee = (block: bigint) => GWEI + ((block * 7_919n) % 50_000_000_000n);

async function main(): Promise<void> {
  const serve = (baseFeeOf: (block: bigint) => bigint) =>
    startSyntheticChainServer({ chainId: DISPUTED_CHAIN_ID, head: START_HEAD, timestampOf, baseFeeOf, blobFees: false });
  const servers = [await serve(honestFee), await serve((block) => 2n * honestFee(block))];
  // Both mine their block at the same moment: they disagree about fees, never about heads.
  const miner = setInterval(() => {
    for (const server of servers) server.head += 1n;
  }, 1000);
  const service = await startLocalService(
    [
      {
        chainId: DISPUTED_CHAIN_ID,
        name: "Disputed chain",
        rpcUrls: servers.map((server) => server.url),
        blockTimeMs: 1000,
        historyHorizon: "2h",
        pollIntervalMs: 300,
        persistHistory: false,
      },
    ],
    [{ key: E2E_KEY }],
    { backfill: { requestsPerSecond: 1_000 } },
  );
  const stop = async () => {
    clearInterval(miner);
    await service.stop();
    await Promise.all(servers.map((server) => server.close()));
  };
  answerStackCommands<DisputedCommand>({ url: service.url, dashboardUrl: service.dashboardUrl, token: service.dashboardToken }, stop, async () => {
    await stop();
  });
}

runStackChild("disputed e2e service", main);
