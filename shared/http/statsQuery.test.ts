import assert from "node:assert/strict";
import { test } from "node:test";
import { ApiError } from "./apiErrors.ts";
import { bucketLayoutOf, parseCsvQuery, parseStatsQuery } from "./statsQuery.ts";

/** The message of the INVALID_QUERY that `parse` throws. */
function refusal(parse: () => unknown): string {
  try {
    parse();
  } catch (error) {
    assert.ok(error instanceof ApiError, String(error));
    assert.equal(error.code, "INVALID_QUERY");
    assert.equal(error.statusCode, 400);
    return error.message;
  }
  assert.fail("no INVALID_QUERY was thrown");
}

test("a stats query: the statistics window and one bucket by default; a window, a range and either division as given", () => {
  assert.deepEqual(parseStatsQuery("/networks/1/baseFeeStats"), { range: { kind: "statsWindow" }, division: { kind: "count", buckets: 1 }, fee: "base" });
  assert.deepEqual(parseStatsQuery("/networks/1/baseFeeStats?"), { range: { kind: "statsWindow" }, division: { kind: "count", buckets: 1 }, fee: "base" });
  assert.deepEqual(parseStatsQuery("/x?window=7d&buckets=672"), {
    range: { kind: "window", seconds: 604_800 },
    division: { kind: "count", buckets: 672 },
    fee: "base",
  });
  assert.deepEqual(parseStatsQuery("/x?from=0&to=3600&bucket=60"), {
    range: { kind: "between", fromSeconds: 0, toSeconds: 3600 },
    division: { kind: "width", seconds: 60 },
    fee: "base",
  });
  assert.deepEqual(parseStatsQuery("/x?to=100").range, { kind: "between", fromSeconds: undefined, toSeconds: 100 });
  assert.deepEqual(parseStatsQuery("/x?from=100&to=100").range, { kind: "between", fromSeconds: 100, toSeconds: 100 });
  assert.equal(parseStatsQuery("/x?fee=blob").fee, "blob");
  assert.equal(parseStatsQuery("/x?fee=base&window=1h").fee, "base");
  assert.equal(
    refusal(() => parseStatsQuery("/x?fee=Blob")),
    "The query parameter 'fee' is 'Blob': it must be base (the base fee, the default) or blob (the blob base fee).",
  );
  // Percent-encoding is decoded, names and values alike.
  assert.deepEqual(parseStatsQuery("/x?%77indow=1%68").range, { kind: "window", seconds: 3600 });
});

test("a CSV query takes from and to only, each optional", () => {
  assert.deepEqual(parseCsvQuery("/x.csv"), { fromSeconds: undefined, toSeconds: undefined });
  assert.deepEqual(parseCsvQuery("/x.csv?from=10"), { fromSeconds: 10, toSeconds: undefined });
  assert.match(
    refusal(() => parseCsvQuery("/x.csv?window=1h")),
    /^The query parameter 'window' is not one that baseFeeHistory\.csv takes: it takes from and to\.$/,
  );
  assert.match(
    refusal(() => parseCsvQuery("/x.csv?from=2&to=1")),
    /'from' \(2\) is after to \(1\)/,
  );
});

test("each refusal names the parameter and the values it takes", () => {
  assert.equal(
    refusal(() => parseStatsQuery("/x?buckets=0")),
    "The query parameter 'buckets' is '0': it must be a whole number from 1 to 2000.",
  );
  assert.equal(
    refusal(() => parseStatsQuery("/x?window=+1h")),
    "The query parameter 'window' is ' 1h', not a duration: write a whole number and a unit (s, m, h, d or w), from 1s to 366d, such as 1h, 24h or 7d.",
  );
  assert.match(
    refusal(() => parseStatsQuery("/x?from=007")),
    /'from' is '007': it must be a whole number of unix seconds from 0 to 253402300799\./,
  );
  assert.match(
    refusal(() => parseStatsQuery("/x?to=1e3")),
    /'to' is '1e3'/,
  );
  assert.match(
    refusal(() => parseStatsQuery("/x?window")),
    /'window' is '', not a duration/,
  );
  assert.match(
    refusal(() => parseStatsQuery("/x?=5")),
    /'' is not one that baseFeeStats takes/,
  );
  assert.match(
    refusal(() => parseStatsQuery(`/x?from=${"1".repeat(200)}`)),
    /'from' is '1{32}\.\.\.'/,
  );
});

test("the layout of a range: at most 2000 buckets, each a second at least; the error names what to ask for instead", () => {
  assert.deepEqual(bucketLayoutOf(0, 3600, { kind: "count", buckets: 4 }), { startsSeconds: [0, 900, 1800, 2700], toSeconds: 3600 });
  assert.deepEqual(bucketLayoutOf(0, 3600, { kind: "width", seconds: 1000 }), { startsSeconds: [0, 1000, 2000, 3000], toSeconds: 3600 });
  assert.deepEqual(bucketLayoutOf(5, 5, { kind: "count", buckets: 1 }), { startsSeconds: [5], toSeconds: 5 });
  assert.equal(bucketLayoutOf(0, 2000, { kind: "count", buckets: 2000 }).startsSeconds.length, 2000);
  assert.equal(bucketLayoutOf(0, 2000, { kind: "width", seconds: 1 }).startsSeconds.length, 2000);
  assert.match(
    refusal(() => bucketLayoutOf(0, 2001, { kind: "width", seconds: 1 })),
    /'bucket' of 1 seconds .* into 2001 buckets, more than 2000: ask for 2 to 31622400 seconds\./,
  );
  assert.match(
    refusal(() => bucketLayoutOf(5, 5, { kind: "count", buckets: 2 })),
    /'buckets' asks for 2 buckets over the 0 seconds from 5 to 5, .*: ask for 1 to 1\./,
  );
});

test("a range too long for any bucket width: the advice stays within bucket's own range (1 to 31622400 seconds)", () => {
  const message = refusal(() => bucketLayoutOf(0, 253_402_300_799, { kind: "width", seconds: 1 }));
  for (const advised of message.matchAll(/ask for ([0-9]+)/g)) assert.ok(Number(advised[1]) <= 31_622_400, message);
  assert.match(message, /'bucket' is at most 31622400 seconds/);
  assert.match(message, /buckets=<1 to 2000>/);
  // A range a bucket width fits still gets the shortest width, and the most it may be.
  assert.match(
    refusal(() => bucketLayoutOf(0, 2001, { kind: "width", seconds: 1 })),
    /ask for 2 to 31622400 seconds\./,
  );
});
