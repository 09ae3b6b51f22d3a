import assert from "node:assert/strict";
import { test } from "node:test";
import { createHostCheck } from "./hostCheck.ts";
import { ifNoneMatchMatches } from "./ifNoneMatch.ts";

test("loopback names with our port pass, case-insensitively", () => {
  const allowed = createHostCheck([]);
  for (const host of ["127.0.0.1:8950", "localhost:8950", "LocalHost:8950", "[::1]:8950"]) assert.equal(allowed(host, 8950), true, host);
});

test("other names, other ports and odd forms are refused", () => {
  const allowed = createHostCheck([]);
  const refused = [
    undefined,
    "",
    "evil.example:8950",
    "localhost:8951",
    "localhost",
    "127.0.0.1",
    "localhost.:8950",
    "127.0.0.2:8950",
    "[::2]:8950",
    "localhost:8950:1",
    "user@localhost:8950",
    "localhost:8950/x",
    "::1:8950",
  ];
  for (const host of refused) assert.equal(allowed(host, 8950), false, String(host));
  assert.equal(allowed("localhost", 80), true);
});

test("allowedHosts: a name alone allows any port, a name with a port only that port", () => {
  const allowed = createHostCheck(["Gasfees.Lan", "box.local:9000"]);
  assert.equal(allowed("gasfees.lan", 8950), true);
  assert.equal(allowed("GASFEES.LAN:1234", 8950), true);
  assert.equal(allowed("box.local:9000", 8950), true);
  assert.equal(allowed("box.local:9001", 8950), false);
  assert.equal(allowed("box.local", 8950), false);
  assert.equal(allowed("evil.gasfees.lan", 8950), false);
});

test("If-None-Match: the tag, a list holding it, a weak form of it, or *", () => {
  const etag = '"abc"';
  assert.equal(ifNoneMatchMatches('"abc"', etag), true);
  assert.equal(ifNoneMatchMatches('"x", "abc"', etag), true);
  assert.equal(ifNoneMatchMatches('W/"abc"', etag), true);
  assert.equal(ifNoneMatchMatches(" * ", etag), true);
  assert.equal(ifNoneMatchMatches(undefined, etag), false);
  assert.equal(ifNoneMatchMatches("abc", etag), false);
  assert.equal(ifNoneMatchMatches('"abcd", "ab"', etag), false);
});

test("the answer kept for the last Host is that Host's and port's only", () => {
  const allowed = createHostCheck([]);
  const asked: [string | undefined, number, boolean][] = [
    ["localhost:8950", 8950, true],
    ["localhost:8950", 8950, true],
    ["localhost:8950", 8951, false],
    ["evil.example:8950", 8950, false],
    [undefined, 8950, false],
    ["localhost:8950", 8950, true],
    ["LOCALHOST:8950", 8950, true],
    ["localhost:8951", 8950, false],
  ];
  for (const [host, port, expected] of asked) assert.equal(allowed(host, port), expected, `${host} on ${port}`);
});
