import { networkStatusAt } from "../../service/chainPublication.ts";
import type { JsonRoute } from "../routeTypes.ts";

/** `GET /networks`: each configured chain's status, with its data's age at the time of asking. */
export const NETWORKS_ROUTE: JsonRoute = {
  kind: "json",
  name: "getNetworks",
  summary: "The configured chains and their state.",
  path: "/networks",
  auth: "key",
  reply: ({ resources, nowMs }) => ({ body: Buffer.from(JSON.stringify(resources.source.list().map((publication) => networkStatusAt(publication, nowMs)))) }),
  response: { schema: "Networks" },
};
