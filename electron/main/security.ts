// The window's security rules as pure functions, so that plain Node tests prove them (electron/main/window.ts applies them).
import { dashboardCsp } from "../../shared/http/dashboardCsp.ts";

/** The renderer's own origin: a privileged custom scheme, served from the files of the build (appProtocol.ts). */
export const APP_SCHEME = "gasfees";
export const APP_HOST = "app";
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/** The dashboard's CSP in the window: the browser's (dashboardCsp), connecting to the local API's origin only. */
export function contentSecurityPolicy(apiBaseUrl: string): string {
  const api = new URL(apiBaseUrl);
  if (api.protocol !== "http:" || !["127.0.0.1", "localhost", "[::1]"].includes(api.hostname)) {
    throw new Error(`the dashboard connects only to the local API, not to ${api.origin}`);
  }
  return dashboardCsp(api.origin);
}

/** A URL of the app's own pages (the only place the window may be, and the only frames IPC answers). */
export function isAppUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST && parsed.username === "" && parsed.password === "";
  } catch {
    return false;
  }
}

/**
 * Links the app may open in the user's browser: https anywhere (docs, explorers) and http only to this computer
 * (the API itself). No file:, javascript:, custom schemes or credentials in the URL.
 */
export function isSafeExternalUrl(url: string): boolean {
  if (url.length > 2048) return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.username !== "" || parsed.password !== "") return false;
  if (parsed.protocol === "https:") return parsed.hostname !== "";
  if (parsed.protocol === "http:") return ["127.0.0.1", "localhost", "[::1]"].includes(parsed.hostname);
  return false;
}

/** Maps a `gasfees://app/<path>` request to a file of the renderer build, or undefined (never outside the build). */
export function rendererFileOf(url: string): string | undefined {
  if (!isAppUrl(url)) return undefined;
  const { pathname } = new URL(url);
  let path: string;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  if (path === "/" || path === "") return "index.html";
  const segments = path.slice(1).split("/");
  const safe = segments.every((segment) => /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/.test(segment));
  return safe ? segments.join("/") : undefined;
}
