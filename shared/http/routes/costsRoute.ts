import { disputedHeaderList } from "../disputedHeader.ts";
import { chainOfPath } from "../chainOfPath.ts";
import type { JsonRoute } from "../routeTypes.ts";

/** `GET /networks/{chainId}/costs`: what each action costs now, in wei and in money (CONTRACT.md, "Costs in money"). */
export const COSTS_ROUTE: JsonRoute = {
  kind: "json",
  name: "getCosts",
  summary:
    "What each action (the defaults and the settings' own) costs at the next block at the low, medium and high tiers: wei = gas x (next base fee + the tier's tip) + the rollup's L1 data fee, " +
    "and in the currency from the gas token's price read on chain from a Chainlink feed (null, with priceProblem saying why, without a usable price).",
  path: "/networks/{chainId}/costs",
  auth: "key",
  response: { schema: "Costs" },
  reply: (context) => {
    const publication = chainOfPath(context, "data");
    const prepared = context.resources.costs.of(publication);
    return {
      body: prepared.body,
      etag: prepared.etag,
      headers: ["X-Block-Number", publication.snapshot.newestBlock.toString(), ...disputedHeaderList(publication)],
    };
  },
};
