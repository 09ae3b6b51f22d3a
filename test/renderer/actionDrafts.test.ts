import assert from "node:assert/strict";
import { test } from "node:test";
import { checkActionDraft, checkCurrency, draftOfAction, EMPTY_ACTION_DRAFT } from "../../renderer/src/settings/actionDrafts.ts";

test("an action draft becomes the action to store, gas and size read with separators", () => {
  assert.deepEqual(checkActionDraft({ id: "bridge", name: " Bridge out ", gas: "250,000", txBytes: "600" }, []), {
    ok: true,
    action: { id: "bridge", name: "Bridge out", gas: 250_000, txBytes: 600 },
  });
  const action = { id: "mint", name: "Mint", gas: 120_000, txBytes: 200 };
  assert.deepEqual(checkActionDraft(draftOfAction(action), []), { ok: true, action });
  // A default's id is allowed: the user's action replaces that default.
  assert.equal(checkActionDraft({ id: "swap", name: "My swap", gas: "150000", txBytes: "700" }, []).ok, true);
});

test("each field's problem, in the settings schema's words, beside its field", () => {
  const empty = checkActionDraft(EMPTY_ACTION_DRAFT, []);
  assert.equal(empty.ok, false);
  if (empty.ok) return;
  assert.match(empty.problems.id!, /lower-case letters/);
  assert.equal(empty.problems.name, "an action needs a name");
  assert.match(empty.problems.gas!, /whole number of gas/);
  assert.match(empty.problems.txBytes!, /whole number of bytes/);

  const small = checkActionDraft({ id: "Bad Id", name: "x", gas: "100", txBytes: "10" }, []);
  assert.equal(small.ok, false);
  if (small.ok) return;
  assert.match(small.problems.id!, /lower-case letters/);
  assert.equal(small.problems.gas, "an action uses at least 21,000 gas (a plain transfer)");
  assert.equal(small.problems.txBytes, "a signed transaction is at least 85 bytes");
  assert.equal(small.problems.name, undefined);

  const taken = checkActionDraft({ id: "mint", name: "Mint", gas: "1.5", txBytes: "200" }, ["mint"]);
  assert.equal(taken.ok, false);
  if (taken.ok) return;
  assert.match(taken.problems.id!, /another of your actions/);
  assert.match(taken.problems.gas!, /whole number/);
});

test("the currency: three letters, upper-cased as typed", () => {
  assert.deepEqual(checkCurrency(" eur "), { ok: true, currency: "EUR" });
  assert.deepEqual(checkCurrency("euro"), { ok: false, problem: 'a currency is three capital letters, like "USD" or "EUR"' });
  assert.equal(checkCurrency("").ok, false);
});
