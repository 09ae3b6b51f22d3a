import assert from "node:assert/strict";
import { test } from "node:test";
import { endpointsSummary, GLANCE_WORDS, glanceState } from "../../renderer/src/chainState.ts";
import type { EndpointStatus, NetworkStatus } from "../../shared/wire/networkStatus.ts";

const endpoint = (state: EndpointStatus["state"], active = false) => ({ url: `http://rpc/${state}`, state, active }) as EndpointStatus;

test("endpoints in a few words: a fallback not tried yet is on standby, not missing", () => {
  assert.equal(endpointsSummary([endpoint("ok", true)]), "1 of 1 endpoint answering");
  assert.equal(endpointsSummary([endpoint("ok", true), endpoint("unknown")]), "1 of 2 endpoints answering, 1 on standby");
  assert.equal(endpointsSummary([endpoint("failing"), endpoint("ok", true)]), "1 of 2 endpoints answering, 1 failing");
  assert.equal(endpointsSummary([endpoint("wrong-chain"), endpoint("failing"), endpoint("unknown")]), "0 of 3 endpoints answering, 2 failing");
  assert.equal(endpointsSummary([endpoint("unknown"), endpoint("unknown")]), "0 of 2 endpoints answering");
});

const chain = (state: NetworkStatus["state"], busy: boolean | null) => ({ state, busy }) as NetworkStatus;

test("a chain at a glance: its congestion while it follows its RPC, else what keeps it from having one", () => {
  assert.equal(glanceState(chain("ok", true), true), "busy");
  assert.equal(glanceState(chain("ok", false), true), "normal");
  assert.equal(glanceState(chain("ok", null), true), "unknown");
  // The last data of a failing RPC says nothing current about congestion.
  assert.equal(glanceState(chain("degraded", true), true), "degraded");
  assert.equal(glanceState(chain("unreachable", null), true), "unreachable");
  assert.equal(glanceState(chain("syncing", null), true), "syncing");
  assert.equal(glanceState(chain("no-base-fee", null), true), "no-base-fee");
});

test("while the service does not answer, every chain is unknown, whatever it last said", () => {
  for (const state of ["ok", "degraded", "unreachable", "syncing", "no-base-fee"] as const) {
    assert.equal(glanceState(chain(state, false), false), "unknown");
    assert.equal(glanceState(chain(state, true), false), "unknown");
  }
  assert.equal(GLANCE_WORDS.unknown, "unknown");
});
