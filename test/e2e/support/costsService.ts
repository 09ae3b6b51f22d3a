// The real stack the costs' end-to-end tests drive, in a child process run with tsx (as historyService.ts): a Hardhat
// node that has replayed about 13 hours of real mainnet blocks at their real timestamps and base fees, carrying
// Chainlink's aggregator (MockV3Aggregator) as the ETH / USD feed and the OP stack's GasPriceOracle and L1Block
// predeploys (shared/demo/costContracts.ts), and the real service following it as an OP-stack chain with that feed.
// The feed's rounds are written at times of the replay, one every 2 hours, each read by the service before the next
// (its clock for judging rounds follows them: the replay is of 2023), so that the price history covers the span and
// the newest round is current. The parent sends commands over IPC and gets one answer per command.
import { parseWindowSpec } from "../../../shared/core/history/duration.ts";
import type { RunningService } from "../../../shared/app/startService.ts";
import { deployPriceFeed, placeOpStackPredeploys, writeRound } from "../../../shared/demo/costContracts.ts";
import type { PriceHistory } from "../../../shared/wire/costs.ts";
import { loadTimedMainnetBlocks } from "../../../shared/demo/timedMainnetBlocks.ts";
import { startTimedTestChain } from "../../support/timedTestChain.ts";
import { COSTS_CHAIN_ID, COSTS_KEY, COSTS_REPLAYED_BLOCKS, FEED_DECIMALS, FEED_HEARTBEAT_S, PRICE_ROUNDS } from "./costsStackConstants.ts";
import { answerStackCommands, runStackChild } from "./stackChild.ts";
import { startLocalService } from "../../support/startLocalService.ts";

export type CostsCommand = { readonly id: number; readonly type: "jumpPrice" | "stalePrice" | "stop" };

/** MockV3Aggregator answers its source path as its description. */
const MOCK_DESCRIPTION = "v0.8/tests/MockV3Aggregator.sol";
const ROUND_EVERY_S = 2 * 3600;

function feedAnswer(price: string): bigint {
  const [whole = "0", fraction = ""] = price.split(".");
  return BigInt(whole + fraction.padEnd(FEED_DECIMALS, "0"));
}

async function main(): Promise<void> {
  const chain = await startTimedTestChain(COSTS_REPLAYED_BLOCKS, { chainId: COSTS_CHAIN_ID });
  const { node } = chain;
  const firstTime = chain.timestampOf(1n);
  const newestTime = chain.timestampOf(chain.newestBlock);
  // L1 values of an OP-stack chain after Ecotone, as its depositor writes them (Base's scalars of 2024, mainnet's fees).
  await placeOpStackPredeploys(node, {
    baseFeeScalar: 2269,
    blobBaseFeeScalar: 1_055_762,
    l1BaseFeeWei: 31_000_000_000n,
    l1BlobBaseFeeWei: 1n,
    l1Number: 17_180_000n,
    l1Timestamp: firstTime,
  });
  const feed = await deployPriceFeed(node, FEED_DECIMALS, feedAnswer(PRICE_ROUNDS[0]));
  // The service judges a round's age on this clock: the replay's time of the round being written, then the newest
  // block's, running on from each setting as time passes (its readers read when a minute of it has passed).
  let clock = { atMs: (firstTime + 30) * 1000, setAt: Date.now() };
  const setClock = (atMs: number) => (clock = { atMs, setAt: Date.now() });
  const service: RunningService = await startLocalService(
    [
      {
        chainId: COSTS_CHAIN_ID,
        name: "Rollup replay (mainnet fees, May 2023)",
        rpcUrls: [node.url],
        blockTimeMs: 12_000,
        statsWindow: parseWindowSpec("24h")!,
        historyHorizon: "7d",
        pollIntervalMs: 200,
        l1FeeKind: "op-stack",
        priceFeed: { address: feed, token: "ETH", description: MOCK_DESCRIPTION, heartbeatSeconds: FEED_HEARTBEAT_S },
      },
    ],
    [{ key: COSTS_KEY }],
    { costReads: { intervalMs: 100, now: () => clock.atMs + (Date.now() - clock.setAt) } },
  );
  const pricePointsHeld = async (): Promise<PriceHistory> => {
    const response = await fetch(`${service.url}/networks/${COSTS_CHAIN_ID}/priceHistory?from=0`, {
      headers: { authorization: `Basic ${Buffer.from(`${COSTS_KEY}:`).toString("base64")}` },
    });
    return response.ok ? ((await response.json()) as PriceHistory) : [];
  };
  const writeAndWait = async (roundId: number, price: string, updatedAt: number, expectPoint: boolean) => {
    await writeRound(node, feed, { roundId: BigInt(roundId), answer: feedAnswer(price), updatedAt });
    if (!expectPoint) return;
    const deadline = Date.now() + 30_000;
    while (!(await pricePointsHeld()).some((point) => point.time === updatedAt)) {
      if (Date.now() > deadline) throw new Error(`the service did not read the round of ${updatedAt}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  // One round every 2 hours of the replay, the last a minute before its newest block: the price of "now".
  const roundTimes = PRICE_ROUNDS.map((_, index) => Math.min(firstTime + index * ROUND_EVERY_S, newestTime - 60));
  for (const [index, price] of PRICE_ROUNDS.entries()) {
    setClock((roundTimes[index]! + 30) * 1000);
    await writeAndWait(index + 1, price, roundTimes[index]!, true);
  }
  // The setup's transactions mined blocks of their own, a second apart, whose base fee fell as empty blocks' does: the
  // replay goes on for a minute (its next rows, at their fees) so that the newest blocks and the next base fee are
  // mainnet's again.
  const rows = loadTimedMainnetBlocks();
  let lastTime = (await node.request<{ timestamp: string }>("eth_getBlockByNumber", ["latest", false])).timestamp;
  for (let row = COSTS_REPLAYED_BLOCKS; row < COSTS_REPLAYED_BLOCKS + 5; row++) {
    const time = Math.max(rows.timestamps[row]!, Number(lastTime) + 1);
    await node.request("hardhat_setNextBlockBaseFeePerGas", [`0x${rows.baseFeesWei[row]!.toString(16)}`]);
    await node.request("evm_mine", [time]);
    lastTime = String(time);
  }
  setClock(Number(lastTime) * 1000);
  let nextRound = PRICE_ROUNDS.length + 1;

  const stop = async () => {
    await service.stop();
    await node.stop();
  };
  answerStackCommands<CostsCommand>({ url: service.url, dashboardUrl: service.dashboardUrl, token: service.dashboardToken }, stop, async (command) => {
    switch (command.type) {
      case "jumpPrice": {
        // A fresh round at ten times the price, and no other endpoint to confirm it: the service must hold the last price.
        const [whole = "0", fraction = ""] = PRICE_ROUNDS[PRICE_ROUNDS.length - 1]!.split(".");
        await writeAndWait(nextRound++, `${whole}0${fraction === "" ? "" : `.${fraction}`}`, newestTime - 30, false);
        return;
      }
      case "stalePrice":
        // A round older than the heartbeat allows: the feed's oracles stopped. The service must stop using the price.
        await writeAndWait(nextRound++, PRICE_ROUNDS[PRICE_ROUNDS.length - 1]!, newestTime - FEED_HEARTBEAT_S - 3600, false);
        return;
      case "stop":
        await stop();
        return;
    }
  });
}

runStackChild("costs e2e service", main);
