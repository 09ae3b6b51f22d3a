import { readFile } from "node:fs/promises";
import { extname, join } from "node:path";
import { protocol } from "electron";
import { APP_SCHEME, contentSecurityPolicy, rendererFileOf } from "./security.ts";

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".woff2": "font/woff2",
  ".json": "application/json; charset=utf-8",
};

/** Before the app is ready: the app's scheme behaves like https (a secure origin with fetch), nothing more. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
}

/**
 * Serves `gasfees://app/...` from the renderer build, with the CSP as a header (its connect-src names the API's
 * current address, so it follows a port change). Nothing outside the build is ever read.
 */
export function serveRendererFiles(rendererDir: string, apiBaseUrl: () => string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const file = rendererFileOf(request.url);
    const type = file === undefined ? undefined : CONTENT_TYPES[extname(file)];
    if (file === undefined || type === undefined || request.method !== "GET") return new Response("not found", { status: 404 });
    try {
      const body = await readFile(join(rendererDir, file));
      return new Response(new Uint8Array(body), {
        headers: {
          "content-type": type,
          "content-security-policy": contentSecurityPolicy(apiBaseUrl()),
          "x-content-type-options": "nosniff",
          "cache-control": "no-cache",
        },
      });
    } catch {
      return new Response("not found", { status: 404 });
    }
  });
}
