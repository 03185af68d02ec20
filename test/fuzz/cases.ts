/**
 * Fuzz cases of one operation, from its registry entry alone: REST cases (params, query, body) and MCP cases (the
 * tool's arguments, from the tool's own input schema), valid and mutated, and how a REST case becomes a request.
 */
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { fullPath } from "../../api/registry/registry";
import type { AnyOperation } from "../../api/registry/types";
import { toJsonSchema, type JsonSchema } from "../../api/registry/openapi/json-schema";
import { bindingOf, type ToolBinding } from "../../api/transports/mcp/tools";
import { asText, materialize, mutated, toJsonText, type Mutation } from "./hostile";
import { validArb, type Hints } from "./json-arbitrary";

type Part = "params" | "query" | "body";

export interface RestCase {
  valid: boolean;
  /** What was changed: `<part>:<mutation>`, or `body:raw` for a body that is not the JSON of a value. */
  change: string;
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
  /** Raw body text (malformed JSON, another media type), sent as is. */
  rawBody?: { text: string; contentType: string };
}

const RAW_BODIES: { text: string; contentType: string }[] = [
  { text: '{"a":', contentType: "application/json" },
  { text: "\ufeff{}", contentType: "application/json" },
  { text: '{"a":1}{"b":2}', contentType: "application/json" },
  { text: "NaN", contentType: "application/json" },
  { text: '"\\ud800"', contentType: "application/json" },
  { text: "\u0000", contentType: "application/json" },
  { text: "a=1&b=2", contentType: "application/x-www-form-urlencoded" },
  { text: "<x/>", contentType: "text/xml" },
  { text: "{}", contentType: "application/json; charset=latin1" },
  { text: "{}", contentType: "application/vnd.api+json" },
];

function schemaOf(s: unknown): JsonSchema | null {
  return s ? toJsonSchema(s as Parameters<typeof toJsonSchema>[0]) : null;
}

const asObject = (v: unknown): Record<string, unknown> => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** REST cases of `op`: about a third valid, the rest with one part mutated (or a raw body). */
export function restCases(op: AnyOperation, hints: Hints): fc.Arbitrary<RestCase> {
  const schemas: Record<Part, JsonSchema | null> = { params: schemaOf(op.request.params), query: schemaOf(op.request.query), body: schemaOf(op.request.body) };
  const valid = fc.record({ params: validArb(schemas.params, hints), query: validArb(schemas.query, hints), body: validArb(schemas.body, hints) });
  const validCase = valid.map((v): RestCase => ({ valid: true, change: "none", params: asObject(v.params), query: asObject(v.query), body: v.body }));
  // Every operation can be sent unknown query members; only operations with a body get body mutations.
  const parts: Part[] = ["query", ...(schemas.params ? (["params"] as const) : []), ...(op.method !== "GET" ? (["body"] as const) : [])];
  const mutatedCase = fc.tuple(valid, fc.constantFrom(...parts)).chain(([v, part]) =>
    mutated(fc.constant(v[part] ?? {})).map(({ value, mutation }): RestCase => {
      const c: RestCase = { valid: false, change: `${part}:${mutation}`, params: asObject(v.params), query: asObject(v.query), body: v.body };
      if (part === "body") c.body = value;
      else c[part] = mutation === "whole" ? { [part === "params" ? (Object.keys(c.params)[0] ?? "x") : "q"]: value } : asObject(value);
      return c;
    }),
  );
  const arbs: fc.Arbitrary<RestCase>[] = [validCase, mutatedCase, mutatedCase];
  if (op.method !== "GET") {
    arbs.push(
      fc
        .tuple(valid, fc.constantFrom(...RAW_BODIES))
        .map(
          ([v, raw]): RestCase => ({ valid: false, change: "body:raw", params: asObject(v.params), query: asObject(v.query), body: undefined, rawBody: raw }),
        ),
    );
  }
  return fc.oneof(...arbs);
}

/** Percent-encoding of any string, lone surrogates included (as U+FFFD, what a UTF-8 encoder makes of them). */
function pathSegment(v: unknown): string {
  const text = asText(v);
  let out = "";
  for (const byte of new TextEncoder().encode(text)) {
    const ch = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** The URL path and query of a REST case. */
export function restUrl(op: AnyOperation, c: RestCase): string {
  let path = fullPath(op);
  for (const name of [...path.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1]!)) {
    const v = c.params[name];
    // A raw value sometimes (malformed percent-encoding included), so the router's own decoding is fuzzed too.
    const raw = typeof v === "string" && /^[\x21-\x7e]+$/.test(v) && !/[/?#]/.test(v);
    path = path.replace(`{${name}}`, raw ? v : pathSegment(v ?? ""));
  }
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(c.query)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const item of v) qs.append(k, asText(item));
    else qs.append(k, asText(v));
  }
  const query = qs.toString();
  return query ? `${path}?${query}` : path;
}

/** The body text and media type of a REST case, or none. */
export function restBody(op: AnyOperation, c: RestCase): { text: string; contentType: string } | undefined {
  if (c.rawBody) return c.rawBody;
  if (op.method === "GET" || c.body === undefined) return undefined;
  return { text: toJsonText(c.body), contentType: "application/json" };
}

export interface McpCase {
  valid: boolean;
  change: string;
  args: Record<string, unknown>;
}

/** Tool-call cases of `op` (which has an MCP tool), from the tool's input schema. */
export function mcpCases(op: AnyOperation, hints: Hints): { binding: ToolBinding; cases: fc.Arbitrary<McpCase> } {
  const binding = bindingOf(op);
  const valid = validArb(binding.tool.inputSchema as JsonSchema, hints).map(asObject);
  const fresh = (args: Record<string, unknown>) => (binding.needsIdempotencyKey ? { ...args, idempotencyKey: randomUUID() } : args);
  const validCase = valid.map((args): McpCase => ({ valid: true, change: "none", args: fresh(args) }));
  const mutatedCase = mutated(valid).map(({ value, mutation }: { value: unknown; mutation: Mutation }): McpCase => {
    // A tool's arguments are an object on the wire (the SDK client sends what it is given); a non-object goes under an unknown name.
    const real = materialize(value);
    const args = real && typeof real === "object" && !Array.isArray(real) ? (real as Record<string, unknown>) : { whole: real };
    return { valid: false, change: `args:${mutation}`, args };
  });
  return { binding, cases: fc.oneof(validCase, mutatedCase, mutatedCase) };
}
