// Which webhook URLs an alert rule may post to (CONTRACT.md, "Alerts": https, or a loopback http URL only), and how
// such a URL is shown. An alert travels in clear over http, so http may only reach this computer; chat services put
// the webhook's secret in its path (Slack's /services/T…/B…/<token>, Discord's /api/webhooks/<id>/<token>), so a URL
// is never shown or logged whole.

import { originShown, percentDecodedOrSame } from "../text/shownUrl.ts";

/** The longest webhook URL accepted, in characters (about what browsers and chat services handle). */
export const MAX_WEBHOOK_URL_CHARS = 2_048;

const HTTP_OR_HTTPS = "must be https, or http to this computer (127.0.0.1, localhost or [::1])";

/**
 * Why `text` cannot be a rule's webhook URL, as a phrase to follow the field's name ("webhookUrl must be https, …"),
 * or undefined when it can: https to any host, or http to a loopback host (127.0.0.0/8, [::1], localhost); no user
 * name or password in it; at most MAX_WEBHOOK_URL_CHARS characters. The messages never quote the URL's path or query.
 */
export function webhookUrlProblem(text: string): string | undefined {
  if (text.trim() === "") return "is empty: give the receiver's https URL, or leave webhookUrl out for no webhook";
  if (text.length > MAX_WEBHOOK_URL_CHARS) {
    return `is ${text.length.toLocaleString("en-US")} characters long; at most ${MAX_WEBHOOK_URL_CHARS.toLocaleString("en-US")} are accepted`;
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return "is not a URL: write it whole, with its scheme, like https://hooks.example.com/services/…";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return `${HTTP_OR_HTTPS}, not ${url.protocol}`;
  if (url.username !== "" || url.password !== "") {
    return "must not hold a user name or password (user:pass@): the receiver's secret belongs in its path or query, as chat webhooks have it";
  }
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname)) {
    return `${HTTP_OR_HTTPS}: http to ${url.hostname} would send the alert unencrypted over the network`;
  }
  return undefined;
}

/**
 * Whether a URL's hostname (as `new URL` writes it: lower case, IPv4 in dotted decimal, IPv6 in brackets) names this
 * computer: `localhost`, 127.0.0.0/8 or [::1]. Other names that may resolve to it (`foo.localhost`, a hosts entry) are
 * not taken on trust.
 */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === "localhost" || isLoopbackAddress(hostname);
}

/**
 * Whether an IP address (IPv4 dotted decimal, or IPv6 as `new URL` or the resolver writes it, with or without
 * brackets) is a loopback address: 127.0.0.0/8 or ::1.
 */
export function isLoopbackAddress(address: string): boolean {
  const bare = address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address;
  if (bare === "::1") return true;
  const octets = /^127\.([0-9]{1,3})\.([0-9]{1,3})\.([0-9]{1,3})$/.exec(bare);
  return octets !== null && octets.slice(1).every((octet) => Number(octet) <= 255);
}

/**
 * A webhook URL as it may be shown or logged: its scheme, host and port, and `/…` when it has a path or query (which
 * may hold the receiver's secret): `https://hooks.slack.com/…`. Never its user info.
 */
export function webhookShown(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "(not a URL)";
  }
  if (parsed.host === "") return `${parsed.protocol}…`;
  return originShown(parsed);
}

/** Path segments and query parts shorter than this are not looked for in a receiver's answer (`/v1/` is no secret). */
const MIN_QUOTED_PART_CHARS = 4;

/**
 * Whether a receiver's text (its answer's start, its status text) quotes `url`: the whole URL, its path, or any of
 * its path segments or query values of MIN_QUOTED_PART_CHARS or more, as written or percent-decoded. A secret in a
 * path may be short or plain lower case (`/hooks/swordfish`), so no guess is made of which segment is the secret: a
 * text that quotes any is not shown at all.
 */
export function quotesWebhookUrl(url: URL, text: string): boolean {
  const parts = [url.href, url.pathname, ...url.pathname.split("/"), url.search.slice(1), ...[...url.searchParams].flat()];
  const forms = new Set<string>();
  for (const part of parts) {
    for (const form of [part, percentDecodedOrSame(part)]) if (form.length >= MIN_QUOTED_PART_CHARS) forms.add(form);
  }
  const decodedText = percentDecodedOrSame(text);
  return [...forms].some((form) => text.includes(form) || decodedText.includes(form));
}
