import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { test } from "node:test";
import { ApiKeyring } from "../keys/apiKeyring.ts";
import { createLogger } from "../log/logger.ts";
import { blockTipsOf } from "../core/fees/recentTips.ts";
import { API_ERRORS } from "./apiErrors.ts";
import { openApiDocument, pathParameters } from "./openApi.ts";
import { ROUTES } from "./routes.ts";
import { createApiServer } from "./server.ts";
import { TestFeeSource } from "../service/testFeeSource.ts";

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
const KEY = "0123456789abcdef0123456789abcdef";

/** Resolves a local `$ref` (a JSON pointer into the document), or returns the object as it is. */
function deref(doc: Json, value: Json): Json {
  if (value === null || typeof value !== "object" || typeof value.$ref !== "string") return value;
  const ref: string = value.$ref;
  if (!ref.startsWith("#/")) return undefined;
  return ref
    .slice(2)
    .split("/")
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce((node: Json, part) => (node === undefined || node === null ? undefined : node[part]), doc);
}

/** The OpenAPI 3.1 rules that matter here; returns the problems found (none when valid). */
function openApiProblems(doc: Json): string[] {
  const problems: string[] = [];
  const problem = (text: string) => problems.push(text);
  if (typeof doc.openapi !== "string" || !/^3\.1\.\d+$/.test(doc.openapi)) problem(`openapi is ${doc.openapi}, not 3.1.x`);
  if (typeof doc.info?.title !== "string" || typeof doc.info?.version !== "string") problem("info needs a title and a version");
  // Every $ref anywhere resolves.
  const walk = (node: Json, at: string) => {
    if (node === null || typeof node !== "object") return;
    if (typeof node.$ref === "string" && deref(doc, node) === undefined) problem(`${at}: $ref ${node.$ref} does not resolve`);
    for (const [key, child] of Object.entries(node)) walk(child, `${at}/${key}`);
  };
  walk(doc, "#");
  const schemes = doc.components?.securitySchemes ?? {};
  for (const [name, scheme] of Object.entries<Json>(schemes)) {
    if (scheme.type === "http" && typeof scheme.scheme !== "string") problem(`security scheme ${name}: http needs a scheme`);
    if (scheme.type === "apiKey" && !(typeof scheme.name === "string" && ["query", "header", "cookie"].includes(scheme.in)))
      problem(`security scheme ${name}: apiKey needs a name and in query|header|cookie`);
    if (!["http", "apiKey", "oauth2", "openIdConnect", "mutualTLS"].includes(scheme.type)) problem(`security scheme ${name}: type ${scheme.type}`);
  }
  const operationIds = new Set<string>();
  for (const [path, item] of Object.entries<Json>(doc.paths ?? {})) {
    if (!path.startsWith("/")) problem(`path ${path} does not start with /`);
    const templated = new Set(pathParameters(path));
    for (const method of Object.keys(item)) {
      if (!METHODS.includes(method) && !["parameters", "summary", "description", "servers"].includes(method)) problem(`${path}: unknown field ${method}`);
    }
    for (const method of METHODS.filter((m) => item[m] !== undefined)) {
      const operation = item[method];
      const at = `${method.toUpperCase()} ${path}`;
      if (typeof operation.operationId !== "string") problem(`${at}: no operationId`);
      else if (operationIds.has(operation.operationId)) problem(`${at}: operationId ${operation.operationId} is not unique`);
      else operationIds.add(operation.operationId);
      const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map((p: Json) => deref(doc, p));
      const seen = new Set<string>();
      const declaredInPath = new Set<string>();
      for (const parameter of parameters) {
        if (parameter === undefined) continue;
        if (typeof parameter.name !== "string" || !["path", "query", "header", "cookie"].includes(parameter.in))
          problem(`${at}: a parameter needs a name and in`);
        if (seen.has(`${parameter.in}:${parameter.name}`)) problem(`${at}: parameter ${parameter.name} twice`);
        seen.add(`${parameter.in}:${parameter.name}`);
        if (parameter.schema === undefined && parameter.content === undefined) problem(`${at}: parameter ${parameter.name} has no schema`);
        if (parameter.in === "path") {
          declaredInPath.add(parameter.name);
          if (parameter.required !== true) problem(`${at}: path parameter ${parameter.name} is not required`);
          if (!templated.has(parameter.name)) problem(`${at}: path parameter ${parameter.name} is not in the path`);
        }
      }
      for (const name of templated) if (!declaredInPath.has(name)) problem(`${at}: {${name}} is not declared`);
      for (const requirement of operation.security ?? doc.security ?? []) {
        for (const name of Object.keys(requirement)) if (schemes[name] === undefined) problem(`${at}: security scheme ${name} is not defined`);
      }
      const responses = Object.entries<Json>(operation.responses ?? {});
      if (responses.length === 0) problem(`${at}: no responses`);
      for (const [status, raw] of responses) {
        const response = deref(doc, raw);
        if (!/^([1-5](\d\d|XX)|default)$/.test(status)) problem(`${at}: response key ${status}`);
        if (typeof response?.description !== "string") problem(`${at} ${status}: no description`);
        for (const [type, media] of Object.entries<Json>(response?.content ?? {})) {
          if (media.schema === undefined) problem(`${at} ${status} ${type}: no schema`);
        }
        if (/^[45]/.test(status)) {
          const schema = response?.content?.["application/json"]?.schema;
          const refs = JSON.stringify(schema ?? null);
          if (!refs.includes('"#/components/schemas/Error"')) problem(`${at} ${status}: an error without the Error schema`);
        }
      }
    }
  }
  return problems;
}

