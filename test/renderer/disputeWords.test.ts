import assert from "node:assert/strict";
import { test } from "node:test";
import { disputeWords, endpointLine, setAsideWords } from "../../renderer/src/text/disputeWords.ts";
import type { EndpointStatus } from "../../shared/wire/networkStatus.ts";

test("a chain not disputed says nothing; a disputed one says what it means and how the endpoints disagree", () => {
  assert.equal(disputeWords({}), undefined);
  assert.equal(disputeWords({ disputed: false, disputes: ["block 1: base fee 1 at A, 2 at B"] }), undefined);
  const words = disputeWords({ disputed: true, disputes: ["block 4096: base fee 1.5 gwei at A, 3 gwei at B", "block 4128: hash 0xaa at A, 0xbb at B"] });
  assert.ok(words);
  assert.equal(words.label, "Disputed");
  assert.match(words.meaning, /disagree/);
  assert.match(words.meaning, /may be wrong until the endpoints agree/);
  assert.deepEqual(words.lines, ["block 4096: base fee 1.5 gwei at A, 3 gwei at B", "block 4128: hash 0xaa at A, 0xbb at B"]);
  assert.equal(words.title, `${words.meaning}\nblock 4096: base fee 1.5 gwei at A, 3 gwei at B\nblock 4128: hash 0xaa at A, 0xbb at B`);
});

test("disputed without lines still says what it means; many lines are cut to the first few and counted", () => {
  const bare = disputeWords({ disputed: true });
  assert.ok(bare);
  assert.deepEqual(bare.lines, []);
  assert.equal(bare.title, bare.meaning);
  const many = disputeWords({ disputed: true, disputes: Array.from({ length: 20 }, (_, index) => `block ${index}: differs`) });
  assert.ok(many);
  assert.equal(many.lines.length, 9);
  assert.equal(many.lines[7], "block 7: differs");
  assert.equal(many.lines[8], "and 12 more");
});

const endpoint = (fields: Partial<EndpointStatus>): EndpointStatus => ({
  url: "https://rpc.example",
  transport: "http",
  state: "suspect",
  active: false,
  ...fields,
});

test("an endpoint set aside says why in words, for every reason the service gives", () => {
  assert.equal(setAsideWords(endpoint({ state: "ok" })), undefined);
  assert.equal(
    setAsideWords(endpoint({ setAsideFor: "disagrees" })),
    "set aside: its blocks, prices or fees disagree with the other endpoints' or with the history held",
  );
  assert.equal(setAsideWords(endpoint({ setAsideFor: "ahead" })), "set aside: its newest block is further ahead than the time allows");
  assert.equal(setAsideWords(endpoint({ setAsideFor: "behind" })), "set aside: it lags far behind the chain's newest block");
  assert.equal(setAsideWords(endpoint({ setAsideFor: "rewound" })), "set aside: it rewrote blocks deeper than the chain ever reorganises");
  assert.equal(setAsideWords(endpoint({ setAsideFor: "wrong-chain" })), "set aside: it serves another chain");
  assert.equal(setAsideWords(endpoint({ setAsideFor: "wrong-chain", reportedChainId: 5 })), "set aside: it serves chain 5, not this one");
});

test("an endpoint's tooltip line: why it is set aside in place of its bare state, then how it differed", () => {
  assert.equal(endpointLine(endpoint({ state: "ok" })), "https://rpc.example: ok");
  assert.equal(endpointLine(endpoint({ state: "failing", lastError: "timed out" })), "https://rpc.example: failing (timed out)");
  assert.equal(
    endpointLine(endpoint({ setAsideFor: "disagrees", lastError: "block 4096: base fee 3 gwei, the others 1.5 gwei" })),
    "https://rpc.example: set aside: its blocks, prices or fees disagree with the other endpoints' or with the history held (block 4096: base fee 3 gwei, the others 1.5 gwei)",
  );
});
