// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

import "node_modules/@openzeppelin/contracts/token/ERC721/ERC721.sol";

/// A collection as most NFT collections are built: OpenZeppelin's ERC721 (the version in node_modules, 4.9.3) with
/// nothing added but a mint anyone may call. Tests only: test/integration/nftTransferHardhat.test.ts measures the gas
/// and the signed size of a transfer of one of its tokens, the figures of the default "nft-transfer" action.
contract DemoCollection is ERC721 {
    constructor() ERC721("Demo Collection", "DEMO") {}

    function mint(address to, uint256 tokenId) external {
        _safeMint(to, tokenId);
    }
}
