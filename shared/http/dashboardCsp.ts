/**
 * The dashboard page's Content Security Policy, in a browser (served by the API, `connect-src 'self'`) and in the
 * desktop window (served from the app's own scheme, connecting to the local API's origin). The page runs only its
 * own scripts and styles and talks only to the API: no inline script, no eval, no other host, no plugins, no
 * frames, no forms. React and recharts set styles through the CSSOM, which `style-src` does not restrict.
 */
export function dashboardCsp(connectSrc: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${connectSrc}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join("; ");
}
