// The local EVM node of tests and demo mode (shared/demo/evmNodeProcess.ts): Hardhat Network, in-process EDR.
// The parent process chooses the chain through the environment (shared/demo/evmNodeProtocol.ts names the variables);
// nothing here compiles contracts.
const chainId = Number(process.env.GASFEES_EVM_CHAIN_ID || 31337);
const hardfork = process.env.GASFEES_EVM_HARDFORK || undefined;
const PRE_LONDON = ["byzantium", "constantinople", "petersburg", "istanbul", "muirGlacier", "berlin"];
// The genesis block's time (unix seconds) and base fee (wei): a chain whose history starts in the past (the demo's).
const genesisTimestamp = process.env.GASFEES_EVM_GENESIS_TIMESTAMP || undefined;
const genesisBaseFeeWei = process.env.GASFEES_EVM_GENESIS_BASE_FEE || undefined;

// Hardhat's first two default accounts (the same addresses as its default mnemonic gives), by their keys: deriving them
// from the mnemonic (PBKDF2, BIP-32 and secp256k1 in JavaScript) made the node's first answer 100 to 800 ms later.
const BALANCE_WEI = "10000000000000000000000";
const ACCOUNTS = [
  { privateKey: "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80", balance: BALANCE_WEI },
  { privateKey: "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d", balance: BALANCE_WEI },
];

/** @type {import("hardhat/config").HardhatUserConfig} */
module.exports = {
  networks: {
    hardhat: {
      chainId,
      ...(hardfork ? { hardfork } : {}),
      // Blocks are mined on request (evm_mine) or by a transaction, so tests and the demo decide each base fee.
      mining: { auto: true, interval: 0 },
      accounts: ACCOUNTS,
      // A chain before London has no base fee at all (tests of chains without EIP-1559).
      ...(PRE_LONDON.includes(hardfork) ? {} : { initialBaseFeePerGas: genesisBaseFeeWei ? Number(genesisBaseFeeWei) : 1_000_000_000 }),
      ...(genesisTimestamp ? { initialDate: new Date(Number(genesisTimestamp) * 1000).toISOString() } : {}),
      loggingEnabled: false,
    },
  },
};
