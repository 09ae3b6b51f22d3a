// The OpenAPI description: valid OpenAPI 3.1 (@seriousme/openapi-schema-validator, the specification's own schemas),
// its JSON Schemas valid 2020-12 and every example matching them (ajv), complete against the contract
// (../shared/CONTRACT.md), and true of the live server: each operation it describes answers as described.
import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { test, type TestContext } from "node:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020, type ErrorObject } from "ajv/dist/2020.js";
import { PENDING_ERROR_CODES, pendingIssueOf, readApiContract } from "../../test/support/apiContract.ts";
import { scriptedService } from "../../test/support/scriptedFeed.ts";
import { blockTipsOf } from "../core/fees/recentTips.ts";
import { ApiKeyring } from "../keys/apiKeyring.ts";
import { createLogger } from "../log/logger.ts";
import { ApiError, type ApiErrorCode } from "./apiErrors.ts";
import { openApiDocument, pathParameters } from "./openApi.ts";
import { ROUTES } from "./routes.ts";
import { createApiServer } from "./server.ts";

const KEY = "0123456789abcdef0123456789abcdef";
/** The document's base URI for ajv: its `#/components/...` references resolve against it. */
const DOCUMENT_ID = "https://gasfees.invalid/openapi.json";

// --- the parts of an OpenAPI 3.1 document this test reads (after the validator has accepted its shape) ------------

interface Reference {
  readonly $ref: string;
}
interface Parameter {
  readonly name: string;
  readonly in: "path" | "query" | "header" | "cookie";
  readonly required?: boolean;
}
interface MediaType {
  readonly schema?: unknown;
  readonly examples?: Readonly<Record<string, { readonly value: unknown }>>;
}
interface Response {
  readonly description: string;
  readonly headers?: Readonly<Record<string, unknown>>;
  readonly content?: Readonly<Record<string, MediaType>>;
}
interface Operation {
  readonly operationId: string;
  readonly parameters?: readonly (Parameter | Reference)[];
  readonly security?: readonly Readonly<Record<string, readonly string[]>>[];
  readonly responses: Readonly<Record<string, Response | Reference>>;
}
interface SecurityScheme {
  readonly type: string;
  readonly scheme?: string;
  readonly description?: string;
}
interface OpenApiDocument {
  readonly openapi: string;
  readonly paths: Readonly<Record<string, Readonly<Record<string, Operation>>>>;
  readonly security?: readonly Readonly<Record<string, readonly string[]>>[];
  readonly components: {
    readonly schemas: Readonly<Record<string, unknown>>;
    readonly parameters: Readonly<Record<string, Parameter>>;
    readonly responses: Readonly<Record<string, Response>>;
    readonly securitySchemes: Readonly<Record<string, SecurityScheme>>;
  };
}

const isReference = (value: unknown): value is Reference =>
  typeof value === "object" && value !== null && typeof (value as { $ref?: unknown }).$ref === "string";

/** The JSON pointer of a path of keys (`~` and `/` escaped). */
const pointer = (keys: readonly string[]) => keys.map((key) => key.replaceAll("~", "~0").replaceAll("/", "~1")).join("/");

/** Follows a local `$ref` (`#/a/b`) through the document; anything else is returned as it is. */
function resolved<T>(doc: unknown, value: T | Reference): T | undefined {
  if (!isReference(value)) return value;
  if (!value.$ref.startsWith("#/")) return undefined;
  let node: unknown = doc;
  for (const key of value.$ref.slice(2).split("/")) {
    const name = key.replaceAll("~1", "/").replaceAll("~0", "~");
    if (typeof node !== "object" || node === null || !(name in node)) return undefined;
    node = (node as Record<string, unknown>)[name];
  }
  return node as T;
}

// --- the checks ------------------------------------------------------------------------------------------------

