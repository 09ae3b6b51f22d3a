/**
 * The most one answer of an RPC endpoint may take, decoded: an HTTP body or a WebSocket message; past it, reading stops
 * and the socket is dropped. The largest answer the service asks for is about 130 KB (1,024 blocks of `eth_feeHistory`
 * with tips and blob fields), or a block with its transaction hashes (69 bytes each: a block of 10,000 transactions,
 * far beyond a full Ethereum block's ~1,400, carries ~700 KB), so 4 MiB leaves more than five times that. It is also what bounds the memory a hostile endpoint can
 * make the service hold and leave behind: an answer near the cap leaves some of it resident after it is freed (the
 * allocator keeps freed blocks), and test/security/hostileRpc.test.ts holds that within 20 MB.
 */
export const MAX_RPC_ANSWER_BYTES = 4_194_304;
