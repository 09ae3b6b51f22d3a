import assert from "node:assert/strict";
import { test } from "node:test";
import { generateApiKey } from "./generateApiKey.ts";

test("a generated key is 32 lower-case hex characters (128 bits)", () => {
  const key = generateApiKey();
  assert.match(key, /^[0-9a-f]{32}$/);
});

test("generated keys do not repeat", () => {
  const keys = new Set(Array.from({ length: 1000 }, generateApiKey));
  assert.equal(keys.size, 1000);
});
