/**
 * The OpenAPI 3.1 description of the API, built from the operation registry and nothing else: paths, parameters,
 * bodies and responses from each operation's zod schemas; security, rate class, scopes, permission, MCP tool name and
 * deprecation as `x-` fields; a `default` RFC 9457 problem response; and the error codes each operation can answer
 * with (derived from what its middleware chain checks, plus the operation's own `errors`). Paths are relative to the
 * API base, which `servers` lists absolute and relative.
 */
import { ERROR_CODES, type ErrorCode } from "../../platform/errors/codes";
import { PROBLEM_CONTENT_TYPE } from "../../platform/errors/problem";
import { API_BASE_PATH } from "../../platform/versioning/versions";
import type { AnyOperation, ServedOperations } from "../types";
import { API_VERSIONS, CURRENT_VERSION } from "../../platform/versioning/versions";
import { objectShape, SchemaBook, type JsonSchema } from "./json-schema";

export type OpenApiDocument = Record<string, unknown> & {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, JsonSchema>>;
  components: Record<string, unknown>;
};

const KEY_SECURITY = [{ bearerAuth: [] }, { apiKeyHeader: [] }];
/** Public operations take a key when one is sent (the call is then recorded), so the empty requirement comes first. */
const OPTIONAL_KEY_SECURITY = [{}, ...KEY_SECURITY];

/** How /openapi.json names a success status besides an operation's main one. */
const SUCCESS_NAMES: Record<number, string> = { 200: "updated", 201: "created", 202: "accepted, not yet active" };

const RATE_HEADERS = {
  "RateLimit-Limit": { $ref: "#/components/headers/RateLimit-Limit" },
  "RateLimit-Remaining": { $ref: "#/components/headers/RateLimit-Remaining" },
  "RateLimit-Reset": { $ref: "#/components/headers/RateLimit-Reset" },
};

/** Error codes an operation can answer with, in code order of ERROR_CODES. */
export function errorCodesOf(op: AnyOperation): ErrorCode[] {
  const codes = new Set<ErrorCode>(["RATE_LIMITED", "INTERNAL_ERROR"]);
  const { params, query, body } = op.request;
  if (params || query || body || !op.root) codes.add("INVALID_PAYLOAD"); // Svc-Version pins are checked on every API path
  if (body) codes.add("UNSUPPORTED_MEDIA_TYPE");
  if (op.permission === "api-key-read" || op.permission === "api-key-execute") {
    codes.add("AUTH_REQUIRED");
    codes.add("FORBIDDEN");
  }
  if (op.permission === "api-key-execute") codes.add("EMAIL_NOT_VERIFIED");
  if (op.idempotency === "required" && op.method !== "GET") {
    for (const c of ["IDEMPOTENCY_KEY_REQUIRED", "IDEMPOTENCY_KEY_REUSED", "IDEMPOTENCY_REQUEST_IN_FLIGHT"] as const) codes.add(c);
  }
  if (op.walletProof) for (const c of ["WALLET_AUTH_INVALID", "WALLET_REQUIRED", "WALLET_ADDRESS_MISMATCH"] as const) codes.add(c);
  for (const c of op.errors ?? []) codes.add(c);
  return (Object.keys(ERROR_CODES) as ErrorCode[]).filter((c) => codes.has(c));
}

function capitalized(id: string): string {
  return id.charAt(0).toUpperCase() + id.slice(1);
}

