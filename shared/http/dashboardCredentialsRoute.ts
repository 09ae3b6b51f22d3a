import type { DashboardCredentials } from "../wire/apiBodies.ts";
import { ApiError } from "./apiErrors.ts";
import type { JsonRoute } from "./routeTypes.ts";

/** `GET /dashboard/credentials`: the user key the dashboard's API panel shows, to the dashboard's token only. */
export const DASHBOARD_CREDENTIALS_ROUTE: JsonRoute = {
  kind: "json",
  name: "getDashboardCredentials",
  summary:
    "The dashboard's own call, with the dashboard's token only: one of the user's API keys, for the ready-to-copy commands of its API panel (the token itself is never put in a command).",
  path: "/dashboard/credentials",
  auth: "key",
  reply: ({ keyId, resources }) => {
    const { tokenKeyId, apiKey } = resources.dashboardAccess;
    if (tokenKeyId === undefined || keyId !== tokenKeyId) throw new ApiError("INVALID_API_KEY");
    const credentials = apiKey();
    const body: DashboardCredentials =
      credentials === undefined
        ? { apiKey: null }
        : { apiKey: credentials.key, ...(credentials.secret === undefined ? {} : { apiKeySecret: credentials.secret }) };
    return { body: Buffer.from(JSON.stringify(body)) };
  },
  response: { schema: "DashboardCredentials" },
};
