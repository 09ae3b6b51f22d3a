// Where the data client finds the service and its token: from the Electron bridge, or in a browser from
// `?token=` (kept in sessionStorage and removed from the address bar, so that it is neither bookmarked nor shared).

export interface Connection {
  readonly baseUrl: string;
  readonly token: string;
}

const STORAGE_KEY = "gasfees.token";

export function findConnection(): Connection | undefined {
  const bridge = window.gasfeesDesktop;
  if (bridge) return { baseUrl: bridge.baseUrl.replace(/\/+$/, ""), token: bridge.token };

  const url = new URL(window.location.href);
  const fromAddress = url.searchParams.get("token");
  if (fromAddress !== null) {
    url.searchParams.delete("token");
    window.history.replaceState(window.history.state, "", `${url.pathname}${url.search}${url.hash}`);
    if (fromAddress.trim() !== "") rememberToken(fromAddress.trim());
  }
  const token = window.sessionStorage.getItem(STORAGE_KEY);
  return token ? { baseUrl: window.location.origin, token } : undefined;
}

export function rememberToken(token: string): void {
  window.sessionStorage.setItem(STORAGE_KEY, token);
}

export function forgetToken(): void {
  window.sessionStorage.removeItem(STORAGE_KEY);
}