function operationObject(op: AnyOperation, book: SchemaBook): JsonSchema {
  const name = capitalized(op.id);
  const parameters: JsonSchema[] = [];
  for (const [location, schema] of [
    ["path", op.request.params],
    ["query", op.request.query],
  ] as const) {
    if (!schema) continue;
    const { properties, required } = objectShape(book.inline(`${name}${location === "path" ? "Params" : "Query"}`, schema));
    for (const [pname, pschema] of Object.entries(properties)) {
      const { description, ...rest } = pschema as JsonSchema & { description?: string };
      parameters.push({
        name: pname,
        in: location,
        required: location === "path" || required.includes(pname),
        ...(description ? { description } : {}),
        schema: rest,
      });
    }
  }
  if (op.idempotency === "required" && op.method !== "GET") parameters.push({ $ref: "#/components/parameters/IdempotencyKey" });
  if (!op.root) parameters.push({ $ref: "#/components/parameters/SvcVersion" });

  const status = String(op.status ?? 200);
  const successHeaders: Record<string, unknown> = { "X-Request-Id": { $ref: "#/components/headers/X-Request-Id" } };
  if (op.charged) Object.assign(successHeaders, RATE_HEADERS);
  if (op.deprecation) {
    successHeaders.Deprecation = { $ref: "#/components/headers/Deprecation" };
    if (op.deprecation.sunset) successHeaders.Sunset = { $ref: "#/components/headers/Sunset" };
    successHeaders.Link = { $ref: "#/components/headers/Link" };
  }
  const success = {
    headers: successHeaders,
    content: { [op.responseContentType ?? "application/json"]: { schema: book.add(`${name}Response`, op.response) } },
  };
  const responses: Record<string, unknown> = { [status]: { description: op.summary, ...success } };
  for (const other of op.otherStatuses ?? []) responses[String(other)] = { description: `${op.summary} (${SUCCESS_NAMES[other] ?? "also"})`, ...success };
  const codes = errorCodesOf(op);
  const byStatus = new Map<number, ErrorCode[]>();
  for (const c of codes) byStatus.set(ERROR_CODES[c].status, [...(byStatus.get(ERROR_CODES[c].status) ?? []), c]);
  for (const [s, list] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    responses[String(s)] = {
      description: list.map((c) => `${c}: ${ERROR_CODES[c].title}`).join("; "),
      ...(s === 429 ? { headers: { ...RATE_HEADERS, "Retry-After": { $ref: "#/components/headers/Retry-After" } } } : {}),
      content: { [PROBLEM_CONTENT_TYPE]: { schema: { allOf: [{ $ref: "#/components/schemas/Problem" }, { properties: { code: { enum: list } } }] } } },
    };
  }
  responses.default = { $ref: "#/components/responses/Problem" };

  const out: JsonSchema = {
    operationId: op.id,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: [op.category],
    parameters,
    ...(op.request.body ? { requestBody: { required: true, content: { "application/json": { schema: book.add(`${name}Request`, op.request.body) } } } } : {}),
    responses,
    security: op.permission === "api-key-read" || op.permission === "api-key-execute" ? KEY_SECURITY : OPTIONAL_KEY_SECURITY,
    "x-permission": op.permission,
    "x-required-tier": op.tier,
    "x-required-scopes": [...op.scopes],
    "x-rate-class": op.rateClass,
    "x-charged": op.charged,
    "x-idempotency": op.idempotency,
    "x-mcp-tool": op.mcpTool,
    "x-error-codes": codes,
  };
  if (op.walletProof) out["x-wallet-proof"] = true;
  if (op.deprecation) {
    out.deprecated = true;
    out["x-deprecation-since"] = op.deprecation.since;
    if (op.deprecation.sunset) out["x-sunset"] = op.deprecation.sunset;
    if (op.deprecation.replacement) out["x-deprecation-replacement"] = op.deprecation.replacement;
  }
  return out;
}

