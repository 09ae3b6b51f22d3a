import { readFile } from "node:fs/promises";
import { extname, join } from "node:path";
import { protocol } from "electron";
import { CONTENT_TYPES } from "../../shared/http/contentTypes.ts";
import { APP_SCHEME, contentSecurityPolicy, rendererFileOf } from "./security.ts";

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
