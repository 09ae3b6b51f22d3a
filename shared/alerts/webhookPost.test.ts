import assert from "node:assert/strict";
import type { LookupAddress } from "node:dns";
import { test } from "node:test";
import { loopbackOnlyLookup, NotLoopbackError, type ResolveAll } from "./webhookPost.ts";

/** Runs a lookup as node:net does (with `all: true` under autoSelectFamily, or without) and returns what it answered. */
function lookUp(lookup: ReturnType<typeof loopbackOnlyLookup>, hostname: string, all: boolean) {
  return new Promise<{ error: Error | null; address: string | LookupAddress[] }>((resolve) =>
    lookup(hostname, { all }, (error, address) => resolve({ error, address })),
  );
}

/** A resolver standing for a hosts file or DNS that maps the name to these addresses (no real one does so here). */
const resolvingTo =
  (...addresses: string[]): ResolveAll =>
  (_hostname, _options, callback) =>
    callback(
      null,
      addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 })),
    );

test("localhost, resolved for real, passes the loopback-only lookup in both of node:net's forms", async () => {
  const lookup = loopbackOnlyLookup();
  const one = await lookUp(lookup, "localhost", false);
  assert.equal(one.error, null);
  assert.ok(typeof one.address === "string" && /^(127\.[0-9.]+|::1)$/.test(one.address), `localhost resolved to ${JSON.stringify(one.address)}`);
  const all = await lookUp(lookup, "localhost", true);
  assert.equal(all.error, null);
  assert.ok(Array.isArray(all.address) && all.address.length > 0);
});

test("a name resolving to any address off this computer is refused with NotLoopbackError, naming the address", async () => {
  for (const all of [false, true]) {
    const outside = await lookUp(loopbackOnlyLookup(resolvingTo("127.0.0.1", "192.0.2.7")), "localhost", all);
    assert.ok(outside.error instanceof NotLoopbackError);
    assert.equal(outside.error.message, "localhost resolves to 192.0.2.7, not to this computer: use https, or 127.0.0.1");
    const none = await lookUp(loopbackOnlyLookup(resolvingTo()), "localhost", all);
    assert.ok(none.error instanceof NotLoopbackError);
  }
  const loopback = await lookUp(loopbackOnlyLookup(resolvingTo("::1", "127.0.0.1")), "localhost", false);
  assert.deepEqual(loopback, { error: null, address: "::1" });
});
