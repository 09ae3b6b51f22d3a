// The copy of the API contract committed for checkouts without ../shared must be the contract itself.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { CONTRACT_COPY_PATH, CONTRACT_PATH } from "./support/apiContract.ts";

test("test/support/contract/CONTRACT.md is ../shared/CONTRACT.md, word for word", (t) => {
  if (!existsSync(CONTRACT_PATH)) {
    t.skip(`${CONTRACT_PATH} is not checked out beside the repository here, so the copy cannot be compared`);
    return;
  }
  assert.equal(
    readFileSync(CONTRACT_COPY_PATH, "utf8"),
    readFileSync(CONTRACT_PATH, "utf8"),
    "the contract changed: copy ../shared/CONTRACT.md to test/support/contract/CONTRACT.md",
  );
});
