// The settings of costs in money (currency, actions, a chain's priceFeed): defaults, and each mistake named by its path.
import assert from "node:assert/strict";
import { test } from "node:test";
import { parseSettings, SettingsError } from "./settings.ts";

const problemsOf = (input: unknown): string => {
  try {
    parseSettings(input);
  } catch (error) {
    if (error instanceof SettingsError) return error.message;
    throw error;
  }
  return "";
};

test("USD and no actions of the user's own unless the file says otherwise", () => {
  const settings = parseSettings({});
  assert.equal(settings.currency, "USD");
  assert.deepEqual(settings.actions, []);
  const own = parseSettings({
    currency: "EUR",
    actions: [{ id: "bridge", name: "Bridge deposit", gas: 120_000, txBytes: 420 }],
    chains: [
      { chainId: 1, rpcUrls: ["https://eth.example"], priceFeed: { address: `0x${"ab".repeat(20)}`, description: "ETH / EUR", heartbeatSeconds: 3600 } },
    ],
  });
  assert.equal(own.currency, "EUR");
  assert.equal(own.actions[0]!.gas, 120_000);
  assert.deepEqual(own.chains![0]!.priceFeed, { address: `0x${"ab".repeat(20)}`, description: "ETH / EUR", heartbeatSeconds: 3600 });
  assert.equal(parseSettings({ chains: [{ chainId: 11155111, rpcUrls: ["https://s.example"], priceFeed: false }] }).chains![0]!.priceFeed, false);
});

test("each mistake in actions, currency or a price feed is named by its path, with what it must be", () => {
  const message = problemsOf({
    currency: "usd",
    actions: [
      { id: "Bridge!", name: "", gas: 20_999, txBytes: 50 },
      { id: "swap2", name: "Swap", gas: 1.5, txBytes: 200_000 },
      { id: "swap2", name: "Again", gas: 100_000, txBytes: 300 },
    ],
    chains: [{ chainId: 1, rpcUrls: ["https://eth.example"], priceFeed: { address: "0x1234" } }],
  });
  for (const expected of [
    'currency: a currency is three capital letters, like "USD" or "EUR"',
    "actions.0.id: an action id is 1 to 32 lower-case letters, digits or dashes",
    "actions.0.name: an action needs a name",
    "actions.0.gas: an action uses at least 21,000 gas (a plain transfer)",
    "actions.0.txBytes: a signed transaction is at least 85 bytes",
    "actions.1.gas: gas is a whole number",
    "actions.1.txBytes: txBytes is at most 131,072 (128 KiB)",
    "chains.0.priceFeed.address: must be a contract address: 0x and 40 hex digits",
  ]) {
    assert.ok(message.includes(expected), `${expected}\nin\n${message}`);
  }
  assert.match(
    problemsOf({
      actions: [
        { id: "a", name: "A", gas: 21_000, txBytes: 100 },
        { id: "a", name: "B", gas: 21_000, txBytes: 100 },
      ],
    }),
    /actions: each action's id must be different/,
  );
});
