import assert from "node:assert/strict";
import { test } from "node:test";
import { compareCsv, compareHeaders, compareJson, comparePrometheus, parseShownJson, splitHttpAnswer } from "./answerShape.ts";

test("JSON shown: the same keys and types pass, whatever the moving values", () => {
  const shown = parseShownJson(
    '{"chainId":31337,"busyThreshold":"102.5","busy":false,"at":"2026-01-01T00:00:00.000Z","url":"ws://127.0.0.1:1","store":{"state":"off"}}',
  );
  const actual = { chainId: 31337, busyThreshold: "99.1", busy: true, at: "2026-11-28T15:00:00.000Z", url: "ws://127.0.0.1:4242", store: { state: "off" } };
  assert.deepEqual(compareJson(shown, actual), []);
});

test("JSON shown: a missing, extra or retyped key, a changed fixed string or fixed number is each reported by its path", () => {
  const shown = parseShownJson('{"name":"Demo","store":{"state":"ok"},"txBytes":110,"fee":"1","gone":null}');
  const actual = { name: "Demo (replay)", store: { state: "off" }, txBytes: 118, fee: 1, extra: true };
  assert.deepEqual(compareJson(shown, actual), [
    '$.name: shown "Demo", answered "Demo (replay)"',
    '$.store.state: shown "ok", answered "off"',
    "$.txBytes: shown 110, answered 118",
    '$.fee: shown as string "1", answered number 1',
    "$.gone: shown, not answered",
    "$.extra: answered, not shown",
  ]);
});

test("JSON shown with `...`: an object may be answered with more keys, an array with more elements, but not fewer", () => {
  const error = parseShownJson('{"statusCode":400,"code":"UNSUPPORTED_CHAIN",...}');
  assert.deepEqual(compareJson(error, { statusCode: 400, code: "UNSUPPORTED_CHAIN", message: "…" }), []);
  assert.deepEqual(compareJson(error, { statusCode: 400, code: "INVALID_CHAIN_ID", message: "…" }), [
    '$.code: shown "UNSUPPORTED_CHAIN", answered "INVALID_CHAIN_ID"',
  ]);
  const fees = parseShownJson('["1.5","2",...]');
  assert.deepEqual(compareJson(fees, ["3", "4", "5"]), []);
  assert.deepEqual(compareJson(fees, ["3"]), ["$: shown with 2 element(s), answered 1"]);
});

test("an answer shown with curl -i: its status, its fixed headers by value, the moving ones by name", () => {
  const shown = splitHttpAnswer('HTTP/1.1 200 OK\nVary: Origin\nETag: "x"\n\n{"a":"1"}');
  assert.equal(shown.status, 200);
  assert.equal(shown.body, '{"a":"1"}');
  assert.deepEqual(compareHeaders(shown.headers, new Headers({ vary: "Origin", etag: '"y"' })), []);
  assert.deepEqual(compareHeaders(shown.headers, new Headers({ vary: "Host" })), [
    'header Vary: shown "Origin", answered "Host"',
    "header ETag: shown, not answered",
  ]);
});

test("metrics shown: HELP and TYPE lines as answered, each sample by its name and labels", () => {
  const answered = '# TYPE g gauge\ng{chain="Demo (replay)"} 12\n';
  assert.deepEqual(comparePrometheus('# TYPE g gauge\ng{chain="Demo (replay)"} 10', answered), []);
  assert.deepEqual(comparePrometheus('g{chain="Demo: old"} 10', answered), ['no sample of g{chain="Demo: old"} (as shown: g{chain="Demo: old"} 10)']);
});

test("CSV shown: the header line as answered, each row's cells of the same kinds", () => {
  assert.deepEqual(compareCsv("a,b,c\n0,1.5,", "a,b,c\n0,2.25,\n1,3,"), []);
  assert.deepEqual(compareCsv("a,b,c\n0,1.5,", "a,b,c\n0,2.25,7"), ["CSV row 1: shown 0,1.5, (number,number,empty), answered 0,2.25,7 (number,number,number)"]);
  assert.deepEqual(compareCsv("a,b\n0,1", "a,b,c\n0,1,2"), ['CSV header shown "a,b", answered "a,b,c"']);
});

test("an endpoint's state moves with the run (a failover on a loaded machine), other states stay fixed", () => {
  const shown = parseShownJson('[{"endpoints":[{"state":"ok"},{"state":"unknown"}],"history":{"store":{"state":"off"}}}]');
  const failedOver = [{ endpoints: [{ state: "failing" }, { state: "ok" }], history: { store: { state: "ok" } } }];
  assert.deepEqual(compareJson(shown, failedOver), ['$[0].history.store.state: shown "off", answered "ok"']);
});

test("an endpoint's keys said where known (reportedChainId, lastError, retryAt, setAsideFor) may come and go; others may not", () => {
  const shown = parseShownJson(
    '[{"endpoints":[{"url":"ws://127.0.0.1:1","state":"ok","reportedChainId":31337},{"url":"http://127.0.0.1:1","state":"unknown"}]}]',
  );
  const checked = [
    {
      endpoints: [
        { url: "ws://127.0.0.1:2", state: "ok" },
        { url: "http://127.0.0.1:2", state: "ok", reportedChainId: 31337 },
      ],
    },
  ];
  assert.deepEqual(compareJson(shown, checked), []);
  const extra = [
    {
      endpoints: [
        { url: "ws://127.0.0.1:2", state: "ok", transport: "ws" },
        { url: "http://127.0.0.1:2", state: "ok" },
      ],
    },
  ];
  assert.deepEqual(compareJson(shown, extra), ["$[0].endpoints[0].transport: answered, not shown"]);
});
