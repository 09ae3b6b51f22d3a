import assert from "node:assert/strict";
import { test } from "node:test";
import { decimalChainIdOf } from "./decimalChainId.ts";

test("decimal chain ids from 1 to 2^53 - 1, nothing else", () => {
  for (const [text, chainId] of [
    ["1", 1],
    ["8453", 8453],
    ["11155111", 11_155_111],
    ["9007199254740991", Number.MAX_SAFE_INTEGER],
  ] as const) {
    assert.equal(decimalChainIdOf(text), chainId, text);
  }
  for (const text of [
    "",
    "0",
    "01",
    "-1",
    "+1",
    "0x1",
    "1.0",
    "1e3",
    " 1",
    "abc",
    "9007199254740992",
    "99999999999999999",
    "1 ",
    "1/",
    ":1",
    "1:",
    "\uff11",
    "\u0661",
  ]) {
    assert.equal(decimalChainIdOf(text), undefined, text);
  }
});
