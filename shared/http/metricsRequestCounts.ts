import type { ServerResponse } from "node:http";

/** The `route` label of a request answered before or without a route: Host refused, OPTIONS, another method, unknown path. */
export const UNROUTED = "none";

/**
 * The server's answers counted by route (its path pattern, so never a key in the path) and status, for `/metrics`.
 * Counting costs two map look-ups per request, on the request's own turn; prom-client's labelled counters hash their
 * labels on every increment, so they are fed from these counts only when scraped.
 */
export class RequestCounts {
  readonly #byRoute = new Map<string, Map<number, number>>();

  /**
   * Counts `res`'s answer under `route`: at once when its status is written (every JSON answer and error), else when
   * the response closes (a file read or a scrape answered later). An answer never begun (the client left) is not counted.
   */
  countAnswer(route: string, res: ServerResponse): void {
    if (res.headersSent) this.#add(route, res.statusCode);
    else res.once("close", () => res.headersSent && this.#add(route, res.statusCode));
  }

  /** Every count so far: route, status, answers. */
  *entries(): Generator<readonly [route: string, status: number, answers: number]> {
    for (const [route, byStatus] of this.#byRoute) for (const [status, answers] of byStatus) yield [route, status, answers];
  }

  #add(route: string, status: number): void {
    let byStatus = this.#byRoute.get(route);
    if (byStatus === undefined) this.#byRoute.set(route, (byStatus = new Map<number, number>()));
    byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
  }
}
