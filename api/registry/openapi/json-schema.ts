/**
 * zod v4 schemas as JSON Schema 2020-12 (the dialect of OpenAPI 3.1 and of MCP tool schemas). Schemas are converted
 * in their *input* form everywhere: requests are parsed from it, and responses are checked against the operation's
 * schema before they are sent as the handler produced them, i.e. in the input form too.
 *
 * `SchemaBook` gathers named components: the `$defs` a conversion produces (ids from `.meta({ id })`, recursion
 * placeholders) are hoisted into one shared map and their `#/$defs/...` references rewritten to point into it, so
 * the result can live inside a larger document where `#` is that document's root.
 */
import { z } from "zod";

export type JsonSchema = Record<string, unknown>;

/** Plain JSON Schema of one zod schema, self-contained (`$defs` kept local), without `$schema`. */
export function toJsonSchema(schema: z.ZodType): JsonSchema {
  const out = z.toJSONSchema(schema, { io: "input", unrepresentable: "any", target: "draft-2020-12" }) as JsonSchema;
  delete out.$schema;
  return out;
}

export class SchemaBook {
  /** Component name -> schema, references already pointing at `${prefix}<name>`. */
  readonly components: Record<string, JsonSchema> = {};

  constructor(private readonly prefix = "#/components/schemas/") {}

  /** Converts `schema`, stores it under `name`, and returns a `$ref` to it. */
  add(name: string, schema: z.ZodType): JsonSchema {
    this.components[name] = this.convert(name, schema);
    return { $ref: `${this.prefix}${name}` };
  }

  /** Converts `schema` for inline use (e.g. a parameter); its `$defs` are hoisted under `owner`. */
  inline(owner: string, schema: z.ZodType): JsonSchema {
    return this.convert(owner, schema);
  }

  private convert(owner: string, schema: z.ZodType): JsonSchema {
    const raw = toJsonSchema(schema);
    const defs = (raw.$defs ?? {}) as Record<string, JsonSchema>;
    delete raw.$defs;
    const names = new Map<string, string>();
    for (const [def, body] of Object.entries(defs)) {
      // Ids set with .meta({ id }) are shared names; recursion placeholders (__schemaN) belong to their owner.
      let name = def.startsWith("__schema") ? `${owner}_${def.replace(/^_+/, "")}` : def;
      const existing = this.components[name];
      if (existing && JSON.stringify(existing) !== JSON.stringify(body) && !def.startsWith("__schema")) name = `${owner}_${def}`;
      names.set(def, name);
    }
    const rewrite = (node: unknown): unknown => {
      if (Array.isArray(node)) return node.map(rewrite);
      if (!node || typeof node !== "object") return node;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(node)) {
        if (k === "$ref" && typeof v === "string") {
          if (v === "#") out[k] = `${this.prefix}${owner}`;
          else if (v.startsWith("#/$defs/")) out[k] = `${this.prefix}${names.get(v.slice("#/$defs/".length)) ?? v.slice(8)}`;
          else out[k] = v;
        } else out[k] = rewrite(v);
      }
      return out;
    };
    for (const [def, body] of Object.entries(defs)) this.components[names.get(def) as string] = rewrite(body) as JsonSchema;
    return rewrite(raw) as JsonSchema;
  }
}

/** The properties and required names of an object schema (params and query are objects); empty otherwise. */
export function objectShape(schema: JsonSchema): { properties: Record<string, JsonSchema>; required: string[] } {
  return {
    properties: (schema.properties ?? {}) as Record<string, JsonSchema>,
    required: (schema.required ?? []) as string[],
  };
}
