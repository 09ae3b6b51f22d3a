import assert from "node:assert/strict";
import { test } from "node:test";
import { jsonInComment, parseCurl, readDocExamples } from "./docExamples.ts";

const page = [
  "```sh",
  'curl -u "$KEY:" $BASE/networks/31337/busyThreshold       # {"busyThreshold":"1.5"} right after the start',
  "curl $BASE/healthz                                       # liveness, no key",
  "```",
  "",
  '`curl -u "$KEY:" $BASE/alerts` lists every rule; `curl -u KEY:` and `curl … $BASE…` are not requests.',
  "",
  '<!-- example: answer to curl -u "$KEY:" $BASE/networks -->',
  "```json",
  "[]",
  "```",
  "",
  "<!-- example: not-run because the demo follows chain 31337 only -->",
  "```sh",
  'curl -u "$KEY:" $BASE/networks/1/busyThreshold',
  "```",
  "",
  "```json",
  '{ "a": 1 }',
  "```",
  "<!-- example: answer to curl $BASE/healthz -->",
  "Some prose instead of a block.",
  "<!-- example: maybe -->",
].join("\n");

test("a page's requests, answers and skipped examples are read from the Markdown, with the lines they are on", () => {
  const examples = readDocExamples("page.md", page);
  assert.deepEqual(examples.requests, [
    { place: { file: "page.md", line: 2 }, command: 'curl -u "$KEY:" $BASE/networks/31337/busyThreshold', inlineAnswer: '{"busyThreshold":"1.5"}' },
    { place: { file: "page.md", line: 3 }, command: "curl $BASE/healthz" },
    { place: { file: "page.md", line: 6 }, command: 'curl -u "$KEY:" $BASE/alerts' },
  ]);
  assert.deepEqual(examples.answers, [{ place: { file: "page.md", line: 9 }, command: 'curl -u "$KEY:" $BASE/networks', lang: "json", text: "[]" }]);
  assert.deepEqual(examples.skipped, [{ place: { file: "page.md", line: 14 }, reason: "the demo follows chain 31337 only", what: "1 request(s)" }]);
  assert.deepEqual(examples.problems, [
    'page.md:18: a json block without an example marker ("answer to curl …" or "not-run because …")',
    "page.md:21: the example marker is not followed by a fenced block",
    'page.md:23: unknown example marker "maybe" (use "answer to curl …" or "not-run because …")',
  ]);
});

test("the JSON of a comment is its first balanced object or array, brackets in strings included", () => {
  assert.equal(jsonInComment('liveness, no key: {"status":"ok"}'), '{"status":"ok"}');
  assert.equal(jsonInComment('["1","2",...] 500 blocks'), '["1","2",...]');
  assert.equal(jsonInComment('{"m":"a } in it"}: then prose'), '{"m":"a } in it"}');
  assert.equal(jsonInComment("the median"), undefined);
});

test("a curl command: its URL and key substituted, -N and -i read, a redirect dropped, an unknown option refused", () => {
  const vars = { KEY: "k", SECRET: "s", BASE: "http://h:1" };
  assert.deepEqual(parseCurl('curl -u "$KEY:$SECRET" "$BASE/a?b=1&c=2" > out.csv', vars), {
    url: "http://h:1/a?b=1&c=2",
    user: "k:s",
    stream: false,
    withHeaders: false,
  });
  assert.deepEqual(parseCurl("curl -N $BASE/v3/$KEY/events", vars), { url: "http://h:1/v3/k/events", stream: true, withHeaders: false });
  assert.throws(() => parseCurl("curl -X POST $BASE/a", vars), /curl option -X/);
  assert.throws(() => parseCurl("curl $BASE/$TOKEN", vars), /\$TOKEN/);
});
