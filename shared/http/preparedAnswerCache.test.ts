import assert from "node:assert/strict";
import { test } from "node:test";
import { type ScriptedService, scriptedService } from "../../test/support/scriptedFeed.ts";
import type { PublicationWithData } from "./chainOfPath.ts";
import { PreparedAnswerCache } from "./preparedAnswerCache.ts";

const withData = (scripted: ScriptedService) => scripted.service.get(1) as PublicationWithData;

test("a publication's answers are made once: every request of a block reads the same bodies", () => {
  const scripted = scriptedService([{ chainId: 1 }]);
  scripted.write(1, 100n, [1n, 2n, 3n], { newDataAt: Date.UTC(2026, 0, 1) });
  const cache = new PreparedAnswerCache();
  const first = cache.of(withData(scripted));
  assert.equal(cache.of(withData(scripted)), first);
  assert.equal(first.answers.blockNumber, "102");
  assert.deepEqual(first.freshHeaders, ["X-Block-Number", "102", "Last-Modified", "Thu, 01 Jan 2026 00:00:00 GMT"]);
  assert.deepEqual(first.windowHeaders, [...first.freshHeaders, ...first.answers.statsHeaders]);
  assert.deepEqual(
    first.answers.statsHeaders.filter((_, index) => index % 2 === 0),
    ["X-Stats-Blocks", "X-Stats-From-Block", "X-Stats-To-Block"],
  );
});

test("a publication whose snapshot did not change reuses its snapshot's bodies, with its own Last-Modified", () => {
  const scripted = scriptedService([{ chainId: 1 }]);
  scripted.write(1, 100n, [1n, 2n, 3n], { newDataAt: Date.UTC(2026, 0, 1) });
  const cache = new PreparedAnswerCache();
  const before = cache.of(withData(scripted));
  // New data that left the snapshot as it was (tips, the next fee): only the time of the newest new data moves.
  scripted.setPhase(1, "ok", { newDataAt: Date.UTC(2026, 0, 1, 0, 0, 12) });
  const after = cache.of(withData(scripted));
  assert.equal(after.answers, before.answers, "not serialised again");
  assert.deepEqual(after.freshHeaders, ["X-Block-Number", "102", "Last-Modified", "Thu, 01 Jan 2026 00:00:12 GMT"]);
  scripted.write(1, 103n, [4n], { newDataAt: Date.UTC(2026, 0, 1, 0, 0, 24) });
  assert.notEqual(cache.of(withData(scripted)).answers, before.answers, "a new block is a new snapshot: its bodies are made anew");
});