/**
 * What is wrong with `value` as this API's OpenAPI 3.1 document: the specification's schema (by the validator), the
 * rules that its schema cannot state (unique operationIds, path parameters declared, security schemes defined), this
 * API's own rule (every 4xx/5xx body is the Error schema), and the JSON Schemas and examples (by ajv).
 */
async function documentProblems(value: unknown): Promise<string[]> {
  // A copy: the validator resolves the document's references in place.
  const result = await new Validator().validate(structuredClone(value) as Record<string, unknown>);
  if (!result.valid) {
    const errors = Array.isArray(result.errors) ? result.errors : [{ message: String(result.errors) }];
    return errors.map((error: { instancePath?: string; message?: string }) => `OpenAPI 3.1: ${error.instancePath ?? ""} ${error.message ?? ""}`.trim());
  }
  const doc = value as OpenApiDocument;
  const problems: string[] = [];
  const operationIds = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const at = `${method.toUpperCase()} ${path}`;
      if (operationIds.has(operation.operationId)) problems.push(`${at}: operationId ${operation.operationId} is not unique`);
      operationIds.add(operation.operationId);
      const declared = (operation.parameters ?? []).map((parameter) => resolved(doc, parameter)).filter((parameter) => parameter?.in === "path");
      for (const name of pathParameters(path)) {
        if (!declared.some((parameter) => parameter?.name === name)) problems.push(`${at}: {${name}} is not declared`);
      }
      for (const parameter of declared) {
        if (parameter !== undefined && !pathParameters(path).includes(parameter.name))
          problems.push(`${at}: path parameter ${parameter.name} is not in the path`);
      }
      for (const requirement of operation.security ?? doc.security ?? []) {
        for (const name of Object.keys(requirement)) {
          if (doc.components.securitySchemes[name] === undefined) problems.push(`${at}: security scheme ${name} is not defined`);
        }
      }
      for (const [status, raw] of Object.entries(operation.responses)) {
        if (!/^[45]/.test(status)) continue;
        const schema = resolved(doc, raw)?.content?.["application/json"]?.schema;
        if (!JSON.stringify(schema ?? null).includes('"#/components/schemas/Error"')) problems.push(`${at} ${status}: an error without the Error schema`);
      }
    }
  }
  problems.push(...schemaProblems(doc));
  return problems;
}

/** ajv over the whole document, so that every `#/...` reference in it resolves; its schemas compiled on demand. */
function schemaChecker(doc: OpenApiDocument): Ajv2020 {
  // Schemas that are not valid JSON Schema, or use unknown keywords or formats, are refused (strictSchema); the style
  // rules of strict mode (a type beside each keyword, tuples closed) are not this document's business.
  const ajv = new Ajv2020({ strictSchema: true, strictNumbers: true, strictTypes: false, strictTuples: false, strictRequired: false, allErrors: true });
  // The document's own fields are not JSON Schema keywords: declared, so that strict mode accepts the document.
  ajv.addVocabulary(["openapi", "info", "servers", "paths", "components"]);
  // The one standard format the document uses (ajv knows none by itself): an RFC 3339 date-time, as toISOString writes it.
  ajv.addFormat("date-time", /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/);
  ajv.addSchema({ ...doc, $id: DOCUMENT_ID });
  return ajv;
}

/** The validator of the schema at `keys` in the document. */
function validatorAt(ajv: Ajv2020, keys: readonly string[]) {
  const validate = ajv.getSchema(`${DOCUMENT_ID}#/${keys.map((key) => encodeURIComponent(pointer([key]))).join("/")}`);
  if (validate === undefined) throw new Error(`no schema at #/${pointer(keys)}`);
  return validate;
}

const errorsText = (errors: readonly ErrorObject[] | null | undefined) => (errors ?? []).map((error) => `${error.instancePath} ${error.message ?? ""}`);

