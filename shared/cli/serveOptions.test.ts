import assert from "node:assert/strict";
import { test } from "node:test";
import { parseServeOptions, UsageError } from "./serveOptions.ts";

test("reads every option of the contract", () => {
  const options = parseServeOptions(
    [
      "--port",
      "0",
      "--host",
      "127.0.0.1",
      "--chain",
      "1=https://a.example/rpc,wss://b.example/ws",
      "--chain",
      "8453=https://base.example",
      "--api-key",
      "0123456789abcdef0123456789abcdef",
      "--api-key",
      "fedcba9876543210fedcba9876543210:s3cret:with:colons",
      "--config",
      "settings.json",
      "--demo",
    ],
    {},
  );
  assert.equal(options.port, 0);
  assert.equal(options.host, "127.0.0.1");
  assert.deepEqual(
    options.chains.map((chain) => [chain.chainId, chain.rpcUrls]),
    [
      [1, ["https://a.example/rpc", "wss://b.example/ws"]],
      [8453, ["https://base.example"]],
    ],
  );
  assert.deepEqual(options.apiKeys, [{ key: "0123456789abcdef0123456789abcdef" }, { key: "fedcba9876543210fedcba9876543210", secret: "s3cret:with:colons" }]);
  assert.equal(options.configFile, "settings.json");
  assert.equal(options.demo, true);
});

test("GASFEES_PORT sets the port unless --port is given", () => {
  assert.equal(parseServeOptions([], { GASFEES_PORT: "9001" }).port, 9001);
  assert.equal(parseServeOptions(["--port", "9002"], { GASFEES_PORT: "9001" }).port, 9002);
  assert.equal(parseServeOptions([], {}).port, undefined);
  assert.equal(parseServeOptions([], { GASFEES_PORT: "" }).port, undefined, "an empty GASFEES_PORT is an unset one");
  assert.equal(parseServeOptions(["--help"], { GASFEES_PORT: "" }).help, true);
  assert.throws(() => parseServeOptions([], { GASFEES_PORT: "http" }), /GASFEES_PORT must be a port number/);
});

test("bad command lines are usage errors that say what to type", () => {
  const cases: Array<[string[], RegExp]> = [
    [["--port", "65536"], /--port must be a port number from 0 to 65535/],
    [["--port", "-1"], /--port/],
    [["--chain", "1"], /--chain takes ID=URL/],
    [["--chain", "0x1=https://a.example"], /'0x1' is not a chain id/],
    [["--chain", "1=ftp://a.example"], /must be an http\(s\) or ws\(s\) URL/],
    [["--chain", "1="], /at least one RPC URL/],
    [["--chain", "1=https://a.example", "--chain", "1=https://b.example"], /given twice/],
    [["--api-key", "short"], /16 to 128 characters/],
    [["--api-key", "0123456789abcdef0123456789abcdef:"], /needs a secret/],
    [["--bogus"], /Unknown option/],
    [["positional"], /positional/i],
  ];
  for (const [argv, message] of cases) {
    assert.throws(
      () => parseServeOptions(argv, {}),
      (error: Error) => error instanceof UsageError && message.test(error.message),
      argv.join(" "),
    );
  }
});
