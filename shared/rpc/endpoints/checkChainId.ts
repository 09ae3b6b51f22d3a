import { WrongChainError } from "../connection/errors.ts";
import { parseRpcChainId } from "../connection/parseRpcAnswers.ts";
import type { RpcConnection } from "../connection/rpcConnection.ts";

/**
 * Asks the endpoint its chain id (`eth_chainId`) and returns it; throws WrongChainError when it is not
 * `expectedChainId` (an endpoint of another chain is never used for this one), and the connection's errors as they come.
 */
export async function checkChainId(connection: Pick<RpcConnection, "request" | "redactedUrl">, expectedChainId: number): Promise<number> {
  const reported = parseRpcChainId(await connection.request("eth_chainId", []), connection.redactedUrl);
  if (reported !== expectedChainId) throw new WrongChainError(connection.redactedUrl, expectedChainId, reported);
  return reported;
}
