import assert from "node:assert/strict";
import { test } from "node:test";
import { parseSettings } from "./settings.ts";
import { ApiKeyring } from "../keys/apiKeyring.ts";
import { plaintextCipher, type SecretCipher } from "../keys/secretCipher.ts";
import { addNewApiKey, ApiKeyNotFoundError, apiKeyIdOf, listApiKeys, removeApiKey, revealApiKey, usableApiKeys } from "./storedApiKeys.ts";

/** A cipher that really transforms (XOR with a per-instance byte), so that a sealed value is not the key and another instance cannot open it. */
function testCipher(keyByte: number): SecretCipher {
  const xor = (bytes: Buffer) => Buffer.from(bytes.map((byte) => byte ^ keyByte));
  return {
    encrypts: true,
    description: "test key store",
    seal: (plaintext) => xor(Buffer.from(`sealed:${plaintext}`)).toString("base64"),
    open: (sealed) => {
      const text = xor(Buffer.from(sealed, "base64")).toString();
      if (!text.startsWith("sealed:")) throw new Error("cannot decrypt");
      return text.slice("sealed:".length);
    },
  };
}

const basic = (key: string, secret = "") => `Basic ${Buffer.from(`${key}:${secret}`).toString("base64")}`;

test("without a key store, a new key is stored in plain text (where serve reads it) and works in the keyring", () => {
  const { settings, created } = addNewApiKey(parseSettings({}), { label: " my bot " }, plaintextCipher, () => new Date("2026-01-01T00:00:00Z"));
  assert.match(created.key, /^[0-9a-f]{32}$/);
  assert.equal(created.secret, undefined);
  assert.deepEqual(settings.apiKeys, [{ key: created.key, label: "my bot", createdAt: "2026-01-01T00:00:00.000Z" }]);
  assert.deepEqual(settings.sealedApiKeys, []);
  assert.doesNotThrow(() => parseSettings(settings));
  const [view] = listApiKeys(settings, plaintextCipher);
  assert.deepEqual(view, {
    id: created.id,
    hint: `${created.key.slice(0, 4)}…${created.key.slice(-4)}`,
    label: "my bot",
    createdAt: "2026-01-01T00:00:00.000Z",
    requiresSecret: false,
    storage: "plaintext",
  });
  const keyring = new ApiKeyring(usableApiKeys(settings, plaintextCipher).keys);
  assert.equal(keyring.verifyPathKey(created.key).ok, true);
  assert.equal(plaintextCipher.encrypts, false);
  assert.match(plaintextCipher.description, /plain text.*0600/);
});

test("with a key store, key and secret are sealed: neither appears in the settings, and only that key store opens them", () => {
  const cipher = testCipher(0x5a);
  const { settings, created } = addNewApiKey(parseSettings({}), { requireSecret: true }, cipher);
  assert.ok(created.secret);
  const file = JSON.stringify(parseSettings(settings));
  assert.equal(file.includes(created.key), false);
  assert.equal(file.includes(created.secret), false);
  assert.deepEqual(settings.apiKeys, []);
  assert.equal(settings.sealedApiKeys[0]?.id, apiKeyIdOf(created.key));

  const keyring = new ApiKeyring(usableApiKeys(settings, cipher).keys);
  assert.equal(keyring.verifyAuthorization(basic(created.key, created.secret)).ok, true);
  assert.deepEqual(keyring.verifyPathKey(created.key), { ok: false, code: "SECRET_REQUIRED" });
  assert.deepEqual(revealApiKey(settings, created.id, cipher), { key: created.key, secret: created.secret });

  // Another key store (another machine or user), or the headless service: the key is listed, marked unreadable, not usable.
  for (const other of [testCipher(0x33), plaintextCipher]) {
    assert.deepEqual(usableApiKeys(settings, other), { keys: [], unreadable: 1 });
    assert.equal(listApiKeys(settings, other)[0]?.storage, "unreadable");
    assert.equal(revealApiKey(settings, created.id, other), undefined);
  }
  assert.equal(listApiKeys(settings, cipher)[0]?.storage, "encrypted");
});

test("a sealed value that opens to another key than its id says is refused", () => {
  const cipher = testCipher(1);
  const { settings } = addNewApiKey(parseSettings({}), {}, cipher);
  const { settings: other } = addNewApiKey(parseSettings({}), {}, cipher);
  const swapped = { ...settings, sealedApiKeys: [{ ...settings.sealedApiKeys[0]!, sealed: other.sealedApiKeys[0]!.sealed }] };
  assert.deepEqual(usableApiKeys(swapped, cipher), { keys: [], unreadable: 1 });
});

test("revoking removes exactly that key, plain or sealed; an unknown id is an error", () => {
  const cipher = testCipher(7);
  let settings = parseSettings({ apiKeys: [{ key: "0123456789abcdef0123456789abcdef" }] });
  const first = addNewApiKey(settings, {}, cipher);
  const second = addNewApiKey(first.settings, {}, cipher);
  settings = second.settings;
  assert.equal(listApiKeys(settings, cipher).length, 3);
  settings = removeApiKey(settings, first.created.id);
  assert.deepEqual(
    listApiKeys(settings, cipher).map((view) => view.id),
    [apiKeyIdOf("0123456789abcdef0123456789abcdef"), second.created.id],
  );
  settings = removeApiKey(settings, apiKeyIdOf("0123456789abcdef0123456789abcdef"));
  assert.deepEqual(settings.apiKeys, []);
  assert.throws(() => removeApiKey(settings, first.created.id), ApiKeyNotFoundError);
  assert.throws(() => revealApiKey(settings, first.created.id, cipher), ApiKeyNotFoundError);
});

test("each new key is different", () => {
  const keys = new Set(Array.from({ length: 50 }, () => addNewApiKey(parseSettings({}), {}, plaintextCipher).created.key));
  assert.equal(keys.size, 50);
});
