/**
 * MCP tools from the registry: one per operation with `mcpTool`. The input schema merges path params, query and
 * body (a body that is not an object goes under `body`), adds `idempotencyKey` for writes that need one and the four
 * proof fields for wallet-proof tools and `payment` for x402 tools (./x402.ts); the output schema is the response
 * schema when it admits only objects (an object, or a union of objects), or for an x402 tool that response or x402's
 * PaymentRequired (the 402's structured content).
 * `requestOf` turns tool arguments back into the REST request the operation expects.
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { SchemaBook, type JsonSchema } from "../../registry/openapi/json-schema";
import { fullPath, type Registry } from "../../registry/registry";
import type { AnyOperation } from "../../registry/types";
import type { FieldError } from "../../platform/errors/invalid-payload";
import { proofFieldsSchema } from "./wallet-proof";
import { paymentArgumentSchema, paymentRequiredSchema } from "./x402";
import { PAYMENT_ARGUMENT } from "../../domain/pm/x402/headers";

export interface ToolBinding {
  tool: Tool;
  op: AnyOperation;
  paramKeys: string[];
  queryKeys: string[];
  /** Body property names merged into the arguments, or "whole" when the body travels as `body`. */
  bodyKeys: string[] | "whole";
  needsIdempotencyKey: boolean;
}

// It travels as the Idempotency-Key header of the REST request, so it must be a header value: visible ASCII (a key
// with other characters used to fail the internal request itself, a JSON-RPC internal error).
const idempotencyKeySchema = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[\x21-\x7e]+$/, "must be visible ASCII characters (it is sent as the Idempotency-Key header)")
  .describe("Idempotency-Key of this write (replays within 24 h return the first result)");

function objectParts(schema: JsonSchema | null): { properties: Record<string, JsonSchema>; required: string[] } | null {
  if (!schema) return { properties: {}, required: [] };
  if (schema.type !== "object" || !schema.properties) return null;
  return { properties: schema.properties as Record<string, JsonSchema>, required: (schema.required ?? []) as string[] };
}

/** Whether `schema` only admits JSON objects: an object schema, or a union (oneOf/anyOf, nested, by `$ref`) of them. */
function admitsOnlyObjects(schema: JsonSchema, components: Record<string, JsonSchema>, seen = new Set<string>()): boolean {
  if (schema.type === "object") return true;
  const ref = schema.$ref;
  if (typeof ref === "string" && ref.startsWith("#/$defs/")) {
    const name = ref.slice("#/$defs/".length);
    const target = components[name];
    if (!target || seen.has(name)) return false;
    seen.add(name);
    return admitsOnlyObjects(target, components, seen);
  }
  const branches = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
  return Array.isArray(branches) && branches.length > 0 && branches.every((b) => admitsOnlyObjects(b, components, seen));
}

/**
 * The tool's output schema: MCP takes only `type: "object"` there, so a response that is an object keeps its schema and
 * a union of objects (a discriminated answer) gets `type: "object"` beside its branches; anything else has none.
 */
function objectSchemaOf(schema: JsonSchema, components: Record<string, JsonSchema>): JsonSchema | undefined {
  if (schema.type === "object") return schema;
  return admitsOnlyObjects(schema, components) ? { type: "object", ...schema } : undefined;
}