/** A small JSON Schema check (the keywords the description uses), for live answers. */
function schemaProblems(doc: Json, schema: Json, value: Json, at = "$"): string[] {
  schema = deref(doc, schema);
  if (schema === false) return [`${at}: no value allowed`];
  if (schema === true || schema === undefined) return [];
  const out: string[] = [];
  if (schema.$ref) return schemaProblems(doc, deref(doc, schema), value, at);
  if (schema.allOf) for (const part of schema.allOf) out.push(...schemaProblems(doc, part, value, at));
  if (schema.oneOf && schema.oneOf.filter((part: Json) => schemaProblems(doc, part, value, at).length === 0).length !== 1)
    out.push(`${at}: not exactly one of oneOf`);
  if ("const" in schema && value !== schema.const) out.push(`${at}: not ${JSON.stringify(schema.const)}`);
  if (schema.enum && !schema.enum.includes(value)) out.push(`${at}: ${JSON.stringify(value)} not in enum`);
  const type = value === null ? "null" : Array.isArray(value) ? "array" : Number.isInteger(value) ? "integer" : typeof value;
  if (schema.anyOf && !schema.anyOf.some((part: Json) => schemaProblems(doc, part, value, at).length === 0)) out.push(`${at}: none of anyOf`);
  const types: string[] | undefined = schema.type === undefined ? undefined : Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types && !types.some((allowed) => allowed === type || (allowed === "number" && type === "integer")))
    return [...out, `${at}: ${type}, not ${types.join(" or ")}`];
  if (typeof value === "string" && schema.pattern && !new RegExp(schema.pattern).test(value)) out.push(`${at}: ${value} does not match ${schema.pattern}`);
  if (typeof value === "number" && ((schema.minimum !== undefined && value < schema.minimum) || (schema.maximum !== undefined && value > schema.maximum)))
    out.push(`${at}: ${value} out of range`);
  if (Array.isArray(value)) {
    if ((schema.minItems !== undefined && value.length < schema.minItems) || (schema.maxItems !== undefined && value.length > schema.maxItems))
      out.push(`${at}: ${value.length} items`);
    value.forEach((item, i) => {
      const itemSchema = schema.prefixItems && i < schema.prefixItems.length ? schema.prefixItems[i] : schema.items;
      out.push(...schemaProblems(doc, itemSchema, item, `${at}[${i}]`));
    });
  }
  if (type === "object") {
    for (const name of schema.required ?? []) if (!(name in value)) out.push(`${at}: no ${name}`);
    for (const [name, child] of Object.entries(value)) {
      const property = schema.properties?.[name];
      if (property !== undefined) out.push(...schemaProblems(doc, property, child, `${at}.${name}`));
      else if (schema.additionalProperties === false) out.push(`${at}: extra field ${name}`);
    }
  }
  return out;
}

test("the OpenAPI document is valid 3.1 by the rules that matter, and the checks can fail", () => {
  const doc = openApiDocument(ROUTES);
  assert.deepEqual(openApiProblems(doc), []);
  const broken = structuredClone(doc) as Json;
  broken.openapi = "3.0.3";
  broken.paths["/healthz"].get.operationId = "getNetworks";
  broken.paths["/networks/{chainId}/busyThreshold"].get.parameters = [];
  broken.paths["/networks"].get.responses["401"].content["application/json"].schema = { type: "object" };
  broken.paths["/networks"].get.security = [{ bearer: [] }];
  broken.paths["/networks"].get.responses["200"] = { $ref: "#/components/responses/NOPE" };
  const problems = openApiProblems(broken);
  for (const expected of [
    "openapi is 3.0.3, not 3.1.x",
    "$ref #/components/responses/NOPE does not resolve",
    "GET /networks: security scheme bearer is not defined",
    "GET /networks 401: an error without the Error schema",
    "operationId getNetworks is not unique",
    "GET /networks/{chainId}/busyThreshold: {chainId} is not declared",
    "GET /networks 200: no description",
  ]) {
    assert.ok(
      problems.some((p) => p.includes(expected)),
      `${expected} in ${JSON.stringify(problems)}`,
    );
  }
});

