/**
 * The most an RPC endpoint's one answer may take, decoded: an HTTP body or a WebSocket message. As viem's HTTP client's
 * bound; a real answer of this service (1,024 blocks of `eth_feeHistory` with tips) is about 100 KB.
 */
export const MAX_RPC_ANSWER_BYTES = 10_485_760;
