/** A path pattern such as `/networks/{chainId}/busyThreshold`: literal segments and `{name}` parameters. */
export interface PathPattern {
  readonly path: string;
}

export interface RouteMatch<R extends PathPattern> {
  readonly route: R;
  readonly params: Readonly<Record<string, string>>;
}

type Segment = { readonly literal: string } | { readonly param: string };

/**
 * Builds a matcher over `routes`, tried in order. The request target's query string is ignored and each
 * path segment is percent-decoded on its own (so `%2F` stays inside its segment). A segment whose
 * encoding is malformed is kept as written: it then matches no literal (404), and as a parameter it fails
 * that parameter's own validation, so no input throws.
 */
export function createRouteMatcher<R extends PathPattern>(routes: readonly R[]): (target: string) => RouteMatch<R> | undefined {
  const compiled = routes.map((route) => ({ route, segments: compile(route.path) }));
  // Plain loops, and a params object only for the route that matched: this runs on every request.
  return (target) => {
    const segments = pathSegments(target);
    if (segments === undefined) return undefined;
    candidates: for (const { route, segments: pattern } of compiled) {
      if (pattern.length !== segments.length) continue;
      for (let index = 0; index < pattern.length; index++) {
        const part = pattern[index]!;
        if ("literal" in part && part.literal !== segments[index]) continue candidates;
      }
      const params: Record<string, string> = {};
      for (let index = 0; index < pattern.length; index++) {
        const part = pattern[index]!;
        if ("param" in part) params[part.param] = segments[index]!;
      }
      return { route, params };
    }
    return undefined;
  };
}

function compile(path: string): Segment[] {
  return path
    .split("/")
    .slice(1)
    .map((part) => {
      const param = /^\{([A-Za-z][A-Za-z0-9]*)\}$/.exec(part);
      return param ? { param: param[1]! } : { literal: part };
    });
}

/** The decoded segments of an origin-form target (`/a/b?q`), or undefined for any other form (`*`, absolute URLs). */
export function pathSegments(target: string): string[] | undefined {
  if (!target.startsWith("/")) return undefined;
  const queryAt = target.indexOf("?");
  const path = queryAt === -1 ? target : target.slice(0, queryAt);
  const segments = path.split("/");
  // The leading "" before the first "/" is not a segment.
  segments.shift();
  for (let index = 0; index < segments.length; index++) {
    const segment = segments[index]!;
    if (!segment.includes("%")) continue;
    try {
      segments[index] = decodeURIComponent(segment);
    } catch {
      // Kept as written.
    }
  }
  return segments;
}
