// The default "nft-transfer" action measured, not quoted: a collection built as most are (OpenZeppelin's ERC721,
// test/support/contracts/DemoCollection.sol) deployed on a real Hardhat chain, and one of its tokens sent with
// safeTransferFrom as a wallet sends it (EIP-1559, the gas limit eth_estimateGas gives). Its receipt's gasUsed and the
// byte length of the signed transaction (checked against the transaction's hash) must be DEFAULT_ACTIONS' figures
// exactly: the test fails if the contract, the compiler or the default changes. Two other cases are measured for
// docs/configuration.md#actions.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { encodeFunctionData, type Hex, keccak256, serializeTransaction } from "viem";
import { DEFAULT_ACTIONS } from "../../shared/core/costs/defaultActions.ts";
import { type EvmNode, startEvmNode } from "../../shared/demo/startEvmNode.ts";
import { DEMO_COLLECTION } from "../support/contracts/demoCollection.ts";

/** Ethereum's chain id: a one-byte chain id in the signed transaction, as on mainnet. */
const CHAIN_ID = 1;
const GWEI = 1_000_000_000n;
/**
 * Fees as a wallet sets them on a quiet mainnet: a 1 Gwei tip and a 20 Gwei cap. Their sizes (4 and 5 bytes) are
 * part of the signed size; any tip from 0.017 to 4.29 Gwei and any cap from 4.3 to 1,099 Gwei gives the same.
 */
const FEES = { maxPriorityFeePerGas: 1n * GWEI, maxFeePerGas: 20n * GWEI };

const abi = DEMO_COLLECTION.abi;
/**
 * Recipients: ordinary addresses with no code (Hardhat's default accounts #3 to #5, which this node does not unlock),
 * none with a zero byte, as few random addresses have (a zero byte of call data costs 4 gas rather than 16).
 */
const FRESH = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";
const HOLDER = "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65";
const LAST_TOKEN_RECIPIENT = "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc";

interface Measured {
  readonly gasUsed: bigint;
  readonly txBytes: number;
  readonly nonce: number;
  /** The gas limit signed (eth_estimateGas's): its size is part of the signed size too. */
  readonly gasLimit: bigint;
}

/** A signed EIP-1559 transaction as eth_getTransactionByHash answers it. */
interface RpcTransaction {
  readonly type: Hex;
  readonly chainId: Hex;
  readonly nonce: Hex;
  readonly maxPriorityFeePerGas: Hex;
  readonly maxFeePerGas: Hex;
  readonly gas: Hex;
  readonly to: Hex;
  readonly value: Hex;
  readonly input: Hex;
  readonly accessList: readonly { address: Hex; storageKeys: Hex[] }[];
  readonly r: Hex;
  readonly s: Hex;
  /** EIP-1559's signature parity; Hardhat answers it as `v` only (of a typed transaction, the same 0 or 1). */
  readonly yParity?: Hex;
  readonly v: Hex;
}

