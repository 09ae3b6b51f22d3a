import assert from "node:assert/strict";
import { test } from "node:test";
import { fiatOfWei, moneyText, readDecimal } from "./money.ts";

test("fiatOfWei: the contract's example, a 21,000-gas transfer at 15.1 Gwei and $3,120.45", () => {
  const wei = 21_000n * 15_100_000_000n; // 317,100,000,000,000 wei
  assert.equal(wei, 317100000000000n);
  // 0.0003171 ETH x 3120.45 = 0.989494695 -> $0.99
  assert.equal(fiatOfWei(wei, "3120.45"), "0.99");
  // A rollup transfer: 21,000 gas at 0.005 Gwei = 1.05e-13 ETH... x 3120.45 = 0.000327647... -> two digits
  assert.equal(fiatOfWei(21_000n * 5_000_000n, "3120.45"), "0.00033");
  assert.equal(fiatOfWei(10n ** 18n, "3120.45"), "3120.45");
  assert.equal(fiatOfWei(0n, "3120.45"), "0.00");
  // Below a cent, two significant digits: 1 gwei of ETH at $3,120.45 is $0.0000031.
  assert.equal(fiatOfWei(10n ** 9n, "3120.45"), "0.0000031");
  assert.throws(() => fiatOfWei(1n, "-3"), RangeError);
  assert.throws(() => fiatOfWei(1n, "1e3"), RangeError);
});

test("readDecimal reads decimal strings exactly and refuses anything else", () => {
  assert.deepEqual(readDecimal("3120.45"), { units: 312045n, scale: 2 });
  assert.deepEqual(readDecimal("7"), { units: 7n, scale: 0 });
  for (const bad of ["", "-1", "1e3", " 1", "1.", ".5", "NaN"]) assert.equal(readDecimal(bad), undefined, bad);
});

test("moneyText: the API's digits, grouped, with the currency's sign where en-US puts it", () => {
  assert.equal(moneyText("1234.50", "USD"), "$1,234.50");
  assert.equal(moneyText("0.0042", "USD"), "$0.0042");
  // A feed's price as the API writes it exactly ("1878.5"): a lone tenth is shown to the cent, as money is.
  assert.equal(moneyText("1878.5", "USD"), "$1,878.50");
  assert.equal(moneyText("0.99", "EUR"), "€0.99");
  assert.equal(moneyText("1234567.00", "USD"), "$1,234,567.00");
  assert.equal(moneyText("2.00", "CHF"), "CHF\u00a02.00"); // a no-break space, as Intl writes it
  assert.equal(moneyText("2.00", "zz"), "2.00 zz");
  assert.equal(moneyText("garbage", "USD"), "garbage USD");
});
