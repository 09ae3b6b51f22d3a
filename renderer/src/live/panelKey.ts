// Which key the API panel's commands carry: one of the user's own API keys, never the dashboard's token (a command
// copied from the page must keep working after the token is rotated, and the token is not an API key to hand out).
import { maskApiKey } from "../../../shared/core/text/maskApiKey.ts";
import type { DashboardCredentials } from "../../../shared/wire/apiBodies.ts";
import { ApiCallError } from "./apiCallError.ts";

/**
 * - loading: not asked yet;
 * - key: from the service (`GET /dashboard/credentials`), or the page's own `?token=`, which is then a user key;
 * - none: the service holds no key it can show;
 * - unavailable: the service could not be asked (the panel says so, and the next connection asks again).
 */
export type PanelKey =
  | { readonly kind: "loading" }
  | { readonly kind: "key"; readonly apiKey: string; readonly apiKeySecret?: string; readonly from: "service" | "address" }
  | { readonly kind: "none" }
  | { readonly kind: "unavailable"; readonly message: string };

/** Stands for the key in the commands while there is none to show. */
export const KEY_PLACEHOLDER = "$GASFEES_KEY";

/**
 * The panel's key from the answer of `GET /dashboard/credentials` (or its failure), asked with `token`, a token the
 * service has just accepted. That route shows a key to the dashboard's token only: `askedWithApiKey` (or, from a
 * service before it, a 401 INVALID_API_KEY) means the page was opened with one of the user's keys, which is then the
 * key to show.
 */
export function panelKeyOf(token: string, answer: { ok: DashboardCredentials } | { failed: unknown }): PanelKey {
  if ("ok" in answer) {
    const { apiKey, apiKeySecret, askedWithApiKey } = answer.ok;
    if (askedWithApiKey === true) return { kind: "key", apiKey: token, from: "address" };
    if (apiKey === null) return { kind: "none" };
    return apiKeySecret === undefined ? { kind: "key", apiKey, from: "service" } : { kind: "key", apiKey, apiKeySecret, from: "service" };
  }
  const error = answer.failed;
  if (error instanceof ApiCallError && error.status === 401 && error.code === "INVALID_API_KEY") return { kind: "key", apiKey: token, from: "address" };
  return { kind: "unavailable", message: error instanceof Error ? error.message : String(error) };
}

/** The `user:password` of curl's `-u`, as shown (masked) and as copied (whole). */
export function basicCredentials(key: PanelKey): { readonly shown: string; readonly copied: string } {
  if (key.kind !== "key") return { shown: `${KEY_PLACEHOLDER}:`, copied: `${KEY_PLACEHOLDER}:` };
  const secret = key.apiKeySecret ?? "";
  return { shown: `${maskApiKey(key.apiKey)}:${"•".repeat(Math.min(secret.length, 8))}`, copied: `${key.apiKey}:${secret}` };
}

export interface CurlLine {
  readonly name: string;
  readonly shown: string;
  readonly copied: string;
}

/** A ready curl command per endpoint of the chain, with the key masked on screen and whole in the copy. */
export function curlLines(baseUrl: string, chainId: number, key: PanelKey): readonly CurlLine[] {
  const credentials = basicCredentials(key);
  const endpoints = [
    { name: "busyThreshold", options: "", path: `/networks/${chainId}/busyThreshold` },
    { name: "baseFeePercentile", options: "", path: `/networks/${chainId}/baseFeePercentile` },
    { name: "baseFeeHistory", options: "", path: `/networks/${chainId}/baseFeeHistory` },
    { name: "suggestedGasFees", options: "", path: `/networks/${chainId}/suggestedGasFees` },
    { name: "networks", options: "", path: "/networks" },
    { name: "events", options: "-N ", path: `/networks/${chainId}/events` },
  ];
  return endpoints.map(({ name, options, path }) => ({
    name,
    shown: `curl ${options}-u "${credentials.shown}" ${baseUrl}${path}`,
    copied: `curl ${options}-u "${credentials.copied}" ${baseUrl}${path}`,
  }));
}