describe("the NFT transfer default, measured on a Hardhat chain from OpenZeppelin's ERC721", () => {
  let node: EvmNode;
  let collection: Hex;
  let accounts: Hex[];

  before(async () => {
    node = await startEvmNode({ chainId: CHAIN_ID });
    accounts = await node.request<Hex[]>("eth_accounts");
    const deployed = await sendAndWait(accounts[0]!, undefined, DEMO_COLLECTION.bytecode);
    collection = deployed.contractAddress!;
  });

  after(async () => {
    await node?.stop();
  });

  /** Sends `data` from an unlocked account as a wallet would (type 2, the estimated gas limit); resolves with its receipt. */
  async function sendAndWait(from: Hex, to: Hex | undefined, data: Hex): Promise<{ transactionHash: Hex; gasUsed: Hex; contractAddress: Hex | null }> {
    const call = { from, ...(to === undefined ? {} : { to }), data };
    const gas = await node.request<Hex>("eth_estimateGas", [call]);
    const hash = await node.request<Hex>("eth_sendTransaction", [
      { ...call, type: "0x2", gas, maxPriorityFeePerGas: `0x${FEES.maxPriorityFeePerGas.toString(16)}`, maxFeePerGas: `0x${FEES.maxFeePerGas.toString(16)}` },
    ]);
    const receipt = await node.request<{ transactionHash: Hex; gasUsed: Hex; contractAddress: Hex | null; status: Hex } | null>("eth_getTransactionReceipt", [
      hash,
    ]);
    assert.ok(receipt !== null, `${hash} was mined (Hardhat mines each transaction at once)`);
    assert.equal(receipt.status, "0x1", `${hash} succeeded`);
    return receipt;
  }

  function mint(from: Hex, to: Hex, tokenId: bigint) {
    return sendAndWait(from, collection, encodeFunctionData({ abi, functionName: "mint", args: [to, tokenId] }));
  }

  async function balanceOf(owner: Hex): Promise<bigint> {
    const data = encodeFunctionData({ abi, functionName: "balanceOf", args: [owner] });
    return BigInt(await node.request<Hex>("eth_call", [{ to: collection, data }, "latest"]));
  }

  /** `from` sends token `tokenId` to `to` with safeTransferFrom(from, to, tokenId): its gasUsed and signed size. */
  async function measureTransfer(from: Hex, to: Hex, tokenId: bigint): Promise<Measured> {
    const receipt = await sendAndWait(from, collection, encodeFunctionData({ abi, functionName: "safeTransferFrom", args: [from, to, tokenId] }));
    const tx = await node.request<RpcTransaction>("eth_getTransactionByHash", [receipt.transactionHash]);
    assert.equal(tx.type, "0x2", "an EIP-1559 transaction");
    const signed = serializeTransaction(
      {
        type: "eip1559",
        chainId: Number(tx.chainId),
        nonce: Number(tx.nonce),
        maxPriorityFeePerGas: BigInt(tx.maxPriorityFeePerGas),
        maxFeePerGas: BigInt(tx.maxFeePerGas),
        gas: BigInt(tx.gas),
        to: tx.to,
        value: BigInt(tx.value),
        data: tx.input,
        accessList: tx.accessList,
      },
      { r: tx.r, s: tx.s, yParity: Number(tx.yParity ?? tx.v) },
    );
    // The hash of a typed transaction is the keccak of its signed bytes: equal, they are the very bytes sent.
    assert.equal(keccak256(signed), receipt.transactionHash, "the serialized bytes are the signed transaction itself");
    return { gasUsed: BigInt(receipt.gasUsed), txBytes: (signed.length - 2) / 2, nonce: Number(tx.nonce), gasLimit: BigInt(tx.gas) };
  }

  test("a holder of several tokens sends one to an address that holds none: exactly DEFAULT_ACTIONS' nft-transfer", async (t) => {
    const [deployer, sender] = accounts as [Hex, Hex];
    const [fresh, holder, last] = [FRESH, HOLDER, LAST_TOKEN_RECIPIENT] as const;
    // The sender mints its own three tokens (its nonces 0 to 2); the holder gets one from the deployer.
    for (const tokenId of [1n, 2n, 3n]) await mint(sender, sender, tokenId);
    await mint(deployer, holder, 10n);
    assert.equal(await balanceOf(fresh), 0n);
    for (const recipient of [fresh, holder, last])
      assert.equal(await node.request<Hex>("eth_getCode", [recipient, "latest"]), "0x", "an ordinary address (no code)");

    // The typical transfer: the sender keeps other tokens (3 -> 2, no refund), the recipient holds none yet (0 -> 1).
    const typical = await measureTransfer(sender, fresh, 1n);
    assert.equal(typical.nonce, 3, "a small nonce: any from 0 to 127 is one byte of the signed transaction");
    // The recipient already holds one (1 -> 2): its balance is not set from zero.
    const toHolder = await measureTransfer(sender, holder, 2n);
    // The sender's last token (1 -> 0): clearing its balance earns a refund.
    const lastToken = await measureTransfer(sender, last, 3n);
    assert.deepEqual([await balanceOf(sender), await balanceOf(fresh), await balanceOf(holder), await balanceOf(last)], [0n, 1n, 2n, 1n]);
    for (const [name, measured] of Object.entries({ typical, toHolder, lastToken })) {
      t.diagnostic(`${name}: gasUsed ${measured.gasUsed}, ${measured.txBytes} bytes signed (nonce ${measured.nonce}, gas limit ${measured.gasLimit})`);
    }
    assert.ok(toHolder.gasUsed < typical.gasUsed && lastToken.gasUsed < typical.gasUsed, "the other two cost less: no balance set from zero, or a refund");
    assert.equal(toHolder.txBytes, typical.txBytes);

    const nftTransfer = DEFAULT_ACTIONS.find((action) => action.id === "nft-transfer");
    assert.deepEqual(
      { gas: nftTransfer?.gas, txBytes: nftTransfer?.txBytes },
      { gas: typical.gasUsed, txBytes: typical.txBytes },
      "DEFAULT_ACTIONS' nft-transfer is this measurement (docs/configuration.md#actions)",
    );
  });
});
