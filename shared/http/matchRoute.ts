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
  return (target) => {
    const segments = pathSegments(target);
    if (segments === undefined) return undefined;
    for (const { route, segments: pattern } of compiled) {
      if (pattern.length !== segments.length) continue;
      const params: Record<string, string> = {};
      const matched = pattern.every((part, index) => {
        const segment = segments[index]!;
        if ("literal" in part) return part.literal === segment;
        params[part.param] = segment;
        return true;
      });
      if (matched) return { route, params };
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
  return path
    .split("/")
    .slice(1)
    .map((segment) => {
      if (!segment.includes("%")) return segment;
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    });
}
