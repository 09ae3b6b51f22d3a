import { preparedJson } from "../preparedBody.ts";
import type { JsonRoute } from "../routeTypes.ts";

const HEALTHY = preparedJson({ status: "ok" });

/** `GET /healthz`: liveness, with no key. */
export const HEALTH_ROUTE: JsonRoute = {
  kind: "json",
  name: "getHealth",
  summary: "Liveness: answers while the service runs.",
  path: "/healthz",
  auth: "none",
  reply: () => ({ body: HEALTHY.body }),
  response: { schema: "Health" },
};
