/**
 * fast-check arbitraries from an operation's request schemas: each zod schema is read through its JSON Schema export
 * (input form, the one requests are parsed from; api/registry/openapi/json-schema.ts), so any new operation is
 * covered without code here. `validArb` builds values the schema's shape admits (refinements beyond JSON Schema, such
 * as a lot size, may still refuse them); `hints` put real ids (markets, webhooks, agents) in fields of those names so
 * valid cases reach the handlers, not only the 404s.
 */
import fc from "fast-check";
import type { JsonSchema } from "../../api/registry/openapi/json-schema";

/** Real values to offer for fields of a given name (e.g. `market` -> the demo markets' addresses). */
export type Hints = Record<string, readonly unknown[]>;

interface Ctx {
  defs: Record<string, JsonSchema>;
  hints: Hints;
  depth: number;
}

const MAX_DEPTH = 6;

function deref(schema: JsonSchema, ctx: Ctx): JsonSchema {
  const ref = schema.$ref;
  if (typeof ref !== "string") return schema;
  const name = ref.replace(/^#\/(\$defs|definitions)\//, "");
  return ctx.defs[name] ?? {};
}

function stringArb(s: JsonSchema): fc.Arbitrary<string> {
  const min = typeof s.minLength === "number" ? s.minLength : 0;
  const max = typeof s.maxLength === "number" ? s.maxLength : Math.max(min, 24);
  const cap = Math.min(max, Math.max(min, 24));
  if (s.format === "date-time") {
    // Around the test clock (2027), past and future, with and without fractions.
    return fc.integer({ min: 1_700_000_000_000, max: 1_900_000_000_000 }).map((ms) => new Date(ms).toISOString());
  }
  if (s.format === "uri" || s.format === "url") return fc.webUrl().filter((u) => u.length <= max);
  if (s.format === "uuid") return fc.uuid();
  if (typeof s.pattern === "string") {
    let re: RegExp;
    try {
      re = new RegExp(s.pattern);
    } catch {
      return fc.string({ minLength: min, maxLength: cap });
    }
    const most = typeof s.maxLength === "number" ? s.maxLength : Number.POSITIVE_INFINITY;
    return fc.stringMatching(re).filter((v) => v.length >= min && v.length <= most);
  }
  return fc.string({ minLength: min, maxLength: cap, unit: "grapheme" });
}

function numberArb(s: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const exMin = typeof s.exclusiveMinimum === "number" ? s.exclusiveMinimum : undefined;
  const exMax = typeof s.exclusiveMaximum === "number" ? s.exclusiveMaximum : undefined;
  let min = typeof s.minimum === "number" ? s.minimum : exMin !== undefined ? exMin + (integer ? 1 : Number.EPSILON) : -1_000_000;
  let max = typeof s.maximum === "number" ? s.maximum : exMax !== undefined ? exMax - (integer ? 1 : Number.EPSILON) : 1_000_000;
  if (integer) {
    min = Math.max(Math.ceil(min), Number.MIN_SAFE_INTEGER);
    max = Math.min(Math.floor(max), Number.MAX_SAFE_INTEGER);
    // Small values are the interesting ones (limits, page sizes); the edges still come up.
    // fc.integer takes 32-bit bounds only; wider ranges (chain ids up to 2^53 - 1) go through bigint.
    const wide = fc.bigInt({ min: BigInt(min), max: BigInt(max) }).map(Number);
    const small = min <= 2 ** 31 - 1001 && min >= -(2 ** 31) ? fc.integer({ min, max: Math.min(max, min + 1000) }) : wide;
    return fc.oneof({ weight: 4, arbitrary: small }, { weight: 1, arbitrary: wide });
  }
  return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

function arb(schema: JsonSchema, ctx: Ctx, name?: string): fc.Arbitrary<unknown> {
  const s = deref(schema, ctx);
  const base = shapeArb(s, { ...ctx, depth: ctx.depth + 1 });
  const hinted = name !== undefined ? ctx.hints[name] : undefined;
  if (!hinted || hinted.length === 0) return base;
  return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...hinted) }, { weight: 1, arbitrary: base });
}

function shapeArb(s: JsonSchema, ctx: Ctx): fc.Arbitrary<unknown> {
  if ("const" in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  const branches = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(branches) && branches.length > 0) return fc.oneof(...branches.map((b) => arb(b, ctx)));
  if (Array.isArray(s.allOf) && s.allOf.length > 0) return arb({ ...s, allOf: undefined, ...(s.allOf[0] as JsonSchema) }, ctx);
  if (Array.isArray(s.type)) return fc.oneof(...(s.type as string[]).map((t) => shapeArb({ ...s, type: t }, ctx)));
  switch (s.type) {
    case "string":
      return stringArb(s);
    case "integer":
      return numberArb(s, true);
    case "number":
      return numberArb(s, false);
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array": {
      const min = typeof s.minItems === "number" ? s.minItems : 0;
      const max = Math.min(typeof s.maxItems === "number" ? s.maxItems : 4, min + 3);
      if (ctx.depth > MAX_DEPTH) return fc.constant([]);
      return fc.array(arb((s.items as JsonSchema) ?? {}, ctx), { minLength: min, maxLength: max });
    }
    case "object":
      return objectArb(s, ctx);
    default:
      if (s.properties) return objectArb(s, ctx);
      return ctx.depth > MAX_DEPTH ? fc.constant(null) : fc.jsonValue({ maxDepth: 2 });
  }
}

function objectArb(s: JsonSchema, ctx: Ctx): fc.Arbitrary<Record<string, unknown>> {
  const props = (s.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((s.required ?? []) as string[]);
  if (ctx.depth > MAX_DEPTH && required.size === 0) return fc.constant({});
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [k, v] of Object.entries(props)) model[k] = arb(v, ctx, k);
  const record = fc.record(model, { requiredKeys: [...required].filter((k) => k in model) });
  const extra = s.additionalProperties;
  if (extra && typeof extra === "object" && Object.keys(props).length === 0) {
    return fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), arb(extra as JsonSchema, ctx), { maxKeys: 3 });
  }
  return record as fc.Arbitrary<Record<string, unknown>>;
}

/** Values of `schema` (JSON Schema with local `$defs`), with real values for the hinted field names. */
export function validArb(schema: JsonSchema | null, hints: Hints = {}): fc.Arbitrary<unknown> {
  if (!schema) return fc.constant(undefined);
  return arb(schema, { defs: (schema.$defs ?? {}) as Record<string, JsonSchema>, hints, depth: 0 });
}
