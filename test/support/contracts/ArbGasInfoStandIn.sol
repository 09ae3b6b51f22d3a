// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

/// A stand-in for Arbitrum's ArbGasInfo precompile (0x...6C), which no node here runs: the same getPricesInWei()
/// interface, answering prices the test sets. Tests only; never deployed anywhere else.
contract ArbGasInfoStandIn {
    uint256[6] private prices;

    function setPricesInWei(uint256[6] calldata _prices) external {
        prices = _prices;
    }

    /// (per L2 tx, per L1 calldata byte, per storage allocation, per ArbGas base, per ArbGas congestion, per ArbGas total)
    function getPricesInWei() external view returns (uint256, uint256, uint256, uint256, uint256, uint256) {
        return (prices[0], prices[1], prices[2], prices[3], prices[4], prices[5]);
    }
}
