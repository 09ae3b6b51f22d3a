import type { JsonRoute } from "../routeTypes.ts";

/** `GET /openapi.json`: the server's OpenAPI description, serialised once when the server is made. */
export const OPEN_API_ROUTE: JsonRoute = {
  kind: "json",
  name: "getOpenApi",
  summary: "This API's OpenAPI 3.1 description: every endpoint, both forms of authentication, every error.",
  path: "/openapi.json",
  auth: "none",
  reply: ({ resources }) => ({ body: resources.openApi.body, etag: resources.openApi.etag }),
  response: { schema: "OpenApiDocument" },
};
