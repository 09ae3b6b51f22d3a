import assert from "node:assert/strict";
import { test } from "node:test";
import { pricePlanOf } from "./priceFeeds.ts";

const DEFAULTS = [1, 8453, 42161, 10, 137, 59144, 11155111];

test("ETH-gas chains read Ethereum's ETH / USD when Ethereum is followed, else their own chain's", () => {
  const base = pricePlanOf(8453, "Base", undefined, DEFAULTS, "USD");
  assert.equal(base.kind === "feed" && `${base.feed.feedChainId} ${base.feed.address}`, "1 0x5f4eC3Df9cbd43714FE2740f5E3616155c5b8419");
  const alone = pricePlanOf(8453, "Base", undefined, [8453], "USD");
  assert.equal(
    alone.kind === "feed" && `${alone.feed.feedChainId} ${alone.feed.address} ${alone.feed.heartbeatS}`,
    "8453 0x71041dddad3595F9CEd3DcCFBe3D1F4b0a16Bb70 1200",
  );
  const polygon = pricePlanOf(137, "Polygon", undefined, DEFAULTS, "USD");
  assert.equal(polygon.kind === "feed" && `${polygon.feed.feedChainId} ${polygon.feed.token}`, "137 POL");
});

test("testnets, other currencies without a feed, unknown chains and feeds on unfollowed chains have no price, saying why", () => {
  const problem = (plan: ReturnType<typeof pricePlanOf>) => (plan.kind === "none" ? plan.problem : "a feed");
  assert.match(problem(pricePlanOf(11155111, "Sepolia", undefined, DEFAULTS, "USD")), /testnet/);
  assert.match(problem(pricePlanOf(1, "Ethereum", undefined, DEFAULTS, "EUR")), /in EUR/);
  assert.match(problem(pricePlanOf(6001, "Chain 6001", undefined, [6001], "USD")), /no default price feed/);
  assert.match(problem(pricePlanOf(6001, "Chain 6001", { address: `0x${"1".repeat(40)}`, chainId: 1 }, [6001], "USD")), /not followed/);
  assert.match(problem(pricePlanOf(1, "Ethereum", false, DEFAULTS, "USD")), /turned off/);
});

test("a chain's priceFeed setting replaces the default", () => {
  const plan = pricePlanOf(1, "Ethereum", { address: `0x${"2".repeat(40)}`, token: "ETH", heartbeatSeconds: 600 }, DEFAULTS, "EUR");
  assert.deepEqual(plan.kind === "feed" && [plan.feed.address, plan.feed.feedChainId, plan.feed.currency, plan.feed.heartbeatS], [
    `0x${"2".repeat(40)}`,
    1,
    "EUR",
    600,
  ]);
});
