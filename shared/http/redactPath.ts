import { pathSegments } from "./matchRoute.ts";

/** A request target as it may be logged: no query, and the key of `/v3/{apiKey}/...` replaced. */
export function redactPath(target: string | undefined): string {
  const segments = pathSegments(target ?? "");
  if (segments === undefined) return "<not a path>";
  if (segments[0] === "v3" && segments.length > 1) segments[1] = "***";
  return `/${segments.join("/")}`;
}
