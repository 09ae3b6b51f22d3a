import type { ChainPublication } from "../service/chainPublication.ts";
import type { SupportedChainNamesBody, SupportedNetworksBody } from "../wire/supportedNetworks.ts";

/**
 * `GET /v1/supportedNetworks`: the chains whose fee endpoints answer now (those with data; a syncing, unreachable or
 * pre-EIP-1559 chain would answer 503 or 422, so a client that picks its fee source from this list must not see it).
 * No partial support: every endpoint answers for every chain listed.
 */
export function supportedNetworksBody(publications: readonly ChainPublication[]): SupportedNetworksBody {
  return {
    fullSupport: publications.filter((publication) => publication.answers !== undefined).map((publication) => publication.chainId),
    partialSupport: {},
  };
}

/** `GET /v1/supportedChainNames`: every configured chain's name by its decimal chain id, with data or not yet. */
export function supportedChainNamesBody(publications: readonly ChainPublication[]): SupportedChainNamesBody {
  return Object.fromEntries(publications.map((publication) => [String(publication.chainId), publication.name]));
}
