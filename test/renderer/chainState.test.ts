import assert from "node:assert/strict";
import { test } from "node:test";
import { endpointProblem, endpointsSummary, GLANCE_WORDS, glanceState, noChainAnswers } from "../../renderer/src/live/chainState.ts";
import type { EndpointStatus, NetworkStatus } from "../../shared/wire/networkStatus.ts";

const endpoint = (state: EndpointStatus["state"], active = false, transport: EndpointStatus["transport"] = "http") =>
  ({ url: `${transport}://rpc/${state}`, transport, state, active }) as EndpointStatus;

test("endpoints in a few words that say what is true: which one answers, and a fallback not needed yet is standing by, not failing", () => {
  assert.equal(endpointsSummary([endpoint("ok", true)]), "answering over http");
  assert.equal(endpointsSummary([endpoint("ok", true, "ws"), endpoint("unknown")]), "answering over ws; http standing by");
  assert.equal(endpointsSummary([endpoint("ok", true), endpoint("unknown")]), "answering over http; another http standing by");
  assert.equal(endpointsSummary([endpoint("failing"), endpoint("ok", true)]), "answering over http; another http failing");
  assert.equal(
    endpointsSummary([endpoint("ok", true, "ws"), endpoint("ok"), endpoint("unknown"), endpoint("unknown")]),
    "answering over ws; http also answering, 2 http standing by",
  );
  assert.equal(endpointsSummary([endpoint("ok", true, "ws"), endpoint("failing", false, "ws"), endpoint("failing")]), "answering over ws; ws and http failing");
  assert.equal(endpointsSummary([endpoint("wrong-chain"), endpoint("ok", true)]), "answering over http; another http on the wrong chain");
  assert.equal(endpointsSummary([endpoint("suspect"), endpoint("ok", true)]), "answering over http; another http set aside (its answers do not fit the chain)");
});

test("with no endpoint answering: what each is doing, none of it called standby", () => {
  assert.equal(endpointsSummary([endpoint("failing")]), "no endpoint answering; http failing");
  assert.equal(endpointsSummary([endpoint("failing"), endpoint("failing", false, "ws")]), "no endpoint answering; http and ws failing");
  assert.equal(
    endpointsSummary([endpoint("wrong-chain"), endpoint("failing"), endpoint("unknown")]),
    "no endpoint answering; http failing, http on the wrong chain, http not tried yet",
  );
  // Before the first answer: the first is being tried, the others wait their turn.
  assert.equal(endpointsSummary([endpoint("unknown", false, "ws"), endpoint("unknown")]), "connecting over ws; http standing by");
  assert.equal(endpointsSummary([endpoint("unknown"), endpoint("unknown"), endpoint("unknown")]), "connecting over http; 2 http standing by");
  assert.equal(endpointsSummary([]), "no endpoint");
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

test("no chain answers: every chain followed has no data and every endpoint of each fails (unreachable), as /networks says", () => {
  assert.equal(noChainAnswers([chain("unreachable", null), chain("unreachable", null)]), true);
  // One chain answering, or having data, or still trying its first endpoint: not that case.
  assert.equal(noChainAnswers([chain("unreachable", null), chain("ok", false)]), false);
  assert.equal(noChainAnswers([chain("unreachable", null), chain("degraded", false)]), false);
  assert.equal(noChainAnswers([chain("unreachable", null), chain("syncing", null)]), false);
  assert.equal(noChainAnswers([chain("no-base-fee", null)]), false);
  assert.equal(noChainAnswers([]), false, "no chain followed is another case");
});

test("an endpoint's problem in a sentence: the first of its error (what failed, where), else its state", () => {
  const failing = {
    ...endpoint("failing"),
    lastError:
      "eth_chainId at http://127.0.0.1:9 failed: connect ECONNREFUSED 127.0.0.1:9. The feed fails over to the chain's next endpoint and retries this one later; check the URL and the provider's status if it persists.",
  };
  assert.equal(endpointProblem(failing), "eth_chainId at http://127.0.0.1:9 failed: connect ECONNREFUSED 127.0.0.1:9");
  assert.equal(endpointProblem({ ...failing, lastError: "no sentence end" }), "no sentence end");
  assert.equal(endpointProblem(endpoint("unknown")), "http://rpc/unknown: not tried yet");
  assert.equal(endpointProblem(endpoint("failing")), "http://rpc/failing: failing");
});
