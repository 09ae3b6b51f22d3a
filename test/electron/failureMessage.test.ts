// How the settings page words a refused bridge call (plain Node: the function is pure).
import assert from "node:assert/strict";
import { test } from "node:test";
import { failureMessage } from "../../renderer/src/settings/failureMessage.ts";

test("a refused bridge call reads as the main process's own words, without Electron's prefix", () => {
  const refused = new Error(
    "Error invoking remote method 'gasfees:settings:update': BridgeArgumentsError: gasfees:settings:update refused: its arguments are not valid:\n✖ Invalid input",
  );
  assert.equal(failureMessage(refused), "gasfees:settings:update refused: its arguments are not valid:\n✖ Invalid input");
  assert.equal(failureMessage(new Error("Error invoking remote method 'gasfees:keys:copy': Error: no such key")), "no such key");
  assert.equal(failureMessage(new Error("port: Too big")), "port: Too big");
  assert.equal(failureMessage("plain"), "plain");
});
