import assert from "node:assert/strict";
import { test } from "node:test";
import { ApiKeyring, InvalidApiKeyError } from "./apiKeyring.ts";
import { generateApiKey } from "./generateApiKey.ts";

const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64");
const basic = (text: string) => `Basic ${b64(text)}`;

const open = "0123456789abcdef0123456789abcdef";
const guarded = "fedcba9876543210fedcba9876543210";
const ring = () => new ApiKeyring([{ key: open }, { key: guarded, secret: "s3cret" }]);

test("a key without a secret: base64(key:) and base64(key) are accepted, a non-empty secret is refused", () => {
  const keyring = ring();
  assert.equal(keyring.verifyAuthorization(basic(`${open}:`)).ok, true);
  assert.equal(keyring.verifyAuthorization(basic(open)).ok, true);
  assert.deepEqual(keyring.verifyAuthorization(basic(`${open}:anything`)), { ok: false, code: "INVALID_API_KEY" });
});

test("a key with a secret: only Basic with that exact secret", () => {
  const keyring = ring();
  assert.equal(keyring.verifyAuthorization(basic(`${guarded}:s3cret`)).ok, true);
  for (const wrong of [`${guarded}:`, guarded, `${guarded}:s3cre`, `${guarded}:s3cret `, `${guarded}:S3CRET`]) {
    assert.deepEqual(keyring.verifyAuthorization(basic(wrong)), { ok: false, code: "INVALID_API_KEY" }, wrong);
  }
});

test("the path form: a key without a secret works, a key with one answers SECRET_REQUIRED", () => {
  const keyring = ring();
  assert.equal(keyring.verifyPathKey(open).ok, true);
  assert.deepEqual(keyring.verifyPathKey(guarded), { ok: false, code: "SECRET_REQUIRED" });
  assert.deepEqual(keyring.verifyPathKey("0123456789abcdef0123456789abcdee"), { ok: false, code: "INVALID_API_KEY" });
  assert.deepEqual(keyring.verifyPathKey(""), { ok: false, code: "INVALID_API_KEY" });
});

test("unknown keys, an empty key and garbage are INVALID_API_KEY; no credentials are MISSING_API_KEY", () => {
  const keyring = ring();
  assert.deepEqual(keyring.verifyAuthorization(basic("nope:")), { ok: false, code: "INVALID_API_KEY" });
  assert.deepEqual(keyring.verifyAuthorization(basic(":s3cret")), { ok: false, code: "INVALID_API_KEY" });
  assert.deepEqual(keyring.verifyAuthorization(basic(`${open.toUpperCase()}:`)), { ok: false, code: "INVALID_API_KEY" });
  assert.deepEqual(keyring.verifyAuthorization("Basic %%%"), { ok: false, code: "INVALID_API_KEY" });
  assert.deepEqual(keyring.verifyAuthorization(undefined), { ok: false, code: "MISSING_API_KEY" });
  assert.deepEqual(keyring.verifyAuthorization(`Bearer ${open}`), { ok: false, code: "MISSING_API_KEY" });
});

test("the key id names a key without revealing it, and is the same by Basic and by path", () => {
  const keyring = ring();
  const byBasic = keyring.verifyAuthorization(basic(open));
  const byPath = keyring.verifyPathKey(open);
  assert.ok(byBasic.ok && byPath.ok);
  assert.equal(byBasic.keyId, byPath.keyId);
  assert.match(byBasic.keyId, /^[0-9a-f]{12}$/);
  assert.ok(!open.includes(byBasic.keyId));
  const other = keyring.verifyAuthorization(basic(`${guarded}:s3cret`));
  assert.ok(other.ok);
  assert.notEqual(other.keyId, byBasic.keyId);
});

test("several keys at once; a removed key is refused at once", () => {
  const keyring = ring();
  const added = generateApiKey();
  keyring.add(added);
  assert.equal(keyring.size, 3);
  assert.equal(keyring.has(added), true);
  assert.equal(keyring.verifyPathKey(added).ok, true);
  assert.equal(keyring.remove(added), true);
  assert.equal(keyring.remove(added), false);
  assert.equal(keyring.has(added), false);
  assert.deepEqual(keyring.verifyPathKey(added), { ok: false, code: "INVALID_API_KEY" });
  assert.deepEqual(keyring.verifyAuthorization(basic(added)), { ok: false, code: "INVALID_API_KEY" });
  assert.equal(keyring.verifyPathKey(open).ok, true);
});

test("adding a key again replaces its secret", () => {
  const keyring = ring();
  keyring.add(open, "now-secret");
  assert.equal(keyring.size, 2);
  assert.deepEqual(keyring.verifyPathKey(open), { ok: false, code: "SECRET_REQUIRED" });
  assert.equal(keyring.verifyAuthorization(basic(`${open}:now-secret`)).ok, true);
  assert.deepEqual(keyring.verifyAuthorization(basic(`${open}:`)), { ok: false, code: "INVALID_API_KEY" });
  assert.deepEqual(keyring.verifyAuthorization(basic(open)), { ok: false, code: "INVALID_API_KEY" });
});

test("a valid header written otherwise than clients usually do is accepted too: scheme case, spaces, tabs", () => {
  const keyring = ring();
  for (const scheme of ["basic ", "BASIC ", "Basic  ", " Basic\t"]) {
    assert.equal(keyring.verifyAuthorization(`${scheme}${b64(`${open}:`)}`).ok, true, JSON.stringify(scheme));
    assert.equal(keyring.verifyAuthorization(`${scheme}${b64(`${guarded}:s3cret`)} `).ok, true, JSON.stringify(scheme));
  }
});

test("the revision changes with every key added, replaced or removed", () => {
  const keyring = ring();
  const seen = [keyring.revision];
  keyring.add(generateApiKey());
  seen.push(keyring.revision);
  keyring.add(open, "now-secret");
  seen.push(keyring.revision);
  keyring.remove(guarded);
  seen.push(keyring.revision);
  assert.equal(new Set(seen).size, seen.length);
});

test("keys that could not travel in a path or in Basic are refused when added, without echoing them", () => {
  const keyring = new ApiKeyring();
  for (const bad of ["short", "has:colon-0123456789", "has/slash-0123456789", "a".repeat(129), ""]) {
    assert.throws(
      () => keyring.add(bad),
      (error: unknown) => error instanceof InvalidApiKeyError && !error.message.includes(bad || "\u0000"),
    );
  }
  assert.throws(() => keyring.add(open, ""), InvalidApiKeyError);
  assert.equal(keyring.size, 0);
});

test("an empty keyring refuses everything", () => {
  const keyring = new ApiKeyring();
  assert.deepEqual(keyring.verifyAuthorization(basic(open)), { ok: false, code: "INVALID_API_KEY" });
  assert.deepEqual(keyring.verifyPathKey(open), { ok: false, code: "INVALID_API_KEY" });
});
