// The test chain of hardhat.config.cjs (chain id from the environment, blocks mined on request, a few accounts, a 1 gwei
// genesis base fee) with a chosen genesis time (Hardhat's `initialDate`), so that blocks can be mined with real mainnet
// timestamps from years ago: timedTestChain.ts points HARDHAT_CONFIG here and sets GASFEES_TEST_GENESIS_DATE.
const initialDate = process.env.GASFEES_TEST_GENESIS_DATE;
if (!initialDate) throw new Error("timedHardhat.config.cjs needs GASFEES_TEST_GENESIS_DATE (an ISO date): start the node with startTimedTestChain()");

/** @type {import("hardhat/config").HardhatUserConfig} */
module.exports = {
  networks: {
    hardhat: {
      chainId: Number(process.env.GASFEES_EVM_CHAIN_ID || 31337),
      mining: { auto: true, interval: 0 },
      accounts: { count: 2 },
      initialBaseFeePerGas: 1_000_000_000,
      loggingEnabled: false,
      initialDate,
    },
  },
};