function components(book: SchemaBook): JsonSchema {
  const codes = Object.keys(ERROR_CODES);
  return {
    schemas: {
      Problem: {
        type: "object",
        description: "RFC 9457 problem details; `type` is a URI ending in the code.",
        properties: {
          type: { type: "string", format: "uri" },
          title: { type: "string" },
          status: { type: "integer", minimum: 400, maximum: 599 },
          detail: { type: "string" },
          code: { type: "string", enum: codes },
          requestId: { type: "string" },
        },
        required: ["type", "title", "status", "detail", "code"],
        additionalProperties: true,
      },
      ...book.components,
    },
    responses: {
      Problem: { description: "Any error, as an RFC 9457 problem", content: { [PROBLEM_CONTENT_TYPE]: { schema: { $ref: "#/components/schemas/Problem" } } } },
    },
    parameters: {
      IdempotencyKey: {
        name: "Idempotency-Key",
        in: "header",
        required: true,
        description: "1..256 characters; replays within 24 hours return the stored response",
        schema: { type: "string", minLength: 1, maxLength: 256 },
      },
      SvcVersion: {
        name: "Svc-Version",
        in: "header",
        required: false,
        description: "Pin a date-version (YYYY-MM-DD); the newest version on or before it is served",
        schema: { type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2}$", examples: [...API_VERSIONS] },
      },
    },
    headers: {
      "X-Request-Id": { description: "Request id (echoed, or generated)", schema: { type: "string" } },
      "RateLimit-Limit": { description: "Ceiling of the charged window (60 s sliding)", schema: { type: "integer" } },
      "RateLimit-Remaining": { description: "Units left in the window", schema: { type: "integer" } },
      "RateLimit-Reset": { description: "Absolute epoch second when the oldest charged request ages out", schema: { type: "integer" } },
      "Retry-After": { description: "Seconds to wait for one unit; takes precedence", schema: { type: "integer", minimum: 1 } },
      Deprecation: { description: "RFC 9745: @epoch-seconds of the deprecation", schema: { type: "string" } },
      Sunset: { description: "RFC 8594: HTTP date of removal", schema: { type: "string" } },
      Link: { description: "Change feed (rel=deprecation) and successor (rel=successor-version)", schema: { type: "string" } },
    },
    securitySchemes: {
      bearerAuth: { type: "http", scheme: "bearer", description: "Authorization: Bearer <API_KEY> (canonical)" },
      apiKeyHeader: { type: "apiKey", in: "header", name: "X-API-Key", description: "Accepted alias of the bearer header" },
    },
  };
}

/**
 * The servers of the document (spec "Versioning": `{base_url}` ends in /api/agent/v1, and the relative form is served
 * too): the absolute base URL, then the relative one, which a client resolves against wherever it fetched the
 * document. Paths are relative to that base, as in the contract; host-root operations override the servers with
 * the origin itself.
 */
export function serversOf(origin: string): { api: JsonSchema[]; root: JsonSchema[] } {
  return {
    api: [
      { url: `${origin}${API_BASE_PATH}`, description: "The API base URL (absolute)" },
      { url: API_BASE_PATH, description: "The same base, relative to the host that served this document" },
    ],
    root: [
      { url: origin, description: "Host root (absolute)" },
      { url: "/", description: "Host root, relative to the host that served this document" },
    ],
  };
}

/** The document for clients reaching the service at `origin`. */
export function buildOpenApi(registry: ServedOperations, origin: string): OpenApiDocument {
  const book = new SchemaBook();
  const servers = serversOf(origin);
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const op of registry.operations) {
    const path = op.path; // relative to the API base, or the host-root path of a root operation
    // (A path item's `servers` is a list, not an operation; the map's type is kept for readers of operations.)
    paths[path] ??= op.root ? ({ servers: servers.root } as unknown as Record<string, JsonSchema>) : {};
    // A host-root path and an API path could share a key only by accident; the document would then be wrong.
    if ("servers" in paths[path] !== Boolean(op.root)) throw new Error(`openapi: ${path} is both a host-root and an API path`);
    paths[path][op.method.toLowerCase()] = operationObject(op, book);
  }
  const categories = [...new Set(registry.operations.map((o) => o.category))].sort();
  return {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    info: {
      title: "Agent prediction-market API",
      version: CURRENT_VERSION,
      description: `Play-money prediction markets for software agents. REST base ${API_BASE_PATH}; MCP at /mcp; errors are RFC 9457 problems. Date-versions: ${API_VERSIONS.join(", ")}.`,
    },
    servers: servers.api,
    tags: categories.map((name) => ({ name })),
    paths,
    components: components(book),
  };
}

const cache = new WeakMap<ServedOperations, Map<string, OpenApiDocument>>();
const MAX_CACHED_ORIGINS = 8;

/** Built once per registry and origin (the registry does not change while the service runs). */
export function openApiFor(registry: ServedOperations, origin: string): OpenApiDocument {
  let byOrigin = cache.get(registry);
  if (!byOrigin) cache.set(registry, (byOrigin = new Map()));
  let doc = byOrigin.get(origin);
  if (!doc) {
    // Without PUBLIC_URL the origin follows the Host header: keep a few, so odd hosts cannot grow the cache.
    if (byOrigin.size >= MAX_CACHED_ORIGINS) byOrigin.delete(byOrigin.keys().next().value as string);
    byOrigin.set(origin, (doc = buildOpenApi(registry, origin)));
  }
  return doc;
}
