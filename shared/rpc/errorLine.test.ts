import assert from "node:assert/strict";
import { test } from "node:test";
import { BaseError } from "viem";
import { errorLine } from "./errorLine.ts";

test("an error's first line, viem's short message rather than its details, bounded", () => {
  assert.equal(errorLine(new Error("connect ECONNREFUSED\n    at somewhere")), "connect ECONNREFUSED");
  assert.equal(errorLine(new BaseError("An unknown RPC error occurred.", { details: "more" })), "An unknown RPC error occurred.");
  assert.equal(errorLine("plain text"), "plain text");
  assert.equal(errorLine(new Error("x".repeat(500))).length, 200);
  assert.equal(errorLine(new Error("y".repeat(500)), 120).length, 120);
});
