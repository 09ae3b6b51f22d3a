// The blob view's stack, in a child process run with tsx (as liveService.ts): a local JSON-RPC server whose blob base
// fees follow EIP-4844's rule and EIP-7918's floor from the blob gas it says each block used (Hardhat's EDR gives no
// blob fields in eth_feeHistory), a week of 12 s blocks of it backfilled, and the real service with its dashboard.
import { BLOB_SCHEDULES, GAS_PER_BLOB } from "../../../shared/core/fees/blobFeeRule.ts";
import { startSyntheticChainServer } from "../../support/syntheticChainServer.ts";
import { BLOB_CHAIN_ID, BLOB_CHAIN_HEAD, E2E_KEY } from "./stackConstants.ts";
import { answerStackCommands, runStackChild } from "./stackChild.ts";
import { startLocalService } from "../../support/startLocalService.ts";

export type BlobCommand = { readonly id: number; readonly type: "mine"; readonly count: number } | { readonly id: number; readonly type: "stop" };

/** Blocks of 12 s ending now, so that the week's ranges are a real week's. */
const NOW_SECONDS = Math.floor(Date.now() / 1000);
const timestampOf = (block: bigint) => NOW_SECONDS - Number(BLOB_CHAIN_HEAD - block) * 12;

/**
 * Blob use that moves the fee as a day of mainnet does, on mainnet's schedule (BPO2: target 14, max 21 blobs): busy
 * stretches above the target, steady ones at it, quiet ones below, in a cycle of about 5 hours.
 */
function blobsOf(block: bigint): bigint {
  const phase = Number(block % 1_500n);
  if (phase < 400) return [15n, 16n, 14n, 15n, 16n, 14n][Number(block % 6n)]!; // busy: a blob above the target on average
  if (phase < 900) return [14n, 13n, 15n, 14n, 14n][Number(block % 5n)]!; // at the target
  return [10n, 12n, 9n, 11n, 13n, 8n, 12n][Number(block % 7n)]!; // quiet: three below it
}

async function main(): Promise<void> {
  const server = await startSyntheticChainServer({
    chainId: BLOB_CHAIN_ID,
    head: BLOB_CHAIN_HEAD,
    timestampOf,
    // Base fees around 3 gwei: the reserve price is then about 0.19 gwei per blob gas.
    baseFeeOf: (block) => 2_500_000_000n + ((block * 7_919_000n) % 1_000_000_000n),
    blobRule: { schedule: BLOB_SCHEDULES.bpo2, blobGasUsedOf: (block) => blobsOf(block) * GAS_PER_BLOB },
  });
  const service = await startLocalService(
    [{ chainId: BLOB_CHAIN_ID, name: "Blob chain", rpcUrls: [server.url], blockTimeMs: 12_000, pollIntervalMs: 150, persistHistory: false }],
    [{ key: E2E_KEY }],
    { backfill: { requestsPerSecond: 1_000 } },
  );
  const stop = async () => {
    await service.stop();
    await server.close();
  };
  answerStackCommands<BlobCommand>({ url: service.url, dashboardUrl: service.dashboardUrl, token: service.dashboardToken }, stop, async (command) => {
    if (command.type === "mine") {
      server.head += BigInt(command.count);
      return server.head;
    }
    await stop();
    return undefined;
  });
}

runStackChild("blob e2e service", main);
