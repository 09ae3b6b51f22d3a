import assert from "node:assert/strict";
import { test } from "node:test";
import { PENDING_ERROR_CODES, readApiContract } from "../../test/support/apiContract.ts";
import { API_ERRORS, ApiError } from "./apiErrors.ts";

test("the table holds the contract's rows (../shared/CONTRACT.md) with their statuses, and the 500 of a bug", () => {
  const statuses = Object.fromEntries(Object.entries(API_ERRORS).map(([code, row]) => [code, row.statusCode]));
  const expected = Object.fromEntries(
    readApiContract()
      .errors.filter((row) => PENDING_ERROR_CODES[row.code] === undefined)
      .map((row) => [row.code, row.statusCode]),
  );
  assert.deepEqual(statuses, { ...expected, INTERNAL_ERROR: 500 });
});

test("UNSUPPORTED_CHAIN's body is the hosted service's, word for word", () => {
  assert.equal(
    JSON.stringify(new ApiError("UNSUPPORTED_CHAIN", { chainId: "6001" })),
    `{"statusCode":400,"code":"UNSUPPORTED_CHAIN","message":"'6001' is not a supported chain id."}`,
  );
});

test("rows that need headers carry them", () => {
  assert.deepEqual(new ApiError("MISSING_API_KEY").headers, { "WWW-Authenticate": 'Basic realm="gasfees"' });
  assert.deepEqual(new ApiError("METHOD_NOT_ALLOWED", { method: "POST" }).headers, { Allow: "GET, HEAD, OPTIONS" });
  assert.deepEqual(new ApiError("RATE_LIMITED", { retryAfterSeconds: 3 }).headers, { "Retry-After": "3" });
  assert.deepEqual(new ApiError("NO_DATA", { chainId: "1", retryAfterSeconds: 12 }).headers, { "Retry-After": "12" });
  assert.deepEqual(new ApiError("INVALID_API_KEY").headers, {});
});

test("every message says what to do next and echoes caller input only clipped", () => {
  for (const code of Object.keys(API_ERRORS) as (keyof typeof API_ERRORS)[]) {
    if (code === "UNSUPPORTED_CHAIN") continue;
    const error = new ApiError(code, { chainId: "x".repeat(10_000), host: "h".repeat(10_000), method: "M".repeat(10_000), retryAfterSeconds: 2 });
    assert.ok(error.message.length < 400, `${code} is ${error.message.length} characters`);
    assert.match(error.message, /: |\. /, code);
  }
  assert.match(new ApiError("RATE_LIMITED", { retryAfterSeconds: 7 }).message, /retry after 7 s/);
  assert.match(new ApiError("FORBIDDEN_HOST", {}).message, /^The Host header is missing/);
});

test("an ApiError is a named Error", () => {
  const error = new ApiError("NOT_FOUND");
  assert.ok(error instanceof Error);
  assert.equal(error.name, "ApiError");
  assert.equal(error.code, "NOT_FOUND");
  assert.equal(error.statusCode, 404);
});