test("the document describes every route of ROUTES and nothing else, with its auth form and errors", () => {
  const doc = openApiDocument(ROUTES) as Json;
  assert.deepEqual(Object.keys(doc.paths).sort(), ROUTES.map((route) => route.path).sort());
  for (const route of ROUTES) {
    const operation = doc.paths[route.path].get;
    assert.equal(operation.operationId, route.name);
    assert.deepEqual(Object.keys(doc.paths[route.path]), ["get"]);
    const inPath = route.path.includes("{apiKey}");
    assert.deepEqual(operation.security, route.auth === "key" && !inPath ? [{ basicAuth: [] }] : [], route.path);
    const statuses = Object.keys(operation.responses);
    if (route.auth === "key") assert.ok(statuses.includes("401") && statuses.includes("429"), route.path);
    else assert.ok(!statuses.includes("401"), route.path);
    if (route.path.includes("{chainId}"))
      assert.ok(
        ["400", "422", "503"].every((s) => statuses.includes(s)),
        route.path,
      );
  }
  assert.deepEqual(doc.components.securitySchemes, {
    basicAuth: { type: "http", scheme: "basic", description: doc.components.securitySchemes.basicAuth.description },
  });
  // Every row of the error table, with its message as the server writes it.
  assert.deepEqual(Object.keys(doc.components.responses).sort(), Object.keys(API_ERRORS).sort());
  assert.deepEqual(doc.components.schemas.Error.properties.code.enum, Object.keys(API_ERRORS));
  const suggested = doc.paths["/v3/{apiKey}/networks/{chainId}/suggestedGasFees"].get;
  assert.deepEqual(suggested.parameters, [{ $ref: "#/components/parameters/apiKey" }, { $ref: "#/components/parameters/chainId" }]);
  assert.deepEqual(suggested.responses["400"].content["application/json"].schema.allOf[1], {
    properties: { code: { enum: ["INVALID_CHAIN_ID", "UNSUPPORTED_CHAIN"] } },
  });
  assert.deepEqual(suggested.responses["400"].content["application/json"].examples.UNSUPPORTED_CHAIN.value, {
    statusCode: 400,
    code: "UNSUPPORTED_CHAIN",
    message: "'6001' is not a supported chain id.",
  });
  assert.deepEqual(Object.keys(suggested.responses["401"].content["application/json"].examples), ["INVALID_API_KEY", "SECRET_REQUIRED"]);
  assert.deepEqual(Object.keys(doc.paths["/networks"].get.responses["401"].headers), ["WWW-Authenticate"]);
  assert.deepEqual(Object.keys(suggested.responses["503"].headers), ["Retry-After"]);
  assert.deepEqual(Object.keys(suggested.responses["200"].headers), ["ETag", "X-Block-Number", "X-Data-Age-Ms", "Last-Modified"]);
  assert.deepEqual(suggested.responses["200"].content, { "application/json": { schema: { $ref: "#/components/schemas/SuggestedGasFees" } } });
});

function get(port: number, path: string, auth?: string): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, headers: auth ? { authorization: auth } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
    });
    req.on("error", reject);
    // A stream (Server-Sent Events) never ends: its head is enough.
    req.setTimeout(2000, () => req.destroy(new Error(`${path}: no answer`)));
    req.end();
  });
}

test("the server answers /openapi.json without a key, and each operation it describes answers as described", async (t) => {
  const source = new TestFeeSource([{ chainId: 1, blockTimeMs: 12_000 }]);
  source.write(1, 100n, [7n, 8n, 9n], Date.now(), 10n, [blockTipsOf(102n, [1n, 2n, 3n])]);
  const server = createApiServer({ source, keyring: new ApiKeyring([{ key: KEY }]), logger: createLogger("error", () => {}), port: 0 });
  const { port } = await server.listen();
  t.after(() => server.close());

  const answer = await get(port, "/openapi.json");
  assert.equal(answer.status, 200);
  assert.match(String(answer.headers["etag"]), /^"[A-Za-z0-9_-]{22}"$/);
  const doc = JSON.parse(answer.body);
  assert.deepEqual(doc, JSON.parse(JSON.stringify(openApiDocument(ROUTES))));

  const basic = `Basic ${Buffer.from(`${KEY}:`).toString("base64")}`;
  for (const [path, item] of Object.entries<Json>(doc.paths)) {
    if (path.endsWith("/events")) continue; // a stream: its head is checked by the dashboard's tests
    const concrete = path.replace("{chainId}", "1").replace("{apiKey}", KEY).replace("{asset}", "missing.js");
    const reply = await get(port, concrete, path.includes("{apiKey}") ? undefined : basic);
    const described = item.get.responses[String(reply.status)];
    assert.ok(described, `${concrete} answered ${reply.status}, which is not described`);
    const schema = described.content?.["application/json"]?.schema;
    if (schema && reply.status === 200) assert.deepEqual(schemaProblems(doc, schema, JSON.parse(reply.body)), [], concrete);
    // And its errors as described: an unknown chain.
    if (path.includes("{chainId}")) {
      const unsupported = await get(port, path.replace("{chainId}", "6001").replace("{apiKey}", KEY), path.includes("{apiKey}") ? undefined : basic);
      assert.equal(unsupported.status, 400);
      assert.deepEqual(schemaProblems(doc, item.get.responses["400"].content["application/json"].schema, JSON.parse(unsupported.body)), []);
    }
  }
  // A path the document does not hold is not answered.
  assert.equal((await get(port, "/networks/1/gasPrices", basic)).status, 404);
});