function titleOf(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

export function bindingOf(op: AnyOperation): ToolBinding {
  const name = op.mcpTool as string;
  const book = new SchemaBook("#/$defs/");
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const add = (from: string, props: Record<string, JsonSchema>, req: string[]) => {
    for (const [k, v] of Object.entries(props)) {
      if (k in properties) throw new Error(`mcp: tool ${name} has two inputs named ${k} (${from})`);
      properties[k] = v;
      if (req.includes(k)) required.push(k);
    }
    return Object.keys(props);
  };
  const part = (label: string, schema: z.ZodType | undefined) => (schema ? book.inline(`${titleOf(op.id)}${label}`, schema) : null);
  const params = objectParts(part("Params", op.request.params));
  const query = objectParts(part("Query", op.request.query));
  if (!params || !query) throw new Error(`mcp: params and query of ${op.id} must be objects`);
  // Path params are always required, whatever the schema says.
  const paramKeys = add("params", params.properties, Object.keys(params.properties));
  const queryKeys = add("query", query.properties, query.required);
  let bodyKeys: string[] | "whole" = [];
  if (op.request.body) {
    const bodySchema = part("Body", op.request.body) as JsonSchema;
    const body = objectParts(bodySchema);
    if (body && (bodySchema.additionalProperties === undefined || bodySchema.additionalProperties === false))
      bodyKeys = add("body", body.properties, body.required);
    else {
      bodyKeys = "whole";
      add("body", { body: bodySchema }, ["body"]);
    }
  }
  const needsIdempotencyKey = op.idempotency === "required" && op.method !== "GET";
  if (needsIdempotencyKey) add("idempotency", { idempotencyKey: book.inline("IdempotencyKey", idempotencyKeySchema) }, ["idempotencyKey"]);
  if (op.walletProof) {
    const proof = objectParts(book.inline("Proof", proofFieldsSchema)) as { properties: Record<string, JsonSchema>; required: string[] };
    add("wallet proof", proof.properties, proof.required);
  }
  if (op.x402) add("x402", { [PAYMENT_ARGUMENT]: book.inline("Payment", paymentArgumentSchema) }, []);
  const inputSchema: JsonSchema = { type: "object", properties, ...(required.length ? { required } : {}), additionalProperties: false };
  if (Object.keys(book.components).length) inputSchema.$defs = { ...book.components };

  const outBook = new SchemaBook("#/$defs/");
  // An x402 tool's 402 is a tool error with structured content (x402's MCP transport), which the SDK client checks
  // against the output schema like any other: the schema admits both.
  const response = op.x402 ? z.union([op.response, paymentRequiredSchema]) : op.response;
  const out = outBook.inline(`${titleOf(op.id)}Response`, response);
  const outObject = objectSchemaOf(out, outBook.components);
  const outputSchema = outObject ? { ...outObject, ...(Object.keys(outBook.components).length ? { $defs: outBook.components } : {}) } : undefined;

  const notes = [`REST: ${op.method} ${fullPath(op)}.`];
  if (op.scopes.length) notes.push(`Scopes: ${op.scopes.join(", ")}.`);
  if (op.walletProof) notes.push("Needs a fresh wallet proof (svc-mcp-auth challenge; see /mcp-discovery).");
  if (op.x402)
    notes.push(
      'Paid over x402: without `payment` it answers a tool error whose structuredContent is the PaymentRequired; call again with the same idempotencyKey and `payment`; the settlement comes back in _meta["x402/payment-response"].',
    );
  if (op.deprecation) notes.push(`Deprecated since ${op.deprecation.since}${op.deprecation.replacement ? `; use ${op.deprecation.replacement}` : ""}.`);
  const tool: Tool = {
    name,
    title: op.summary,
    description: `${op.description ?? op.summary}\n\n${notes.join(" ")}`,
    inputSchema: inputSchema as Tool["inputSchema"],
    ...(outputSchema ? { outputSchema: outputSchema as Tool["outputSchema"] } : {}),
    annotations: {
      title: op.summary,
      readOnlyHint: op.method === "GET",
      destructiveHint: op.method === "DELETE",
      idempotentHint: op.method === "GET" || op.method === "PUT" || op.method === "DELETE" || needsIdempotencyKey,
      openWorldHint: false,
    },
  };
  return { tool, op, paramKeys, queryKeys, bodyKeys, needsIdempotencyKey };
}

const bindings = new WeakMap<Registry, Map<string, ToolBinding>>();

/** Tool bindings of a registry, by tool name, in registry order (built once per registry). */
export function toolBindings(registry: Registry): Map<string, ToolBinding> {
  let map = bindings.get(registry);
  if (!map) {
    map = new Map();
    for (const op of registry.operations) if (op.mcpTool) map.set(op.mcpTool, bindingOf(op));
    bindings.set(registry, map);
  }
  return map;
}

/**
 * Argument problems the REST chain cannot see once the arguments are split: names the tool does not take (they would
 * be dropped silently) and missing path parameters (the route would not match). Empty when the arguments are usable.
 */
export function argumentErrors(b: ToolBinding, args: Record<string, unknown>): FieldError[] {
  const known = Object.keys((b.tool.inputSchema.properties ?? {}) as Record<string, unknown>);
  const errors: FieldError[] = Object.keys(args)
    .filter((k) => !known.includes(k))
    .map((field) => ({ location: "body" as const, field, message: "unknown property" }));
  for (const k of b.paramKeys) {
    if (args[k] === undefined || args[k] === null || args[k] === "") errors.push({ location: "params", field: k, message: "required" });
  }
  if (b.needsIdempotencyKey && args.idempotencyKey !== undefined) {
    const key = idempotencyKeySchema.safeParse(args.idempotencyKey);
    if (!key.success) errors.push({ location: "body", field: "idempotencyKey", message: key.error.issues[0]?.message ?? "invalid" });
  }
  return errors;
}

/** A lone surrogate cannot be URI-encoded: it becomes U+FFFD, so the REST schema refuses the id as it would over HTTP. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
function wellFormed(s: string): string {
  return s.replace(LONE_SURROGATE, "\ufffd");
}

function queryValue(v: unknown): string {
  return typeof v === "string" ? v : typeof v === "number" || typeof v === "boolean" || typeof v === "bigint" ? String(v) : JSON.stringify(v);
}

/** Path (with query) and JSON body of the REST request a tool call stands for. */
export function requestOf(b: ToolBinding, args: Record<string, unknown>): { path: string; body: string | undefined; idempotencyKey: string | undefined } {
  let path = fullPath(b.op);
  for (const k of b.paramKeys) path = path.replace(`{${k}}`, encodeURIComponent(wellFormed(args[k] === undefined ? "" : String(args[k]))));
  const qs = new URLSearchParams();
  for (const k of b.queryKeys) if (args[k] !== undefined && args[k] !== null) qs.set(k, queryValue(args[k]));
  const query = qs.toString();
  let body: string | undefined;
  if (b.op.request.body) {
    if (b.bodyKeys === "whole") body = JSON.stringify(args.body ?? {});
    else body = JSON.stringify(Object.fromEntries(b.bodyKeys.filter((k) => args[k] !== undefined).map((k) => [k, args[k]])));
  }
  const key = args.idempotencyKey;
  return { path: query ? `${path}?${query}` : path, body, idempotencyKey: typeof key === "string" ? key : undefined };
}
