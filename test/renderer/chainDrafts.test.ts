import assert from "node:assert/strict";
import { test } from "node:test";
import { chainsOf, draftOf, EMPTY_CHAIN_DRAFT } from "../../renderer/src/settings/chainDrafts.ts";
import { chainSettingsSchema } from "../../shared/config/settings.ts";

test("a chain's window and horizon round-trip through the settings page, and an empty field leaves the default", () => {
  const chain = { chainId: 1, name: "Ethereum", rpcUrls: ["https://a.example", "wss://b.example"], statsWindow: "7d", historyHorizon: "14d" };
  assert.deepEqual(chainsOf([draftOf(chain)]), [chain]);
  const plain = chainsOf([{ ...EMPTY_CHAIN_DRAFT, chainId: " 8453 ", rpcUrls: "https://base.example\n" }]);
  assert.deepEqual(plain, [{ chainId: 8453, rpcUrls: ["https://base.example"] }]);
  // What the page saves is what the settings file accepts.
  for (const saved of [...chainsOf([draftOf(chain)]), ...plain]) assert.ok(chainSettingsSchema.safeParse(saved).success, JSON.stringify(saved));
});

test("a window stored as a count of blocks shows as one; the 500 the old default wrote shows as the new default", () => {
  assert.equal(draftOf({ chainId: 1, rpcUrls: ["https://a.example"], statsWindowBlocks: 7200 }).statsWindow, "7200 blocks");
  assert.equal(draftOf({ chainId: 1, rpcUrls: ["https://a.example"], statsWindowBlocks: 500 }).statsWindow, "");
  // Saved again, the old field is gone and the window says the same thing the new way.
  assert.deepEqual(chainsOf([draftOf({ chainId: 1, rpcUrls: ["https://a.example"], statsWindowBlocks: 7200 })]), [
    { chainId: 1, rpcUrls: ["https://a.example"], statsWindow: "7200 blocks" },
  ]);
});
