import { readFile } from "node:fs/promises";
import type { ServerResponse } from "node:http";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ApiError, writeApiError } from "./apiErrors.ts";
import { CONTENT_TYPES } from "./contentTypes.ts";

/** Where `npm run build:renderer` writes the dashboard (vite.config.ts's outDir). */
export const DEFAULT_DASHBOARD_DIR = fileURLToPath(new URL("../../dist/renderer/", import.meta.url));

/**
 * The page's only sources are its own files and the API on the same origin: no inline script, no other host.
 * React and recharts set styles through the CSSOM, which `style-src` does not restrict.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** A build's asset name: one path segment of safe characters with a known extension, never a dot file. */
const ASSET_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

/**
 * Answers one file of the dashboard's build, or 404 NOT_FOUND. `name` is a single path segment that the caller
 * matched (`index.html`, or `assets/<name>` as `{ asset: name }`), so that no request can name a path outside `dir`.
 */
export function serveDashboardFile(res: ServerResponse, dir: string, file: { index: true } | { asset: string }, head: boolean): void {
  let path: string;
  let cacheControl: string;
  if ("index" in file) {
    path = join(dir, "index.html");
    cacheControl = "no-store";
  } else {
    const name = file.asset;
    if (!ASSET_NAME.test(name) || name.includes("..") || CONTENT_TYPES[extname(name)] === undefined) {
      writeApiError(res, new ApiError("NOT_FOUND"), head);
      return;
    }
    path = join(dir, "assets", name);
    // Vite names assets by their content's hash, so an asset never changes under its name.
    cacheControl = "public, max-age=31536000, immutable";
  }
  readFile(path).then(
    (body) => {
      if (res.destroyed || res.headersSent) return;
      const headers: Record<string, string | number> = {
        "Content-Type": CONTENT_TYPES[extname(path)]!,
        "Content-Length": body.length,
        "Cache-Control": cacheControl,
        "X-Content-Type-Options": "nosniff",
        "Cross-Origin-Resource-Policy": "same-origin",
      };
      if ("index" in file) {
        headers["Content-Security-Policy"] = DASHBOARD_CSP;
        headers["X-Frame-Options"] = "DENY";
        // The page is opened with its token in the query string: no Referer may carry it anywhere.
        headers["Referrer-Policy"] = "no-referrer";
      }
      res.writeHead(200, headers);
      res.end(head ? undefined : body);
    },
    () => {
      if (!res.destroyed && !res.headersSent) writeApiError(res, new ApiError("NOT_FOUND"), head);
    },
  );
}
