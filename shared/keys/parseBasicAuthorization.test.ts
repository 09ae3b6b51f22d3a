import assert from "node:assert/strict";
import { test } from "node:test";
import { parseBasicAuthorization } from "./parseBasicAuthorization.ts";

const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64");

test("key and secret are split at the first colon", () => {
  assert.deepEqual(parseBasicAuthorization(`Basic ${b64("key:se:cret")}`), { key: "key", secret: "se:cret" });
});

test("an empty secret and an absent one are told apart", () => {
  assert.deepEqual(parseBasicAuthorization(`Basic ${b64("key:")}`), { key: "key", secret: "" });
  assert.deepEqual(parseBasicAuthorization(`Basic ${b64("key")}`), { key: "key", secret: undefined });
});

test("the scheme is case-insensitive and surrounding blanks are allowed", () => {
  for (const scheme of ["basic", "BASIC", "bAsIc"]) {
    assert.deepEqual(parseBasicAuthorization(`  ${scheme}   ${b64("k:s")} `), { key: "k", secret: "s" });
  }
});

test("no header, a blank one or another scheme is missing credentials", () => {
  for (const header of [undefined, "", "   ", "Bearer abc", "Digest username=x", "abc", "Basicx YWJj"]) {
    assert.equal(parseBasicAuthorization(header), "missing", String(header));
  }
});

test("garbage after Basic is malformed, never a throw", () => {
  const garbage = [
    "Basic",
    "Basic ",
    "Basic !!!!",
    "Basic abc", // length not a multiple of 4
    "Basic a===",
    "Basic YWJj ZGVm",
    `Basic ${Buffer.from([0xff, 0xfe, 0x3a]).toString("base64")}`, // not UTF-8
    `Basic ${"A".repeat(5000)}`,
    "Basic\u0000YWJj",
  ];
  for (const header of garbage) {
    assert.equal(parseBasicAuthorization(header), "malformed", JSON.stringify(header.slice(0, 40)));
  }
  assert.equal(parseBasicAuthorization(["Basic YWJj", "Basic YWJj"]), "malformed");
});
