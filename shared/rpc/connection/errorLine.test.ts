import assert from "node:assert/strict";
import { test } from "node:test";
import { BaseError } from "viem";
import { z } from "zod";
import { errorLine } from "./errorLine.ts";

test("an error's first line, viem's short message rather than its details, bounded", () => {
  assert.equal(errorLine(new Error("connect ECONNREFUSED\n    at somewhere")), "connect ECONNREFUSED");
  assert.equal(errorLine(new BaseError("An unknown RPC error occurred.", { details: "more" })), "An unknown RPC error occurred.");
  assert.equal(errorLine("plain text"), "plain text");
  assert.equal(errorLine(new Error("x".repeat(500))).length, 200);
  assert.equal(errorLine(new Error("y".repeat(500)), 120).length, 120);
});

test("a zod error is said by its issues, never cut at the JSON's opening ': ['", () => {
  const schema = z.strictObject({ decimals: z.number().max(18, "it has more decimals (over 18) than a price feed has") });
  const failed = schema.safeParse({ decimals: 36 });
  assert.equal(failed.success, false);
  const line = errorLine(failed.error);
  assert.equal(line, "decimals: it has more decimals (over 18) than a price feed has");
  assert.doesNotMatch(`the price feed could not be read: ${line}`, /: \[$/);
  assert.equal(errorLine(new Error("Invalid input: [\n  {}\n]")), "Invalid input");
});

test("a long text is cut at a word, with an ellipsis", () => {
  const line = errorLine(new Error(`the endpoint said ${"word ".repeat(80)}`), 60);
  assert.ok(line.length <= 60);
  assert.match(line, /^the endpoint said word( word)*…$/);
});
