/** A path pattern such as `/networks/{chainId}/busyThreshold`: literal segments and `{name}` parameters. */
export interface PathPattern {
  readonly path: string;
}

export interface RouteMatch<R extends PathPattern> {
  readonly route: R;
  readonly params: Readonly<Record<string, string>>;
}

/** A literal segment, or a `{name}` parameter. */
interface Segment {
  readonly literal: string | undefined;
  readonly param: string | undefined;
}

interface CompiledRoute<R> {
  readonly route: R;
  readonly segments: readonly Segment[];
}

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

/**
 * Builds a matcher over `routes`, tried in order. The request target's query string is ignored and each
 * path segment is percent-decoded on its own (so `%2F` stays inside its segment). A segment whose
 * encoding is malformed is kept as written: it then matches no literal (404), and as a parameter it fails
 * that parameter's own validation, so no input throws.
 */
export function createRouteMatcher<R extends PathPattern>(routes: readonly R[]): (target: string) => RouteMatch<R> | undefined {
  const compiled: CompiledRoute<R>[] = routes.map((route) => ({ route, segments: compile(route.path) }));
  return (target) => {
    const segments = pathSegments(target);
    if (segments === undefined) return undefined;
    candidates: for (const { route, segments: pattern } of compiled) {
      if (pattern.length !== segments.length) continue;
      for (let index = 0; index < pattern.length; index++) {
        const literal = pattern[index]!.literal;
        if (literal !== undefined && literal !== segments[index]) continue candidates;
      }
      let params: Record<string, string> | undefined;
      for (let index = 0; index < pattern.length; index++) {
        const param = pattern[index]!.param;
        if (param !== undefined) (params ??= {})[param] = segments[index]!;
      }
      return { route, params: params ?? NO_PARAMS };
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
      return param ? { literal: undefined, param: param[1]! } : { literal: part, param: undefined };
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