/** Every component schema compiles (valid 2020-12), and every example matches the schema beside it. */
function schemaProblems(doc: OpenApiDocument): string[] {
  const problems: string[] = [];
  let ajv: Ajv2020;
  try {
    ajv = schemaChecker(doc);
  } catch (error) {
    return [`JSON Schema: ${(error as Error).message}`];
  }
  for (const name of Object.keys(doc.components.schemas)) {
    try {
      validatorAt(ajv, ["components", "schemas", name]);
    } catch (error) {
      problems.push(`#/components/schemas/${name}: ${(error as Error).message}`);
    }
  }
  const mediaTypes: { keys: string[]; media: MediaType }[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (isReference(response)) continue;
        for (const [type, media] of Object.entries(response.content ?? {}))
          mediaTypes.push({ keys: ["paths", path, method, "responses", status, "content", type], media });
      }
    }
  }
  for (const [code, response] of Object.entries(doc.components.responses)) {
    for (const [type, media] of Object.entries(response.content ?? {})) mediaTypes.push({ keys: ["components", "responses", code, "content", type], media });
  }
  for (const { keys, media } of mediaTypes) {
    if (media.schema === undefined || media.examples === undefined) continue;
    let validate;
    try {
      validate = validatorAt(ajv, [...keys, "schema"]);
    } catch (error) {
      problems.push(`#/${pointer(keys)}: ${(error as Error).message}`);
      continue;
    }
    for (const [name, example] of Object.entries(media.examples)) {
      if (!validate(example.value)) problems.push(`#/${pointer(keys)} example ${name}: ${errorsText(validate.errors).join("; ")}`);
    }
  }
  return problems;
}

/** What is wrong with `body` as an answer described by the schema at `keys`. */
function answerProblems(ajv: Ajv2020, keys: readonly string[], body: unknown): string[] {
  const validate = validatorAt(ajv, keys);
  return validate(body) ? [] : errorsText(validate.errors);
}

const documentOf = () => openApiDocument(ROUTES) as unknown as OpenApiDocument;

test("the OpenAPI document is valid OpenAPI 3.1, its schemas valid JSON Schema 2020-12, its examples true to them", async () => {
  assert.deepEqual(await documentProblems(documentOf()), []);
});

/** The document with the value at `keys` replaced (or deleted, for undefined): a broken copy for the checks to find. */
function brokenDocument(keys: readonly string[], value: unknown): unknown {
  const doc = structuredClone(documentOf()) as unknown;
  let node = doc as Record<string, unknown>;
  for (const key of keys.slice(0, -1)) node = node[key] as Record<string, unknown>;
  const last = keys.at(-1)!;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return doc;
}

test("the document checks can fail: each kind of broken document is reported", async () => {
  const networks = ["paths", "/networks", "get"];
  const cases: [string, readonly string[], unknown, RegExp][] = [
    ["an OpenAPI 3.0 version", ["openapi"], "3.0.3", /^OpenAPI 3\.1: /],
    ["a reference that does not resolve", [...networks, "responses", "200"], { $ref: "#/components/responses/NOPE" }, /NOPE/],
    ["a response without a description", [...networks, "responses", "200", "description"], undefined, /description/],
    ["a duplicate operationId", ["paths", "/healthz", "get", "operationId"], "getNetworks", /operationId getNetworks is not unique/],
    ["a path parameter not declared", ["paths", "/networks/{chainId}/busyThreshold", "get", "parameters"], [], /\{chainId\} is not declared/],
    ["an undefined security scheme", [...networks, "security"], [{ bearer: [] }], /security scheme bearer is not defined/],
    [
      "an error body that is not the Error schema",
      [...networks, "responses", "401", "content", "application/json", "schema"],
      { type: "object" },
      /GET \/networks 401: an error without the Error schema/,
    ],
    ["a schema that is not JSON Schema", ["components", "schemas", "Health", "type"], "strin", /Health/],
    [
      "an example its schema refuses",
      ["components", "responses", "NOT_FOUND", "content", "application/json", "examples", "NOT_FOUND", "value", "statusCode"],
      "404",
      /NOT_FOUND\/content\/application~1json example NOT_FOUND: \/statusCode must be integer/,
    ],
  ];
  for (const [what, keys, value, expected] of cases) {
    const problems = await documentProblems(brokenDocument(keys, value));
    assert.ok(
      problems.some((problem) => expected.test(problem)),
      `${what}: ${expected} in ${JSON.stringify(problems)}`,
    );
  }
});

