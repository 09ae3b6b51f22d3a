// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

/// A stand-in for the OP stack's GasPriceOracle predeploy (0x...0F) as Isthmus upgrades it: the release of
/// contracts-bedrock (the npm package of the Optimism monorepo) installed here, 0.17.3, predates getOperatorFee. Placed at the oracle's address over
/// the real (pre-Isthmus) oracle, it answers getOperatorFee itself, with Isthmus's formula, and hands every other call
/// (getL1Fee, ...) by delegatecall to the real oracle's code, placed at REAL_ORACLE: same storage, so the Ecotone and
/// Fjord flags the depositor set stay in force. Tests only; never deployed anywhere else.
contract GasPriceOracleIsthmusStandIn {
    /// Where the test places the real oracle's code (contracts-bedrock's GasPriceOracle).
    address private constant REAL_ORACLE = 0x00000000000000000000000000000000000B0BA1;

    // Slot 0 as the real oracle lays it out: isEcotone, isFjord, then Isthmus's flag.
    bool public isEcotone;
    bool public isFjord;
    bool public isIsthmus;
    // Since Isthmus the L1Block predeploy holds these (a uint32 and a uint64); here the test sets them, wider, so that it
    // can make an answer no chain could give.
    uint256 public operatorFeeScalar;
    uint256 public operatorFeeConstant;

    function setOperatorFee(bool _isIsthmus, uint256 _scalar, uint256 _constant) external {
        isIsthmus = _isIsthmus;
        operatorFeeScalar = _scalar;
        operatorFeeConstant = _constant;
    }

    /// Isthmus's operator fee of a transaction using `_gasUsed` gas: gasUsed x scalar / 1e6 + constant; 0 while Isthmus
    /// is not active (the real oracle saturates where this one would overflow: no test comes near).
    function getOperatorFee(uint256 _gasUsed) external view returns (uint256) {
        if (!isIsthmus) return 0;
        return (_gasUsed * operatorFeeScalar) / 1e6 + operatorFeeConstant;
    }

    fallback() external {
        address real = REAL_ORACLE;
        assembly {
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), real, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            switch ok
            case 0 {
                revert(0, returndatasize())
            }
            default {
                return(0, returndatasize())
            }
        }
    }
}
