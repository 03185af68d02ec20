import { z } from "zod";
import { openApiFor } from "../../registry/openapi/document";
import { defineOperation } from "../../registry/types";

/** GET /openapi.json: the OpenAPI 3.1 description, built from the registry (also served at the host root). */
export const getOpenApi = defineOperation({
  id: "getOpenApi",
  method: "GET",
  path: "/openapi.json",
  summary: "OpenAPI 3.1 description of the agent API",
  description:
    "Generated from the operation registry: every operation with its schemas, security, x-rate-class, x-required-scopes, x-permission, x-mcp-tool, deprecation fields and error codes. Also served at /openapi.json on the host root.",
  category: "meta",
  permission: "none",
  tier: "read-only",
  scopes: [],
  rateClass: "read",
  charged: true,
  idempotency: "exempt",
  request: {},
  response: z.looseObject({
    openapi: z.string(),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    paths: z.record(z.string(), z.unknown()),
    components: z.record(z.string(), z.unknown()),
  }),
  mcpTool: null,
  async handler(_ctx, _input, call) {
    return openApiFor(call.registry, call.origin);
  },
});
