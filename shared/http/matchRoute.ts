/** A path pattern such as `/networks/{chainId}/busyThreshold`: literal segments and `{name}` parameters. */
export interface PathPattern {
  readonly path: string;
}

export interface RouteMatch<R extends PathPattern> {
  readonly route: R;
  readonly params: Readonly<Record<string, string>>;
}

/** One shape for both kinds, so that the matcher's property reads stay monomorphic. */
interface Segment {
  readonly literal: string | undefined;
  readonly param: string | undefined;
}

interface CompiledRoute<R> {
  readonly route: R;
  readonly segments: readonly Segment[];
}

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

/** Targets whose match is remembered, at most (then forgotten all at once), and their length at most. */
const REMEMBERED_TARGETS = 256;
const REMEMBERED_TARGET_LENGTH = 256;

/**
 * Builds a matcher over `routes`, tried in order. The request target's query string is ignored and each
 * path segment is percent-decoded on its own (so `%2F` stays inside its segment). A segment whose
 * encoding is malformed is kept as written: it then matches no literal (404), and as a parameter it fails
 * that parameter's own validation, so no input throws.
 */
export function createRouteMatcher<R extends PathPattern>(routes: readonly R[]): (target: string) => RouteMatch<R> | undefined {
  const compiled: CompiledRoute<R>[] = routes.map((route) => ({ route, segments: compile(route.path) }));
  // This runs on every request: a target without any percent-encoding (nearly all) is matched in place, without
  // splitting it; only the parameters' values are cut out, and only for the route that matched.
  // Clients poll the same few targets: their matches (frozen, shared by the requests) are remembered.
  const remembered = new Map<string, RouteMatch<R> | undefined>();
  const match = (target: string): RouteMatch<R> | undefined => {
    if (!target.startsWith("/")) return undefined;
    const queryAt = target.indexOf("?");
    const pathEnd = queryAt === -1 ? target.length : queryAt;
    const percentAt = target.indexOf("%");
    if (percentAt !== -1 && percentAt < pathEnd) return matchDecoded(compiled, pathSegments(target)!);
    for (const { route, segments } of compiled) {
      const params = matchInPlace(target, pathEnd, segments);
      if (params !== undefined) return Object.freeze({ route, params: Object.freeze(params) });
    }
    return undefined;
  };
  return (target) => {
    const known = remembered.get(target);
    if (known !== undefined || remembered.has(target)) return known;
    const found = match(target);
    if (target.length <= REMEMBERED_TARGET_LENGTH) {
      if (remembered.size >= REMEMBERED_TARGETS) remembered.clear();
      remembered.set(target, found);
    }
    return found;
  };
}

/** The parameters if `target` (up to `pathEnd`, with no percent-encoding there) has the pattern's segments. */
function matchInPlace(target: string, pathEnd: number, pattern: readonly Segment[]): Readonly<Record<string, string>> | undefined {
  let start = 1;
  let params: Record<string, string> | undefined;
  for (let index = 0; index < pattern.length; index++) {
    // Past the path's end: the target has fewer segments than the pattern.
    if (start > pathEnd) return undefined;
    let end = target.indexOf("/", start);
    if (end === -1 || end > pathEnd) end = pathEnd;
    const { literal, param } = pattern[index]!;
    if (literal !== undefined) {
      if (end - start !== literal.length || !target.startsWith(literal, start)) return undefined;
    } else {
      (params ??= {})[param!] = target.slice(start, end);
    }
    start = end + 1;
  }
  // Every segment used, none left over: the last one ended at the path's end.
  return start === pathEnd + 1 ? (params ?? NO_PARAMS) : undefined;
}

function matchDecoded<R extends PathPattern>(compiled: readonly CompiledRoute<R>[], segments: readonly string[]): RouteMatch<R> | undefined {
  candidates: for (const { route, segments: pattern } of compiled) {
    if (pattern.length !== segments.length) continue;
    for (let index = 0; index < pattern.length; index++) {
      const literal = pattern[index]!.literal;
      if (literal !== undefined && literal !== segments[index]) continue candidates;
    }
    const params: Record<string, string> = {};
    for (let index = 0; index < pattern.length; index++) {
      const param = pattern[index]!.param;
      if (param !== undefined) params[param] = segments[index]!;
    }
    return Object.freeze({ route, params: Object.freeze(params) });
  }
  return undefined;
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
