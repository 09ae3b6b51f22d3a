import type { Route } from "./routeTypes.ts";

/** The endpoints a NOT_FOUND answer names: every API path in its Basic form (the /v3/{apiKey} forms said once). */
export function servedEndpoints(routes: readonly Route[]): string {
  const paths = routes.filter((route) => !route.path.startsWith("/v3/") && route.path !== "/" && !route.path.startsWith("/assets/")).map((route) => route.path);
  return `${paths.join(", ")} (those that need a key also under /v3/{apiKey}), and the dashboard at /`;
}
