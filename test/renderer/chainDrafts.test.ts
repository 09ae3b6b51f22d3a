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

test("the endpoints' labels, set in the file, outlive a save of the settings page; a label of a URL removed goes with it", () => {
  const chain = {
    chainId: 1,
    rpcUrls: ["https://a.example/k1", "https://b.example/k2"],
    rpcLabels: { "https://a.example/k1": "work", "https://b.example/k2": "home" },
  };
  assert.deepEqual(chainsOf([draftOf(chain)]), [chain]);
  const edited = { ...draftOf(chain), rpcUrls: "https://a.example/k1" };
  assert.deepEqual(chainsOf([edited]), [{ chainId: 1, rpcUrls: ["https://a.example/k1"], rpcLabels: { "https://a.example/k1": "work" } }]);
  assert.ok(chainSettingsSchema.safeParse(chainsOf([edited])[0]).success);
  // A label whose URL is not listed, written by hand, is refused with the field named.
  const refused = chainSettingsSchema.safeParse({ chainId: 1, rpcUrls: ["https://a.example/k1"], rpcLabels: { "https://c.example/": "x" } });
  assert.equal(refused.success, false);
  assert.deepEqual(
    refused.error?.issues.map((issue) => issue.path.join(".")),
    ["rpcLabels"],
  );
});

test("a chain's blobMarket, set in the file, outlives a save of the settings page; anything but true or false is refused, said plainly", () => {
  const rollup = { chainId: 7777777, rpcUrls: ["https://zora.example"], blobMarket: false };
  assert.deepEqual(chainsOf([draftOf(rollup)]), [rollup]);
  assert.ok(chainSettingsSchema.safeParse(rollup).success);
  const refused = chainSettingsSchema.safeParse({ ...rollup, blobMarket: "no" });
  assert.equal(refused.success, false);
  assert.deepEqual(
    refused.error?.issues.map((issue) => [issue.path.join("."), issue.message]),
    [["blobMarket", "must be true (the chain has blob fees of its own) or false (a rollup: no blob fees)"]],
  );
});

test("a chain's summaryHorizon and outlookBackfill, set in the file, outlive a save of the settings page", () => {
  const chain = { chainId: 1, rpcUrls: ["https://a.example"], summaryHorizon: "30w", outlookBackfill: "4w" };
  assert.deepEqual(chainsOf([draftOf(chain)]), [chain]);
  assert.ok(chainSettingsSchema.safeParse(chain).success);
});
