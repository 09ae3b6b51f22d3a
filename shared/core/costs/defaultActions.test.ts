import assert from "node:assert/strict";
import { test } from "node:test";
import { parseEther, parseGwei } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { actionsWith, DEFAULT_ACTIONS } from "./defaultActions.ts";

test("the defaults first, the user's own after; one with a default's id takes its place; a transfer is exactly 21,000 gas", () => {
  assert.equal(DEFAULT_ACTIONS.find((action) => action.id === "transfer")?.gas, 21_000n);
  const actions = actionsWith([
    { id: "bridge", name: "Bridge", gas: 120_000, txBytes: 420 },
    { id: "swap", name: "My swap", gas: 150_000, txBytes: 700 },
  ]);
  assert.deepEqual(
    actions.map((action) => `${action.id} ${action.gas} ${action.txBytes}`),
    ["transfer 21000 118", "erc20-transfer 41309 178", "swap 150000 700", "nft-transfer 62938 211", "bridge 120000 420"],
  );
});

test("the ETH transfer's size is that of a signed EIP-1559 transaction that moves ETH", async () => {
  // Hardhat's first well-known test key: any key signs to the same size.
  const account = privateKeyToAccount("0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80");
  const sizeOf = async (value: bigint) => {
    const signed = await account.signTransaction({
      type: "eip1559",
      chainId: 1,
      nonce: 3,
      maxPriorityFeePerGas: parseGwei("1"),
      maxFeePerGas: parseGwei("20"),
      gas: 21_000n,
      to: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      value,
    });
    return (signed.length - 2) / 2;
  };
  const transfer = DEFAULT_ACTIONS.find((action) => action.id === "transfer")!;
  assert.equal(await sizeOf(parseEther("0.1")), transfer.txBytes);
  assert.equal(await sizeOf(parseEther("10")), transfer.txBytes, "up to 18.4 ETH the value takes the same 8 bytes");
  assert.equal(await sizeOf(0n), 110, "a transfer of no value (the envelope of a contract call) is 110 bytes");
});
