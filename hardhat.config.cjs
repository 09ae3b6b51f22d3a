// The local EVM node of tests and demo mode (shared/demo/evmNodeProcess.ts): Hardhat Network, in-process EDR.
// The parent process chooses the chain through the environment; nothing here compiles contracts.
const chainId = Number(process.env.GASFEES_EVM_CHAIN_ID || 31337);
const hardfork = process.env.GASFEES_EVM_HARDFORK || undefined;
const PRE_LONDON = ["byzantium", "constantinople", "petersburg", "istanbul", "muirGlacier", "berlin"];

/** @type {import("hardhat/config").HardhatUserConfig} */
module.exports = {
  networks: {
    hardhat: {
      chainId,
      ...(hardfork ? { hardfork } : {}),
      // Blocks are mined on request (evm_mine) or by a transaction, so tests and the demo decide each base fee.
      mining: { auto: true, interval: 0 },
      // A few accounts only: deriving Hardhat's default 20 costs start-up time for nothing.
      accounts: { count: 2 },
      // A chain before London has no base fee at all (tests of chains without EIP-1559).
      ...(PRE_LONDON.includes(hardfork) ? {} : { initialBaseFeePerGas: 1_000_000_000 }),
      loggingEnabled: false,
    },
  },
};
