import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test, type TestContext } from "node:test";
import { scriptedService } from "../../test/support/scriptedFeed.ts";
import { ApiKeyring } from "../keys/apiKeyring.ts";
import { silentLogger } from "../log/logger.ts";
import { dashboardCsp } from "./dashboardCsp.ts";
import { createApiServer } from "./server.ts";

const DASHBOARD_CSP = dashboardCsp("'self'");

const KEY = "0123456789abcdef0123456789abcdef";
const INDEX = '<!doctype html><html><head><script type="module" src="./assets/index-Bx9_k2.js"></script></head><body></body></html>';
const SCRIPT = "console.log('dashboard');";
const STYLE = "body{margin:0}";

/** A build directory like Vite's, beside a file that must never be served. */
function buildDir(t: TestContext): string {
  const root = mkdtempSync(join(tmpdir(), "gasfees-dashboard-"));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  writeFileSync(join(root, "secret.txt"), "outside the build");
  const dir = join(root, "renderer");
  mkdirSync(join(dir, "assets"), { recursive: true });
  writeFileSync(join(dir, "index.html"), INDEX);
  writeFileSync(join(dir, "assets", "index-Bx9_k2.js"), SCRIPT);
  writeFileSync(join(dir, "assets", "index-Cc1.css"), STYLE);
  writeFileSync(join(dir, "assets", ".hidden.js"), "hidden");
  writeFileSync(join(dir, "assets", "notes.txt"), "not a build type");
  return dir;
}

async function start(t: TestContext, dir: string): Promise<string> {
  const server = createApiServer({
    source: scriptedService([{ chainId: 1 }]).service,
    keyring: new ApiKeyring([{ key: KEY }]),
    logger: silentLogger,
    port: 0,
    dashboardDir: dir,
  });
  const { url } = await server.listen();
  t.after(() => server.close());
  return url;
}

/** A raw request (fetch would normalise `..` away before sending). */
function get(url: string, path: string, method = "GET"): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const { host } = new URL(url);
    const req = httpRequest({ host: "127.0.0.1", port: new URL(url).port, path, method, headers: { host }, agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

test("/ serves the dashboard page with no key, a strict CSP and no referrer; the query string (the token) does not matter", async (t) => {
  const url = await start(t, buildDir(t));
  for (const path of ["/", "/?token=0123456789abcdef0123456789abcdef"]) {
    const page = await get(url, path);
    assert.equal(page.status, 200);
    assert.equal(page.body, INDEX);
    assert.equal(page.headers["content-type"], "text/html; charset=utf-8");
    assert.equal(page.headers["content-security-policy"], DASHBOARD_CSP);
    assert.match(DASHBOARD_CSP, /default-src 'none'/);
    assert.match(DASHBOARD_CSP, /script-src 'self'(;|$)/);
    assert.equal(page.headers["referrer-policy"], "no-referrer");
    assert.equal(page.headers["x-frame-options"], "DENY");
    assert.equal(page.headers["cache-control"], "no-store");
  }
  const head = await get(url, "/", "HEAD");
  assert.equal(head.status, 200);
  assert.equal(head.body, "");
  assert.equal(head.headers["content-length"], String(Buffer.byteLength(INDEX)));
});

test("assets are served with their content types and cached for good (their names carry their hash)", async (t) => {
  const url = await start(t, buildDir(t));
  const script = await get(url, "/assets/index-Bx9_k2.js");
  assert.equal(script.status, 200);
  assert.equal(script.body, SCRIPT);
  assert.equal(script.headers["content-type"], "text/javascript; charset=utf-8");
  assert.equal(script.headers["x-content-type-options"], "nosniff");
  assert.equal(script.headers["cache-control"], "public, max-age=31536000, immutable");
  const style = await get(url, "/assets/index-Cc1.css");
  assert.equal(style.headers["content-type"], "text/css; charset=utf-8");
  assert.equal(style.body, STYLE);
});

test("no path leaves the build: traversal, encoded slashes, dot files and unknown types are 404 NOT_FOUND", async (t) => {
  const url = await start(t, buildDir(t));
  for (const path of [
    "/assets/..%2Fsecret.txt",
    "/assets/..%2F..%2Fsecret.txt",
    "/assets/%2E%2E%2F%2E%2E%2Fsecret.txt",
    "/assets/../../secret.txt",
    "/../secret.txt",
    "/secret.txt",
    "/index.html",
    "/assets/",
    "/assets/.hidden.js",
    "/assets/notes.txt",
    "/assets/missing-Aa1.js",
    "/assets/index-Bx9_k2.js/x",
    "/assets/%00.js",
  ]) {
    const answer = await get(url, path);
    assert.equal(answer.status, 404, path);
    assert.equal((JSON.parse(answer.body) as { code: string }).code, "NOT_FOUND", path);
    assert.doesNotMatch(answer.body, /outside the build|hidden/, path);
  }
});

test("the page is public but its data is not: /networks still needs the key", async (t) => {
  const url = await start(t, buildDir(t));
  const data = await get(url, "/networks");
  assert.equal(data.status, 401);
  assert.equal((JSON.parse(data.body) as { code: string }).code, "MISSING_API_KEY");
});

test("without a build, / is 404 NOT_FOUND (never a 500)", async (t) => {
  const url = await start(t, join(tmpdir(), "gasfees-no-such-build"));
  const page = await get(url, "/");
  assert.equal(page.status, 404);
  assert.equal((JSON.parse(page.body) as { code: string }).code, "NOT_FOUND");
  assert.equal((await get(url, "/assets/index-Bx9_k2.js")).status, 404);
});
