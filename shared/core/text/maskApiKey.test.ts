import assert from "node:assert/strict";
import { test } from "node:test";
import { maskApiKey } from "./maskApiKey.ts";

test("a key shows its first and last four characters only; a short one shows nothing", () => {
  assert.equal(maskApiKey("0123456789abcdef0123456789abcdef"), "0123…cdef");
  assert.equal(maskApiKey("0123456789ab"), "••••••••••••");
  assert.equal(maskApiKey(""), "");
});
