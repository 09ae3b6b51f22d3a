import assert from "node:assert/strict";
import { test } from "node:test";
import { redactUrl, redactUrlsIn, UrlRedactor } from "./redactUrl.ts";

test("redactUrl keeps scheme, host, port and plain path words; drops user info, hides the query and key-like runs", () => {
  assert.equal(redactUrl("https://mainnet.infura.io/v3/9aa3d95b3bc440fa88ea12eaa4456161"), "https://mainnet.infura.io/v3/***");
  // Alchemy-style: mixed case, no digit.
  assert.equal(redactUrl("https://eth-mainnet.g.alchemy.com/v2/AbCdEfGhIjKlMnOpQrStUvWx"), "https://eth-mainnet.g.alchemy.com/v2/***");
  assert.equal(redactUrl("wss://user:pass@rpc.example:8546/ws?apikey=abc"), "wss://rpc.example:8546/ws?***");
  assert.equal(redactUrl("https://rpc.example/ethereum-mainnet-archive"), "https://rpc.example/ethereum-mainnet-archive");
  assert.equal(redactUrl("not a url"), "<invalid url>");
});

test("redactUrlsIn redacts every URL in a text, a key followed by punctuation included", () => {
  assert.equal(
    redactUrlsIn("see (https://x.example/v3/9aa3d95b3bc440fa88ea12eaa4456161). or ws://y.example/?k=1, fine"),
    "see (https://x.example/v3/***). or ws://y.example?*** fine",
  );
});

test("an endpoint's redactor hides each secret part of its URL wherever it appears, as written or percent-decoded", () => {
  const redactor = new UrlRedactor("https://bob:p%40ss-word@rpc.example/v3/9aa3d95b3bc440fa88ea12eaa4456161?apikey=Q1w2e3r4t5y6u7i8&chain=1");
  assert.equal(redactor.redactedUrl, "https://rpc.example/v3/***?***");
  assert.ok(redactor.hasSecrets);
  assert.equal(redactor.redact("project 9aa3d95b3bc440fa88ea12eaa4456161 not found"), "project *** not found");
  assert.equal(redactor.redact("key Q1w2e3r4t5y6u7i8 over quota"), "key *** over quota");
  assert.equal(redactor.redact("login p@ss-word refused"), "login *** refused");
  assert.equal(redactor.redact("no secret, chain=1"), "no secret, chain=1");
  assert.ok(redactor.quotesSecret("xx9aa3d95b3bc440fa88ea12eaa4456161xx"));
  assert.equal(new UrlRedactor("http://127.0.0.1:8545").hasSecrets, false);
});
