import type { ChainPublication } from "../../service/chainPublication.ts";
import type { SupportedNetworksBody } from "../../wire/supportedNetworks.ts";
import type { JsonRoute } from "../routeTypes.ts";

/** `GET /v1/supportedNetworks`: the hosted Gas API's network list, with no key as its clients call it. */
export const SUPPORTED_NETWORKS_ROUTE: JsonRoute = {
  kind: "json",
  name: "getSupportedNetworks",
  summary: "The hosted Gas API's network list: the chains with data now (fullSupport), no partial support. No key, as its clients call it.",
  path: "/v1/supportedNetworks",
  auth: "none",
  reply: ({ resources }) => ({ body: Buffer.from(JSON.stringify(supportedNetworksBody(resources.source.list()))) }),
  response: { schema: "SupportedNetworks" },
};

/**
 * The chains whose fee endpoints answer now (those with data; a syncing, unreachable or pre-EIP-1559 chain would
 * answer 503 or 422, so a client that picks its fee source from this list must not see it). No partial support:
 * every endpoint answers for every chain listed.
 */
function supportedNetworksBody(publications: readonly ChainPublication[]): SupportedNetworksBody {
  return {
    fullSupport: publications.filter((publication) => publication.snapshot !== undefined).map((publication) => publication.chainId),
    partialSupport: {},
  };
}
