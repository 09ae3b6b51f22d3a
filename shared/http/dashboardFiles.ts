import { readFile } from "node:fs/promises";
import type { ServerResponse } from "node:http";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ApiError, writeApiError } from "./apiErrors.ts";
import { CONTENT_TYPES } from "./contentTypes.ts";
import { dashboardCsp } from "./dashboardCsp.ts";

/** Where `npm run build:renderer` writes the dashboard (vite.config.ts's outDir). */
export const DEFAULT_DASHBOARD_DIR = fileURLToPath(new URL("../../dist/renderer/", import.meta.url));

/** A build's asset name: one path segment of safe characters with a known extension, never a dot file. */
const ASSET_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;
/** A build has a handful of assets; a bound keeps a stream of made-up names from growing the cache. */
const MAX_CACHED_ASSETS = 64;

/**
 * The dashboard's built files. Assets are named by their content's hash (Vite), so each is read once and the same
 * buffer answers every request for it: pipelined requests for the bundle share one copy instead of each holding its
 * own. index.html is read on each request, so that a rebuild while the service runs is served at once.
 */
export class DashboardFiles {
  readonly #dir: string;
  readonly #assets = new Map<string, Promise<Buffer>>();

  constructor(dir: string) {
    this.#dir = dir;
  }

  /**
   * Answers one file, or 404 NOT_FOUND. `file` is a single path segment that the router matched (`index.html`, or
   * `{ asset: name }` for `assets/<name>`), so that no request can name a path outside the build.
   */
  serve(res: ServerResponse, file: { index: true } | { asset: string }, head: boolean, headers: Readonly<Record<string, string>>): void {
    let name: string;
    let body: Promise<Buffer>;
    if ("index" in file) {
      name = "index.html";
      body = readFile(join(this.#dir, name));
    } else {
      name = file.asset;
      if (!ASSET_NAME.test(name) || name.includes("..") || CONTENT_TYPES[extname(name)] === undefined) {
        writeApiError(res, new ApiError("NOT_FOUND"), head, headers);
        return;
      }
      body = this.#asset(name);
    }
    body.then(
      (bytes) => {
        if (res.destroyed || res.headersSent) return;
        const answer: Record<string, string | number> = {
          ...headers,
          "Content-Type": CONTENT_TYPES[extname(name)]!,
          "Content-Length": bytes.length,
          // Vite names assets by their content's hash, so an asset never changes under its name.
          "Cache-Control": "index" in file ? "no-store" : "public, max-age=31536000, immutable",
          "Cross-Origin-Resource-Policy": "same-origin",
        };
        if ("index" in file) {
          answer["Content-Security-Policy"] = dashboardCsp("'self'");
          answer["X-Frame-Options"] = "DENY";
          // The page is opened with its token in the query string: no Referer may carry it anywhere.
          answer["Referrer-Policy"] = "no-referrer";
        }
        res.writeHead(200, answer);
        res.end(head ? undefined : bytes);
      },
      () => {
        if (!res.destroyed && !res.headersSent) writeApiError(res, new ApiError("NOT_FOUND"), head, headers);
      },
    );
  }

  #asset(name: string): Promise<Buffer> {
    let body = this.#assets.get(name);
    if (body === undefined) {
      body = readFile(join(this.#dir, "assets", name));
      if (this.#assets.size < MAX_CACHED_ASSETS) {
        this.#assets.set(name, body);
        // A name that is not there (yet) is not kept: a later build may bring it.
        body.catch(() => this.#assets.delete(name));
      }
    }
    return body;
  }
}