test("the document describes every endpoint and error row of the contract, with the contract's authentication", () => {
  const doc = documentOf();
  const contract = readApiContract();
  for (const route of contract.routes) {
    const operation = doc.paths[route.path]?.["get"];
    const pending = pendingIssueOf(route.path);
    if (pending !== undefined) {
      assert.equal(operation, undefined, `${route.path} is described now: remove it from PENDING_ROUTES (${pending})`);
      continue;
    }
    assert.ok(operation, `${route.path}: the contract names it, the document does not describe it`);
    const keyInPath = route.path.includes("{apiKey}");
    assert.deepEqual(operation.security, route.auth === "key" && !keyInPath ? [{ basicAuth: [] }] : [], route.path);
    const statuses = Object.keys(operation.responses);
    if (route.auth === "key") assert.ok(statuses.includes("401") && statuses.includes("429"), route.path);
    else assert.ok(!statuses.includes("401"), route.path);
  }
  for (const row of contract.errors) {
    if (PENDING_ERROR_CODES[row.code] !== undefined) {
      assert.equal(doc.components.responses[row.code], undefined, `${row.code} is described now: remove it from PENDING_ERROR_CODES`);
      continue;
    }
    const response = doc.components.responses[row.code];
    assert.ok(response, `${row.code}: a row of the contract's error table, not described`);
    const example = response.content?.["application/json"]?.examples?.[row.code]?.value as Record<string, unknown> & { message: string };
    // The three fields of every error, and the row's own (NOT_ENOUGH_HISTORY's held and needed).
    const extra = Object.keys(new ApiError(row.code as ApiErrorCode).extra);
    assert.deepEqual(Object.keys(example), ["statusCode", "code", "message", ...extra], row.code);
    assert.deepEqual({ statusCode: example["statusCode"], code: example["code"] }, { statusCode: row.statusCode, code: row.code });
    for (const header of Object.keys(row.headers)) assert.ok(response.headers?.[header], `${row.code}: the ${header} header is not described`);
  }
});

