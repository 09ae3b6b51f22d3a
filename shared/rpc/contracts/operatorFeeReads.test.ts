// getOperatorFee read through a local JSON-RPC server of our own (test/support/syntheticChainServer.ts) that answers
// each gas amount as the test says, hostile answers too. (test/integration/operatorFeeHardhat.test.ts reads the real
// pre-Isthmus GasPriceOracle, and a stand-in of the Isthmus one, on a Hardhat chain.)
import assert from "node:assert/strict";
import { test } from "node:test";
import { decodeFunctionData, encodeFunctionResult } from "viem";
import { startSyntheticChainServer } from "../../../test/support/syntheticChainServer.ts";
import { createContractClient } from "./contractClient.ts";
import { OPERATOR_FEE_ABI, readOperatorFees } from "./operatorFeeReads.ts";

type CallAnswer = { result: unknown } | { error: { code: number; message: string } };
const fee = (wei: bigint): CallAnswer => ({ result: encodeFunctionResult({ abi: OPERATOR_FEE_ABI, functionName: "getOperatorFee", result: wei }) });
const EMPTY_REVERT: CallAnswer = { error: { code: 3, message: "execution reverted" } };

/** The operator fees read from an oracle that answers `answer(gas)`; the error's message when the read throws. */
async function readWith(answer: (gas: bigint) => CallAnswer, gases: readonly bigint[]): Promise<ReadonlyMap<bigint, bigint> | string> {
  const server = await startSyntheticChainServer({
    chainId: 10,
    head: 10n,
    ethCall: (data) => answer(decodeFunctionData({ abi: OPERATOR_FEE_ABI, data: data as `0x${string}` }).args[0]),
  });
  const client = createContractClient(10, [server.url], 2_000);
  try {
    return await readOperatorFees(client, gases);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    client.close();
    await server.close();
  }
}

test("the operator fee of each gas amount, in one batch; an oracle before Isthmus (every call reverts without a reason) sets none", async () => {
  const isthmus = await readWith((gas) => fee((gas * 7_500_000n) / 1_000_000n + 1_000n), [106_467n, 21_000n, 21_000n]);
  assert.deepEqual(
    isthmus,
    new Map([
      [21_000n, 158_500n],
      [106_467n, 799_502n],
    ]),
  );
  assert.deepEqual(
    await readWith(() => EMPTY_REVERT, [21_000n, 65_000n]),
    new Map([
      [21_000n, 0n],
      [65_000n, 0n],
    ]),
  );
  // Hardhat's EDR words the same revert its own way.
  assert.deepEqual(
    await readWith(() => ({ error: { code: -32603, message: "Error: Transaction reverted without a reason string" } }), [21_000n]),
    new Map([[21_000n, 0n]]),
  );
  assert.deepEqual(await readWith(() => fee(1n), []), new Map(), "no action: nothing asked");
});

test("what no oracle's formula gives is refused, with why: a revert with a reason, some calls reverting, a fee falling with gas, garbage, 10^21 wei and more", async () => {
  const cases: Array<[string, (gas: bigint) => CallAnswer, RegExp]> = [
    ["a revert with a reason", () => ({ error: { code: 3, message: "execution reverted: paused" } }), /paused/],
    ["some calls revert", (gas) => (gas === 21_000n ? EMPTY_REVERT : fee(5n)), /reverted for some gas amounts and not for others/],
    ["a fee falling as the gas grows", (gas) => fee(gas === 21_000n ? 900n : 800n), /falls as the gas grows \(900 wei at 21000 gas, 800 wei at 65000 gas\)/],
    ["no contract", () => ({ result: "0x" }), /answered nothing/],
    ["not call data", () => ({ result: 42 }), /not call data/],
    ["1,000 ETH and a wei", () => fee(10n ** 21n + 1n), /more than any transaction's operator fee/],
  ];
  for (const [what, answer, message] of cases) {
    const read = await readWith(answer, [21_000n, 65_000n]);
    assert.equal(typeof read, "string", what);
    assert.match(read as string, message, what);
  }
  assert.deepEqual(await readWith(() => fee(10n ** 21n), [21_000n]), new Map([[21_000n, 10n ** 21n]]), "1,000 ETH is the bound, kept");
});
