import type { StreamRoute } from "../routeTypes.ts";

/** `GET /`: the dashboard's page (no key: the page holds no data; the data it fetches needs the key or its token). */
export const DASHBOARD_ROUTE: StreamRoute = {
  kind: "stream",
  name: "getDashboard",
  summary: "The dashboard page (open it with ?token=<the dashboard's token or an API key>).",
  path: "/",
  auth: "none",
  // When the renderer has not been built (npm run build:renderer).
  extraErrors: ["NOT_FOUND"],
  open: ({ res, head, headers, resources }) => resources.dashboard.serve(res, { index: true }, head, headers),
};