test("the document is made from the server's route list: one path per route, with its operationId, parameters and errors", () => {
  const doc = documentOf();
  assert.deepEqual(Object.keys(doc.paths).sort(), ROUTES.map((route) => route.path).sort());
  for (const route of ROUTES) {
    assert.deepEqual(Object.keys(doc.paths[route.path]!), ["get"]);
    assert.equal(doc.paths[route.path]!["get"]!.operationId, route.name);
    if (route.path.includes("{chainId}")) {
      const statuses = Object.keys(doc.paths[route.path]!["get"]!.responses);
      assert.ok(
        ["400", "422", "503"].every((status) => statuses.includes(status)),
        route.path,
      );
    }
  }
  assert.deepEqual(doc.components.securitySchemes, {
    basicAuth: { type: "http", scheme: "basic", description: doc.components.securitySchemes["basicAuth"]?.description },
  });
  const suggested = doc.paths["/v3/{apiKey}/networks/{chainId}/suggestedGasFees"]!["get"]!;
  assert.deepEqual(suggested.parameters, [{ $ref: "#/components/parameters/apiKey" }, { $ref: "#/components/parameters/chainId" }]);
  const response = (status: string) => resolved<Response>(doc, suggested.responses[status]!)!;
  assert.deepEqual((response("400").content?.["application/json"]?.schema as { allOf: unknown[] }).allOf[1], {
    properties: { code: { enum: ["INVALID_CHAIN_ID", "UNSUPPORTED_CHAIN"] } },
  });
  assert.deepEqual(response("400").content?.["application/json"]?.examples?.["UNSUPPORTED_CHAIN"]?.value, {
    statusCode: 400,
    code: "UNSUPPORTED_CHAIN",
    message: "'6001' is not a supported chain id.",
  });
  assert.deepEqual(Object.keys(response("401").content?.["application/json"]?.examples ?? {}), ["INVALID_API_KEY", "SECRET_REQUIRED"]);
  assert.deepEqual(Object.keys(resolved<Response>(doc, doc.paths["/networks"]!["get"]!.responses["401"]!)!.headers ?? {}), ["WWW-Authenticate"]);
  assert.deepEqual(Object.keys(response("503").headers ?? {}), ["Retry-After"]);
  // suggestedGasFees is computed over the statistics window, so it says which; the history is not, so it does not.
  assert.deepEqual(Object.keys(response("200").headers ?? {}), [
    "ETag",
    "X-Block-Number",
    "X-Data-Age-Ms",
    "Last-Modified",
    "X-Data-Disputed",
    "X-Stats-Blocks",
    "X-Stats-From-Block",
    "X-Stats-To-Block",
  ]);
  const history = doc.paths["/networks/{chainId}/baseFeeHistory"]!["get"]!;
  assert.deepEqual(Object.keys(resolved<Response>(doc, history.responses["200"]!)!.headers ?? {}), [
    "ETag",
    "X-Block-Number",
    "X-Data-Age-Ms",
    "Last-Modified",
    "X-Data-Disputed",
  ]);
  assert.deepEqual(response("200").content, { "application/json": { schema: { $ref: "#/components/schemas/SuggestedGasFees" } } });
});

// --- the live server -----------------------------------------------------------------------------------------------

interface Reply {
  readonly status: number;
  readonly contentType: string | undefined;
  readonly etag: string | undefined;
  readonly body: string;
}

/** A GET; an event stream's answer is its head and its first event (a stream never ends by itself). */
function get(port: number, path: string, auth?: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, headers: auth ? { authorization: auth } : {} }, (res) => {
      const contentType = res.headers["content-type"];
      const stream = contentType?.startsWith("text/event-stream") === true;
      let body = "";
      const done = () => resolve({ status: res.statusCode ?? 0, contentType, etag: res.headers["etag"], body });
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        body += chunk;
        if (stream && /\n\n(?:.*\n)*?event: network\n.*\n\n/.test(body)) {
          res.destroy();
          done();
        }
      });
      res.on("end", done);
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

/** The data of the first `event: network` of a stream's text. */
function firstNetworkEvent(text: string): unknown {
  const data = /^event: network\ndata: (.*)$/m.exec(text)?.[1];
  assert.ok(data !== undefined, `no network event in ${JSON.stringify(text)}`);
  return JSON.parse(data);
}

async function startServer(t: TestContext): Promise<number> {
  const scripted = scriptedService([{ chainId: 1, blockTimeMs: 12_000 }]);
  scripted.write(1, 100n, [7n, 8n, 9n], { nextBaseFeeWei: 10n, recentTips: [blockTipsOf(102n, [1n, 2n, 3n])] });
  const server = createApiServer({ source: scripted.service, keyring: new ApiKeyring([{ key: KEY }]), logger: createLogger("error", () => {}), port: 0 });
  const { port } = await server.listen();
  t.after(() => server.close());
  return port;
}

