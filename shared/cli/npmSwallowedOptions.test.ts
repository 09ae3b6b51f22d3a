import assert from "node:assert/strict";
import { test } from "node:test";
import { npmSwallowedOptions } from "./npmSwallowedOptions.ts";

// What npm 10 and 11 hand the script, measured: `npm run serve --demo` sets npm_config_demo=true and passes nothing;
// `npm run serve --port 0` sets npm_config_port=true and passes "0"; `npm run serve --port=0` sets npm_config_port=0.

test("npm run serve --demo: the demo was kept by npm; serve gets it back, and the command to type next time", () => {
  assert.deepEqual(npmSwallowedOptions({ npm_config_demo: "true" }, []), { options: ["--demo"], command: "npm run serve -- --demo", args: ["--demo"] });
});

test("npm run serve --port 0: npm kept --port and passed its value alone, which goes back beside it", () => {
  const port = { options: ["--port"], command: "npm run serve -- --port 0", args: ["--port", "0"] };
  assert.deepEqual(npmSwallowedOptions({ npm_config_port: "true" }, ["0"]), port);
  assert.deepEqual(npmSwallowedOptions({ npm_config_port: "0" }, []), port);
});

test("options npm kept come first, then what serve did get after --", () => {
  assert.deepEqual(npmSwallowedOptions({ npm_config_demo: "true" }, ["--port", "0"]), {
    options: ["--demo"],
    command: "npm run serve -- --demo --port 0",
    args: ["--demo", "--port", "0"],
  });
  assert.deepEqual(npmSwallowedOptions({ npm_config_api_key: "0123456789abcdef0123456789abcdef" }, []), {
    options: ["--api-key"],
    command: "npm run serve -- --api-key 0123456789abcdef0123456789abcdef",
    args: ["--api-key", "0123456789abcdef0123456789abcdef"],
  });
});

test("values that cannot be told apart are left for the user to fill in, and serve gets no arguments made up", () => {
  const swallowed = npmSwallowedOptions({ npm_config_port: "true", npm_config_host: "true" }, ["0", "127.0.0.1"]);
  assert.deepEqual(swallowed?.options, ["--port", "--host"]);
  assert.equal(swallowed?.command, "npm run serve -- --port <value> --host <value>");
  assert.equal(swallowed?.args, undefined);
});

test("nothing of serve's in npm's settings: nothing to say (npm's own settings, and --no-demo, are not serve's)", () => {
  assert.equal(npmSwallowedOptions({}, ["--demo"]), undefined);
  assert.equal(npmSwallowedOptions({ npm_config_cache: "/root/.npm", npm_config_yes: "", npm_config_demo: "false" }, []), undefined);
});
