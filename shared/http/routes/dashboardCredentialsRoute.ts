import type { DashboardCredentials } from "../../wire/apiBodies.ts";
import type { JsonRoute } from "../routeTypes.ts";

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
    // A user key (a dashboard opened with one as its ?token=) reads no key here, and is told so with a 200: a 401 was
    // a failing request in the page's console on every such start, for what is a supported way to open it.
    if (tokenKeyId === undefined || keyId !== tokenKeyId) {
      const body: DashboardCredentials = { apiKey: null, askedWithApiKey: true };
      return { body: Buffer.from(JSON.stringify(body)) };
    }
    const credentials = apiKey();
    const body: DashboardCredentials =
      credentials === undefined
        ? { apiKey: null }
        : { apiKey: credentials.key, ...(credentials.secret === undefined ? {} : { apiKeySecret: credentials.secret }) };
    return { body: Buffer.from(JSON.stringify(body)) };
  },
  response: { schema: "DashboardCredentials" },
};
