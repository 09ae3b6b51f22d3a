import assert from "node:assert/strict";
import { test } from "node:test";
import { endpointsSummary } from "../../renderer/src/chainState.ts";
import type { EndpointStatus } from "../../shared/wire/networkStatus.ts";

const endpoint = (state: EndpointStatus["state"], active = false) => ({ url: `http://rpc/${state}`, state, active }) as EndpointStatus;

test("endpoints in a few words: a fallback not tried yet is on standby, not missing", () => {
  assert.equal(endpointsSummary([endpoint("ok", true)]), "1 of 1 endpoint answering");
  assert.equal(endpointsSummary([endpoint("ok", true), endpoint("unknown")]), "1 of 2 endpoints answering, 1 on standby");
  assert.equal(endpointsSummary([endpoint("failing"), endpoint("ok", true)]), "1 of 2 endpoints answering, 1 failing");
  assert.equal(endpointsSummary([endpoint("wrong-chain"), endpoint("failing"), endpoint("unknown")]), "0 of 3 endpoints answering, 2 failing");
  assert.equal(endpointsSummary([endpoint("unknown"), endpoint("unknown")]), "0 of 2 endpoints answering");
});
