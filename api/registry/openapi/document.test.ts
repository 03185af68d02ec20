import { strict as assert } from "node:assert";
import { after, before, describe, it } from "node:test";
import { z } from "zod";
import type { RunningService } from "../../service";
import { startTestService, stopTestService, type TestService } from "../../../test/support/service";
import { manualClock, type Clock } from "../../../relayer/clock";
import { ERROR_CODES } from "../../platform/errors/codes";
import { fullPath, Registry } from "../registry";
import { defineOperation, type AnyOperation } from "../types";
import { OPERATIONS } from "../../operations";
import { validate, compileErrors } from "@readme/openapi-parser";
import { buildOpenApi, type OpenApiDocument } from "./document";

type Json = Record<string, unknown>;

/** Structural rules of OpenAPI 3.1 that matter to clients (no validator package is installed). */
function structuralProblems(doc: OpenApiDocument): string[] {
  const problems: string[] = [];
  if (doc.openapi !== "3.1.0") problems.push(`openapi is ${doc.openapi}`);
  const resolve = (ref: string): unknown => {
    if (!ref.startsWith("#/")) return undefined;
    let node: unknown = doc;
    for (const part of ref
      .slice(2)
      .split("/")
      .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"))) {
      if (!node || typeof node !== "object" || !(part in (node as Json))) return undefined;
      node = (node as Json)[part];
    }
    return node;
  };
  const walk = (node: unknown, where: string) => {
    if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${where}[${i}]`));
    if (!node || typeof node !== "object") return;
    for (const [k, v] of Object.entries(node)) {
      if (k === "$ref") {
        if (typeof v !== "string" || resolve(v) === undefined) problems.push(`${where}: $ref ${String(v)} does not resolve`);
      } else walk(v, `${where}/${k}`);
    }
  };
  walk(doc, "#");
  const ids = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    for (const [method, op] of Object.entries(item)) {
      if (method === "servers") continue;
      const id = op.operationId as string;
      if (!id) problems.push(`${method} ${path}: no operationId`);
      if (ids.has(id)) problems.push(`operationId ${id} is used twice`);
      ids.add(id);
      const params = ((op.parameters ?? []) as Json[]).map((p) => (p.$ref ? (resolve(p.$ref as string) as Json) : p));
      const declared = params.filter((p) => p.in === "path").map((p) => p.name as string);
      for (const name of templated) if (!declared.includes(name)) problems.push(`${id}: path parameter ${name} not declared`);
      for (const name of declared) if (!templated.includes(name)) problems.push(`${id}: path parameter ${name} not in the path`);
      for (const p of params) if (p.in === "path" && p.required !== true) problems.push(`${id}: path parameter ${String(p.name)} not required`);
      const seen = new Set(params.map((p) => `${String(p.in)}:${String(p.name)}`));
      if (seen.size !== params.length) problems.push(`${id}: duplicate parameters`);
      const responses = op.responses as Json;
      if (!responses?.default) problems.push(`${id}: no default response`);
      if (!Object.keys(responses ?? {}).some((s) => /^2\d\d$/.test(s))) problems.push(`${id}: no success response`);
      for (const [name] of Object.entries((op.security ?? []) as Json[]).flatMap(([, req]) => Object.entries(req))) {
        if (!(doc.components.securitySchemes as Json)[name]) problems.push(`${id}: security scheme ${name} undefined`);
      }
    }
  }
  return problems;
}

describe("OpenAPI document from the registry", () => {
  let svc: RunningService;
  let doc: OpenApiDocument;
  let t: TestService<Clock>;
  before(async () => {
    t = await startTestService({}, { clock: manualClock(1_800_000_000_000) });
    svc = t.svc;
    const res = await fetch(`${svc.baseUrl}/openapi.json`);
    assert.equal(res.status, 200);
    doc = (await res.json()) as OpenApiDocument;
  });
  after(async () => {
    await stopTestService(t);
  });

  it("is served at the API base and at the host root, identical", async () => {
    const root = await fetch(new URL("/openapi.json", svc.baseUrl));
    assert.equal(root.status, 200);
    assert.deepEqual(await root.json(), doc);
  });

  it("passes the structural checks: refs resolve, path params declared, operationIds unique", () => {
    assert.deepEqual(structuralProblems(doc), []);
  });

  it("a real OpenAPI validator accepts it", async () => {
    const result = await validate(structuredClone(doc) as never);
    assert.ok(result.valid, result.valid ? "" : compileErrors(result));
  });

  it("lists the API base both absolute and relative in servers; host-root operations name the origin instead", async () => {
    const origin = new URL(svc.baseUrl).origin;
    assert.deepEqual(
      (doc.servers as Json[]).map((s) => s.url),
      [`${origin}/api/agent/v1`, "/api/agent/v1"],
    );
    const nonce = doc.paths["/api/auth/nonce"] as Json;
    assert.deepEqual(
      (nonce.servers as Json[]).map((s) => s.url),
      [origin, "/"],
    );
    assert.equal((doc.paths["/time"] as Json).servers, undefined);
    // Every operation is reached at server + path, with either server (the relative one resolved against the host).
    for (const op of new Registry(OPERATIONS).operations) {
      const servers = ((doc.paths[op.path] as Json).servers ?? doc.servers) as Json[];
      for (const s of servers) {
        const url = new URL(`${String(s.url).replace(/\/$/, "")}${op.path}`, svc.baseUrl);
        assert.equal(decodeURI(url.toString()), `${origin}${fullPath(op)}`, `${op.id} via ${String(s.url)}`);
      }
    }
    for (const s of doc.servers as Json[]) {
      const res = await fetch(new URL(`${String(s.url)}/time`, svc.baseUrl));
      assert.equal(res.status, 200, `GET /time via ${String(s.url)}`);
    }
  });

  it("documents every success status: takes, research and the prompt answer 201 on create and 200 on update; register 201 and 202", () => {
    const statuses = (path: string, method = "post") =>
      Object.keys(((doc.paths[path]?.[method] as Json | undefined)?.responses as Json | undefined) ?? {}).filter((s) => s.startsWith("2"));
    for (const path of ["/agents/me/takes", "/agents/me/prompt"]) assert.deepEqual(statuses(path).sort(), ["200", "201"], path);
    const research = Object.keys(doc.paths).find((p) => /research/.test(p) && (doc.paths[p] as Json).post);
    assert.ok(research, "a research publishing path");
    assert.deepEqual(statuses(research).sort(), ["200", "201"], research);
    assert.deepEqual(statuses("/register").sort(), ["201", "202"]);
    // Every operation's handler statuses are in its document: no operation answers a 2xx the document leaves out.
    for (const op of new Registry(OPERATIONS).operations) {
      const listed = statuses(op.path, op.method.toLowerCase());
      for (const s of [op.status ?? 200, ...(op.otherStatuses ?? [])]) assert.ok(listed.includes(String(s)), `${op.id} lists ${s}`);
    }
  });

  it("follows the origin the client used when PUBLIC_URL is unset", async () => {
    const other = buildOpenApi(new Registry(OPERATIONS), "http://agents.internal.test:8443");
    assert.deepEqual(
      (other.servers as Json[]).map((s) => s.url),
      ["http://agents.internal.test:8443/api/agent/v1", "/api/agent/v1"],
    );
  });

  it("describes every registry operation with its x- fields, security and a problem default", () => {
    const served = new Registry(OPERATIONS);
    assert.ok(served.operations.length >= 5);
    for (const op of served.operations) {
      const o = doc.paths[op.path]?.[op.method.toLowerCase()] as Json | undefined;
      assert.ok(o, `${op.id} missing`);
      assert.equal(o.operationId, op.id);
      assert.equal(o["x-rate-class"], op.rateClass);
      assert.deepEqual(o["x-required-scopes"], [...op.scopes]);
      assert.equal(o["x-permission"], op.permission);
      assert.equal(o["x-mcp-tool"], op.mcpTool);
      const security = o.security as Json[];
      const keyed = op.permission === "api-key-read" || op.permission === "api-key-execute";
      assert.deepEqual(
        security.some((s) => Object.keys(s).length === 0),
        !keyed,
        `${op.id} security`,
      );
      assert.ok(security.some((s) => "bearerAuth" in s) && security.some((s) => "apiKeyHeader" in s));
      assert.deepEqual((o.responses as Json).default, { $ref: "#/components/responses/Problem" });
      const codes = o["x-error-codes"] as string[];
      assert.ok(codes.includes("RATE_LIMITED") && codes.includes("INTERNAL_ERROR"));
      if (keyed) assert.ok(codes.includes("AUTH_REQUIRED") && (o.responses as Json)["401"], `${op.id} documents 401`);
      if (op.idempotency === "required" && op.method !== "GET") {
        assert.ok(
          (o.parameters as Json[]).some((p) => p.$ref === "#/components/parameters/IdempotencyKey"),
          `${op.id} Idempotency-Key`,
        );
      }
    }
  });

  it("has an RFC 9457 Problem schema whose code enumerates every error code", () => {
    const problem = (doc.components.schemas as Json).Problem as Json;
    assert.deepEqual(problem.required, ["type", "title", "status", "detail", "code"]);
    assert.deepEqual(((problem.properties as Json).code as Json).enum, Object.keys(ERROR_CODES));
    assert.deepEqual(doc.components.securitySchemes, {
      bearerAuth: { type: "http", scheme: "bearer", description: "Authorization: Bearer <API_KEY> (canonical)" },
      apiKeyHeader: { type: "apiKey", in: "header", name: "X-API-Key", description: "Accepted alias of the bearer header" },
    });
  });

  it("describes the trade answers as discriminated unions of closed, typed objects", () => {
    const schemas = doc.components.schemas as Json;
    /** The object branches of a (nested) oneOf, each with the values of its discriminating consts. */
    const leaves = (s: Json): Json[] => (Array.isArray(s.oneOf) ? (s.oneOf as Json[]).flatMap(leaves) : [s]);
    const tag = (leaf: Json, keys: string[]) =>
      keys.map((k) => (((leaf.properties as Json)[k] as Json | undefined)?.const as string | undefined) ?? "*").join("/");
    const expected: Record<string, [string[], string[]]> = {
      QuoteTradeResponse: [
        ["lane", "pricingModel", "side"],
        ["committed/automated/buy", "committed/automated/sell", "committed/ORDERBOOK/*", "onchain/*/*"],
      ],
      PrepareTradeResponse: [
        ["lane", "pricingModel", "side"],
        ["committed/automated/buy", "committed/automated/sell", "committed/ORDERBOOK/*", "onchain/*/*"],
      ],
      GetTradeIntentResponse: [["status"], ["executed", "*"]],
    };
    for (const [name, [keys, tags]] of Object.entries(expected)) {
      const schema = schemas[name] as Json;
      assert.ok(Array.isArray(schema.oneOf), name);
      const branches = leaves(schema);
      assert.deepEqual(
        branches.map((b) => tag(b, keys)),
        tags,
        name,
      );
      for (const b of branches) {
        assert.equal(b.type, "object", name);
        assert.equal(b.additionalProperties, undefined, `${name}: a branch open to any property`);
        const props = b.properties as Record<string, Json>;
        assert.deepEqual([...(b.required as string[])].sort(), Object.keys(props).sort(), `${name}: every field is always there`);
        for (const [k, p] of Object.entries(props)) assert.ok(p.type || p.anyOf || p.const !== undefined, `${name}.${k} is typed`);
      }
    }
    // Amounts are integer strings and order-book prices basis-point strings.
    const book = leaves(schemas.QuoteTradeResponse as Json).find((b) => tag(b, ["pricingModel"]) === "ORDERBOOK")!.properties as Record<string, Json>;
    assert.equal(book.fee.pattern, "^\\d+$");
    assert.deepEqual(
      (book.limitPriceBps.anyOf as Json[]).map((x) => x.type),
      ["string", "null"],
    );
  });

  it("documents the response schema of GET /time as the registry declares it", () => {
    const o = doc.paths["/time"].get as Json;
    const ref = (((o.responses as Json)["200"] as Json).content as Json)["application/json"] as Json;
    const schema = (doc.components.schemas as Json)[
      String((ref.schema as Json).$ref)
        .split("/")
        .pop() as string
    ] as Json;
    assert.deepEqual(schema.required, ["serverTime"]);
    assert.equal(((schema.properties as Json).serverTime as Json).type, "integer");
  });
});

describe("OpenAPI of a registry with params, body, recursion and a deprecated operation", () => {
  const Node: z.ZodType<{ label: string; children: unknown[] }> = z.lazy(() => z.object({ label: z.string(), children: z.array(Node) }));
  const base = {
    category: "test",
    tier: "read-only",
    scopes: [],
    rateClass: "read",
    charged: true,
    request: {},
    mcpTool: null,
    handler: async () => ({}) as never,
  } as const;
  const ops: AnyOperation[] = [
    defineOperation({
      ...base,
      id: "getThing",
      method: "GET",
      path: "/things/{thingId}",
      summary: "A thing",
      permission: "api-key-read",
      scopes: ["markets:read"],
      idempotency: "exempt",
      request: {
        params: z.object({ thingId: z.string().describe("The thing") }),
        query: z.object({ limit: z.coerce.number().int().min(1).max(100).optional() }),
      },
      response: z.object({ id: z.string(), tree: Node }),
      mcpTool: "svc_get_thing",
    }),
    defineOperation({
      ...base,
      id: "oldPostThing",
      method: "POST",
      path: "/things/{thingId}/old",
      summary: "Old write",
      permission: "api-key-execute",
      tier: "execute",
      idempotency: "required",
      request: { params: z.object({ thingId: z.string() }), body: z.object({ amount: z.string().regex(/^\d+$/), tree: Node }) },
      response: z.object({ ok: z.boolean() }),
      deprecation: { since: "2026-11-15", sunset: "2027-03-01", replacement: "POST /things/{thingId}" },
      errors: ["MARKET_NOT_FOUND", "MARKET_CLOSED"],
      walletProof: true,
    }),
  ];
  const doc = buildOpenApi(new Registry(ops), "https://api.example.test");

  it("passes the structural checks, recursive schemas included", () => {
    assert.deepEqual(structuralProblems(doc), []);
  });

  it("declares path and query parameters from the zod schemas", () => {
    const params = (doc.paths["/things/{thingId}"].get.parameters as Json[]).filter((p) => !p.$ref);
    assert.deepEqual(
      params.map((p) => [p.name, p.in, p.required]),
      [
        ["thingId", "path", true],
        ["limit", "query", false],
      ],
    );
    assert.equal(params[0].description, "The thing");
  });

  it("carries deprecated, x-deprecation-since, x-sunset, x-deprecation-replacement and declared error codes", () => {
    const o = doc.paths["/things/{thingId}/old"].post;
    assert.equal(o.deprecated, true);
    assert.equal(o["x-deprecation-since"], "2026-11-15");
    assert.equal(o["x-sunset"], "2027-03-01");
    assert.equal(o["x-deprecation-replacement"], "POST /things/{thingId}");
    assert.equal(o["x-wallet-proof"], true);
    const codes = o["x-error-codes"] as string[];
    for (const c of ["MARKET_NOT_FOUND", "MARKET_CLOSED", "IDEMPOTENCY_KEY_REQUIRED", "WALLET_AUTH_INVALID", "EMAIL_NOT_VERIFIED"])
      assert.ok(codes.includes(c), c);
    const r404 = (o.responses as Json)["404"] as Json;
    assert.match(String(r404.description), /MARKET_NOT_FOUND/);
    assert.ok(((o.responses as Json)["200"] as Json).headers && "Sunset" in (((o.responses as Json)["200"] as Json).headers as Json));
    assert.equal(doc.paths["/things/{thingId}"].get.deprecated, undefined);
  });
});
