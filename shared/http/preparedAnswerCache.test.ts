import assert from "node:assert/strict";
import { test } from "node:test";
import { TestFeeSource } from "../service/testFeeSource.ts";
import type { PublicationWithData } from "./chainOfPath.ts";
import { PreparedAnswerCache } from "./preparedAnswerCache.ts";

const withData = (source: TestFeeSource) => source.get(1) as PublicationWithData;

test("a publication's answers are made once: every request of a block reads the same bodies", () => {
  const source = new TestFeeSource([{ chainId: 1 }]);
  source.write(1, 100n, [1n, 2n, 3n], Date.UTC(2026, 0, 1));
  const cache = new PreparedAnswerCache();
  const first = cache.of(withData(source));
  assert.equal(cache.of(withData(source)), first);
  assert.equal(first.answers.blockNumber, "102");
  assert.equal(first.lastModified, "Thu, 01 Jan 2026 00:00:00 GMT");
});

test("a publication that only confirms the data again reuses its snapshot's bodies, with its own Last-Modified", () => {
  const source = new TestFeeSource([{ chainId: 1 }]);
  source.write(1, 100n, [1n, 2n, 3n], Date.UTC(2026, 0, 1));
  const cache = new PreparedAnswerCache();
  const before = cache.of(withData(source));
  source.setPhase(1, "ok", Date.UTC(2026, 0, 1, 0, 0, 12));
  const after = cache.of(withData(source));
  assert.equal(after.answers, before.answers, "not serialised again");
  assert.equal(after.lastModified, "Thu, 01 Jan 2026 00:00:12 GMT");
  source.write(1, 103n, [4n], Date.UTC(2026, 0, 1, 0, 0, 24));
  assert.notEqual(cache.of(withData(source)).answers, before.answers, "a new block is a new snapshot: its bodies are made anew");
});
