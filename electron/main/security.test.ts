import assert from "node:assert/strict";
import { test } from "node:test";
import { APP_ENTRY_URL, contentSecurityPolicy, isAppUrl, isSafeExternalUrl, rendererFileOf } from "./security.ts";

test("the CSP lets the page load only its own files and talk only to the local API", () => {
  const csp = contentSecurityPolicy("http://127.0.0.1:8950");
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /script-src 'self'(;|$)/);
  assert.match(csp, /connect-src http:\/\/127\.0\.0\.1:8950(;|$)/);
  assert.doesNotMatch(csp, /unsafe-(inline|eval)|\*/);
  assert.throws(() => contentSecurityPolicy("https://evil.example"), /only to the local API/);
  assert.throws(() => contentSecurityPolicy("http://192.168.1.2:8950"), /only to the local API/);
});

test("only the app's own origin counts as the app", () => {
  assert.equal(isAppUrl(APP_ENTRY_URL), true);
  assert.equal(isAppUrl("gasfees://app/assets/index-abc.js"), true);
  for (const url of ["gasfees://evil/index.html", "https://app/index.html", "file:///index.html", "gasfees://user:pw@app/", "not a url", ""]) {
    assert.equal(isAppUrl(url), false, url);
  }
});

test("external links: https, or http to this computer only; nothing with credentials or another scheme", () => {
  for (const url of ["https://docs.metamask.io/services/reference/gas-api/", "http://127.0.0.1:8950/openapi.json", "http://localhost:8950/"]) {
    assert.equal(isSafeExternalUrl(url), true, url);
  }
  for (const url of [
    "http://example.com/",
    "file:///etc/passwd",
    "javascript:alert(1)",
    "smb://server/share",
    "https://user:pw@example.com/",
    "gasfees://app/index.html",
    `https://example.com/${"a".repeat(3000)}`,
    "nonsense",
  ]) {
    assert.equal(isSafeExternalUrl(url), false, url);
  }
});

test("renderer files are served from the build only: no traversal, no dot files, no other host", () => {
  assert.equal(rendererFileOf("gasfees://app/"), "index.html");
  assert.equal(rendererFileOf("gasfees://app/index.html?x=1#settings"), "index.html");
  assert.equal(rendererFileOf("gasfees://app/assets/index-Bx1.js"), "assets/index-Bx1.js");
  // The URL parser resolves dot segments at the root: "/../package.json" names the build's own (absent) package.json.
  assert.equal(rendererFileOf("gasfees://app/../package.json"), "package.json");
  for (const url of [
    "gasfees://app/assets/%2e%2e%2f%2e%2e%2fmain.mjs",
    "gasfees://app/.env",
    "gasfees://app/assets//x.js",
    "gasfees://app/%E0%A4%A",
    "gasfees://other/index.html",
  ]) {
    assert.equal(rendererFileOf(url), undefined, url);
  }
});
