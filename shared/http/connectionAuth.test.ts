import assert from "node:assert/strict";
import { test } from "node:test";
import { ApiKeyring } from "../keys/apiKeyring.ts";
import { createConnectionAuth } from "./connectionAuth.ts";

const KEY = "0123456789abcdef0123456789abcdef";
const header = (credentials: string) => `Basic ${Buffer.from(credentials).toString("base64")}`;

/** Counts the full checks, to see which requests were answered from a connection's remembered header. */
class CountingKeyring extends ApiKeyring {
  checks = 0;
  override verifyAuthorization(value: string | readonly string[] | undefined) {
    this.checks++;
    return super.verifyAuthorization(value);
  }
}

test("a connection repeating its accepted header is checked once; another connection is checked on its own", () => {
  const keyring = new CountingKeyring([{ key: KEY }]);
  const verify = createConnectionAuth(keyring);
  const first = {};
  const second = {};
  for (let request = 0; request < 5; request++) assert.equal(verify(first, header(`${KEY}:`)).ok, true);
  assert.equal(keyring.checks, 1);
  assert.equal(verify(second, header(`${KEY}:`)).ok, true);
  assert.equal(keyring.checks, 2);
});

test("refused headers are never remembered, and a refusal forgets the connection's accepted header", () => {
  const keyring = new CountingKeyring([{ key: KEY }]);
  const verify = createConnectionAuth(keyring);
  const connection = {};
  for (let request = 0; request < 3; request++) assert.deepEqual(verify(connection, header("not-a-key-0123456789:")), { ok: false, code: "INVALID_API_KEY" });
  assert.equal(keyring.checks, 3);
  assert.equal(verify(connection, header(`${KEY}:`)).ok, true);
  assert.deepEqual(verify(connection, undefined), { ok: false, code: "MISSING_API_KEY" });
  assert.equal(verify(connection, header(`${KEY}:`)).ok, true);
  assert.equal(keyring.checks, 6);
});

test("a keyring change voids what every connection remembered", () => {
  const keyring = new CountingKeyring([{ key: KEY }]);
  const verify = createConnectionAuth(keyring);
  const connection = {};
  assert.equal(verify(connection, header(`${KEY}:`)).ok, true);
  keyring.add("another-key-0123456789");
  assert.equal(verify(connection, header(`${KEY}:`)).ok, true);
  assert.equal(keyring.checks, 2);
  keyring.remove(KEY);
  assert.deepEqual(verify(connection, header(`${KEY}:`)), { ok: false, code: "INVALID_API_KEY" });
});