test("the server answers /openapi.json without a key, and each operation it describes answers as described", async (t) => {
  const port = await startServer(t);
  const answer = await get(port, "/openapi.json");
  assert.equal(answer.status, 200);
  assert.match(answer.etag ?? "", /^"[A-Za-z0-9_-]{22}"$/);
  const doc = JSON.parse(answer.body) as OpenApiDocument;
  assert.deepEqual(doc, JSON.parse(JSON.stringify(documentOf())));
  const ajv = schemaChecker(doc);

  const basic = `Basic ${Buffer.from(`${KEY}:`).toString("base64")}`;
  let streams = 0;
  for (const [path, item] of Object.entries(doc.paths)) {
    const operation = item["get"]!;
    const auth = path.includes("{apiKey}") ? undefined : basic;
    const concrete = path.replace("{chainId}", "1").replace("{apiKey}", KEY).replace("{asset}", "missing.js");
    const reply = await get(port, concrete, auth);
    const status = String(reply.status);
    const described = resolved<Response>(doc, operation.responses[status]!);
    assert.ok(described, `${concrete} answered ${reply.status}, which is not described`);
    const schemaKeys = ["paths", path, "get", "responses", status, "content", "application/json", "schema"];
    if (reply.contentType?.startsWith("text/event-stream")) {
      // An event stream: its first event carries the chain's status as GET /networks describes it.
      streams++;
      assert.equal(reply.status, 200, concrete);
      const event = firstNetworkEvent(reply.body) as { status: unknown; blocks: unknown };
      assert.deepEqual(answerProblems(ajv, ["components", "schemas", "NetworkStatus"], event.status), [], `${concrete}: the event's status`);
    } else if (described.content?.["application/json"]?.schema !== undefined) {
      assert.equal(reply.contentType, "application/json; charset=utf-8", concrete);
      assert.deepEqual(answerProblems(ajv, schemaKeys, JSON.parse(reply.body)), [], concrete);
    }
    // And its errors as described: an unknown chain.
    if (path.includes("{chainId}")) {
      const unsupported = await get(port, path.replace("{chainId}", "6001").replace("{apiKey}", KEY), auth);
      assert.equal(unsupported.status, 400, path);
      assert.deepEqual(
        answerProblems(ajv, ["paths", path, "get", "responses", "400", "content", "application/json", "schema"], JSON.parse(unsupported.body)),
        [],
        path,
      );
    }
  }
  assert.equal(streams, 4, "the event streams (one chain, every chain, both forms) were each checked");
  // A path the document does not hold is not answered.
  assert.equal((await get(port, "/networks/1/gasPrices", basic)).status, 404);
});

test("the answer checks can fail: an answer that breaks its schema is reported", async (t) => {
  const port = await startServer(t);
  const doc = JSON.parse((await get(port, "/openapi.json")).body) as OpenApiDocument;
  const ajv = schemaChecker(doc);
  const schemaOf = (path: string, status = "200") => ["paths", path, "get", "responses", status, "content", "application/json", "schema"];
  assert.deepEqual(answerProblems(ajv, schemaOf("/networks/{chainId}/busyThreshold"), { busyThreshold: "37.378956101" }), []);
  assert.notDeepEqual(answerProblems(ajv, schemaOf("/networks/{chainId}/busyThreshold"), { busyThreshold: 37.378956101 }), []);
  assert.notDeepEqual(answerProblems(ajv, schemaOf("/networks/{chainId}/busyThreshold"), { busyThreshold: "37.378956101", block: "1" }), []);
  assert.notDeepEqual(answerProblems(ajv, schemaOf("/networks/{chainId}/baseFeeHistory"), ["1", "2e9"]), []);
  const networks = JSON.parse((await get(port, "/networks", `Basic ${Buffer.from(`${KEY}:`).toString("base64")}`)).body) as Record<string, unknown>[];
  assert.deepEqual(answerProblems(ajv, schemaOf("/networks"), networks), []);
  assert.notDeepEqual(answerProblems(ajv, schemaOf("/networks"), [{ ...networks[0], state: "fine" }]), []);
  assert.notDeepEqual(answerProblems(ajv, schemaOf("/networks/{chainId}/busyThreshold", "400"), { statusCode: 400, code: "NO_SUCH_CODE", message: "x" }), []);
  assert.notDeepEqual(answerProblems(ajv, ["components", "schemas", "NetworkStatus"], { ...networks[0], extra: 1 }), []);
});
