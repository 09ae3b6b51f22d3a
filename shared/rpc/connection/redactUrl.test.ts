import assert from "node:assert/strict";
import { test } from "node:test";
import { endpointNamesOf, redactUrl, redactUrlsIn, UrlRedactor } from "./redactUrl.ts";

test("redactUrl shows the origin only: scheme, host and port, and /… for a path or query; never user info", () => {
  assert.equal(redactUrl("https://mainnet.infura.io/v3/9aa3d95b3bc440fa88ea12eaa4456161"), "https://mainnet.infura.io/…");
  assert.equal(redactUrl("https://eth-mainnet.g.alchemy.com/v2/AbCdEfGhIjKlMnOpQrStUvWx"), "https://eth-mainnet.g.alchemy.com/…");
  assert.equal(redactUrl("wss://user:pass@rpc.example:8546/ws?apikey=abc"), "wss://rpc.example:8546/…");
  // A secret of any shape: short, or plain lower case.
  assert.equal(redactUrl("https://rpc.example/swordfish"), "https://rpc.example/…");
  assert.equal(redactUrl("https://rpc.example/k3y"), "https://rpc.example/…");
  assert.equal(redactUrl("http://127.0.0.1:8545"), "http://127.0.0.1:8545");
  assert.equal(redactUrl("http://127.0.0.1:8545/"), "http://127.0.0.1:8545");
  assert.equal(redactUrl("not a url"), "<invalid url>");
});

test("redactUrlsIn redacts every URL in a text, a key followed by punctuation included", () => {
  assert.equal(
    redactUrlsIn("see (https://x.example/v3/9aa3d95b3bc440fa88ea12eaa4456161). or ws://y.example/?k=1, fine"),
    "see (https://x.example/…). or ws://y.example/…, fine",
  );
});

test("an endpoint's redactor hides each secret part of its URL wherever it appears, as written or percent-decoded", () => {
  const redactor = new UrlRedactor("https://bob:p%40ss-word@rpc.example/v3/9aa3d95b3bc440fa88ea12eaa4456161?apikey=Q1w2e3r4t5y6u7i8&chain=1");
  assert.equal(redactor.redactedUrl, "https://rpc.example/…");
  assert.ok(redactor.hasSecrets);
  assert.equal(redactor.redact("project 9aa3d95b3bc440fa88ea12eaa4456161 not found"), "project *** not found");
  assert.equal(redactor.redact("key Q1w2e3r4t5y6u7i8 over quota"), "key *** over quota");
  assert.equal(redactor.redact("login p@ss-word refused"), "login *** refused");
  assert.equal(redactor.redact("no secret, chain=1"), "no secret, chain=1");
  assert.ok(redactor.quotesSecret("xx9aa3d95b3bc440fa88ea12eaa4456161xx"));
  assert.equal(new UrlRedactor("http://127.0.0.1:8545").hasSecrets, false);
  // A short or lower-case path secret is one too.
  assert.equal(new UrlRedactor("https://rpc.example/rpc/swordfish").redact("no key swordfish at /rpc/swordfish"), "no key *** at /***");
});

test("endpoint names: the origin, the user's label in brackets, and the place in the list where two would show alike", () => {
  assert.deepEqual(
    endpointNamesOf(["https://a.example/key1", "https://a.example/key2", "https://a.example/key3", "wss://b.example/k"], { "https://a.example/key3": "work" }),
    ["https://a.example/… #1", "https://a.example/… #2", "https://a.example/… (work)", "wss://b.example/…"],
  );
  assert.deepEqual(endpointNamesOf(["http://127.0.0.1:8545"]), ["http://127.0.0.1:8545"]);
});
