import assert from "node:assert/strict";
import { test } from "node:test";
import { fiatOfWei, moneyText, readDecimal, roundMoney } from "./money.ts";

test("roundMoney: whole cents from one cent up, rounded half up", () => {
  assert.equal(roundMoney(140n, 100n), "1.40");
  assert.equal(roundMoney(1n, 100n), "0.01");
  assert.equal(roundMoney(12345n, 1000n), "12.35"); // 12.345 -> half up
  assert.equal(roundMoney(12344n, 1000n), "12.34");
  assert.equal(roundMoney(123456789n, 1n), "123456789.00");
  assert.equal(roundMoney(99999n, 10000n), "10.00"); // 9.9999 carries into the units
});

test("roundMoney: below one cent, two significant digits", () => {
  assert.equal(roundMoney(42n, 10000n), "0.0042");
  assert.equal(roundMoney(425n, 100000n), "0.0043"); // 0.00425 half up
  assert.equal(roundMoney(71n, 100000000n), "0.00000071");
  assert.equal(roundMoney(5n, 1000n), "0.0050"); // 0.005: below a cent, its two digits kept
  assert.equal(roundMoney(99n, 10000n), "0.0099");
  assert.equal(roundMoney(9999n, 1000000n), "0.01"); // 0.009999 rounds up to exactly a cent
  assert.equal(roundMoney(999n, 1000000n), "0.0010"); // 0.000999 carries into one more digit
  assert.equal(roundMoney(0n, 1n), "0.00");
  assert.equal(roundMoney(1n, 10n ** 40n), "0.00"); // past 30 decimals: nothing worth writing
});

test("roundMoney refuses negative amounts and empty denominators", () => {
  assert.throws(() => roundMoney(-1n, 1n), RangeError);
  assert.throws(() => roundMoney(1n, 0n), RangeError);
});

test("fiatOfWei: the contract's example, a 21,000-gas transfer at 15.1 Gwei and $3,120.45", () => {
  const wei = 21_000n * 15_100_000_000n; // 317,100,000,000,000 wei
  assert.equal(wei, 317100000000000n);
  // 0.0003171 ETH x 3120.45 = 0.989494695 -> $0.99
  assert.equal(fiatOfWei(wei, "3120.45"), "0.99");
  // A rollup transfer: 21,000 gas at 0.005 Gwei = 1.05e-13 ETH... x 3120.45 = 0.000327647... -> two digits
  assert.equal(fiatOfWei(21_000n * 5_000_000n, "3120.45"), "0.00033");
  assert.equal(fiatOfWei(10n ** 18n, "3120.45"), "3120.45");
  assert.equal(fiatOfWei(0n, "3120.45"), "0.00");
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
  assert.equal(moneyText("0.99", "EUR"), "€0.99");
  assert.equal(moneyText("1234567.00", "USD"), "$1,234,567.00");
  assert.equal(moneyText("2.00", "CHF"), "CHF\u00a02.00"); // a no-break space, as Intl writes it
  assert.equal(moneyText("2.00", "zz"), "2.00 zz");
  assert.equal(moneyText("garbage", "USD"), "garbage USD");
});
