import type { ChainPublication } from "../../service/chainPublication.ts";
import type { SupportedChainNamesBody } from "../../wire/supportedNetworks.ts";
import type { JsonRoute } from "../routeTypes.ts";

/** `GET /v1/supportedChainNames`: the hosted Gas API's chain names, with no key as its clients call it. */
export const SUPPORTED_CHAIN_NAMES_ROUTE: JsonRoute = {
  kind: "json",
  name: "getSupportedChainNames",
  summary: "The hosted Gas API's chain names: every configured chain's name by its decimal chain id. No key, as its clients call it.",
  path: "/v1/supportedChainNames",
  auth: "none",
  reply: ({ resources }) => ({ body: Buffer.from(JSON.stringify(supportedChainNamesBody(resources.source.list()))) }),
  response: { schema: "SupportedChainNames" },
};

/** Every configured chain's name by its decimal chain id, with data or not yet. */
function supportedChainNamesBody(publications: readonly ChainPublication[]): SupportedChainNamesBody {
  return Object.fromEntries(publications.map((publication) => [String(publication.chainId), publication.name]));
}
