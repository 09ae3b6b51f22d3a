import type { StreamRoute } from "../routeTypes.ts";

/** `GET /assets/{asset}`: the dashboard's built scripts and styles (no key, as the page itself). */
export const DASHBOARD_ASSET_ROUTE: StreamRoute = {
  kind: "stream",
  name: "getDashboardAsset",
  summary: "The dashboard's scripts and styles.",
  path: "/assets/{asset}",
  auth: "none",
  open: ({ res, head, headers, params, resources }) => resources.dashboard.serve(res, { asset: params["asset"] ?? "" }, head, headers),
};
