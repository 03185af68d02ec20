/**
 * Invalid inputs for the schema fuzz: values no schema of ours admits where they land (wrong types, huge strings, deep
 * JSON, unicode with NUL and lone surrogates, numbers as strings and strings as numbers, negative and oversize money),
 * and mutations that put one of them, an unknown field or a missing one into an otherwise valid input.
 */
import fc from "fast-check";

/** A JSON text nested `depth` levels deep (built as text: a value that deep would overflow JSON.stringify). */
export function deepJsonText(depth: number): string {
  return `${"[".repeat(depth)}1${"]".repeat(depth)}`;
}

/** A marker replaced by `deepJsonText` when the body is serialized (see `toJsonText`). */
export const DEEP = Symbol("deep-json");

const MONEY = [
  "-1",
  "0",
  "-0",
  "1e6",
  "1E18",
  "1.5",
  "0x10",
  " 1",
  "1 ",
  "00001",
  "+5",
  "NaN",
  "Infinity",
  "1_000",
  (2n ** 256n).toString(),
  "-99999999999999999999",
  "9".repeat(80),
  "１２３",
];
const NUMBERS = [0, -1, 1.5, -0.0001, 1e21, -1e21, 2 ** 53 + 2, 1e308, -1e308, Number.MIN_VALUE];
const UNICODE = [
  "\u0000",
  "a\u0000b",
  "\ud800",
  "x\udfffy",
  "\ufffe\uffff",
  "💥".repeat(50),
  "\u202e\u0301\u200b",
  "é",
  "\u0085\u2028\u2029",
  "%00",
  "%E0%A4%A",
  "../../etc/passwd",
  "'; DROP TABLE api_agents; --",
  "<script>alert(1)</script>",
  "$" + "{7*7}{{7*7}}",
];

/** One value that is wrong almost anywhere. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(null, true, false, [], {}, "", "x", [null], { "": 1 }),
  fc.constantFrom(...MONEY),
  fc.constantFrom(...NUMBERS),
  fc.constantFrom(...UNICODE),
  fc.constantFrom("a".repeat(100_000), "é".repeat(30_000), "\u0000".repeat(10_000)),
  fc.constant(DEEP),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.integer().map(String),
  fc.string({ maxLength: 20 }).map((s) => Number(s) || s.length),
);

/** Field names no operation declares, some of them dangerous for naive object handling. */
const unknownKey = fc.constantFrom("__proto__", "constructor", "prototype", "toString", "extra", "", "a".repeat(300), "\u0000", "\ud800");

type Path = (string | number)[];

function pathsOf(value: unknown, prefix: Path = [], out: Path[] = []): Path[] {
  out.push(prefix);
  if (prefix.length > 4) return out;
  if (Array.isArray(value)) value.forEach((v, i) => pathsOf(v, [...prefix, i], out));
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) pathsOf(v, [...prefix, k], out);
  return out;
}

function clone(v: unknown): unknown {
  return v === undefined ? undefined : (JSON.parse(JSON.stringify(v)) as unknown);
}

function setAt(root: unknown, path: Path, f: (parent: Record<string | number, unknown>, key: string | number) => void): unknown {
  if (path.length === 0) return root;
  let node = root as Record<string | number, unknown>;
  for (const k of path.slice(0, -1)) node = node[k] as Record<string | number, unknown>;
  f(node, path[path.length - 1]!);
  return root;
}

export type Mutation = "replace" | "delete" | "unknown" | "whole" | "stringify" | "numberify";

/** A valid input changed in one place: a field replaced, deleted, stringified or numberified, an unknown field added, or the whole input swapped. */
export function mutated(valid: fc.Arbitrary<unknown>): fc.Arbitrary<{ value: unknown; mutation: Mutation }> {
  return fc
    .tuple(
      valid,
      fc.nat(),
      fc.constantFrom<Mutation>("replace", "replace", "replace", "delete", "unknown", "whole", "stringify", "numberify"),
      hostileValue,
      unknownKey,
    )
    .map(([v, pick, mutation, bad, key]) => {
      const value = clone(v) ?? {};
      const paths = pathsOf(value);
      const inner = paths.filter((p) => p.length > 0);
      const path = inner.length > 0 ? inner[pick % inner.length]! : [];
      if (mutation === "whole" || path.length === 0) {
        if (mutation === "unknown" && value && typeof value === "object" && !Array.isArray(value)) {
          Object.defineProperty(value, key, { value: bad, enumerable: true, configurable: true, writable: true });
          return { value, mutation };
        }
        return { value: bad, mutation: "whole" as const };
      }
      setAt(value, path, (parent, k) => {
        const current = parent[k];
        if (mutation === "replace") parent[k] = bad;
        else if (mutation === "delete") {
          if (Array.isArray(parent)) parent.splice(Number(k), 1);
          else delete parent[k];
        } else if (mutation === "stringify") parent[k] = typeof current === "string" ? Number(current) : JSON.stringify(current);
        else if (mutation === "numberify")
          parent[k] = typeof current === "number" ? String(current) : typeof current === "string" ? Number.parseFloat(current) || 0 : 1;
        else if (parent && typeof parent === "object" && !Array.isArray(parent))
          Object.defineProperty(parent, key, { value: bad, enumerable: true, configurable: true, writable: true });
        else parent[k] = bad;
      });
      return { value, mutation };
    });
}

/** JSON text of a fuzz value; DEEP becomes JSON nested 5000 levels. */
export function toJsonText(value: unknown): string {
  const marker = "\u0001DEEP\u0001";
  const text = JSON.stringify(value, (_k, v) => (v === DEEP ? marker : v)) ?? "null";
  return text.replaceAll(JSON.stringify(marker), deepJsonText(5000));
}

/** The value with DEEP as a real nested array (1000 levels), for transports that serialize values themselves (MCP). */
export function materialize(value: unknown): unknown {
  if (value === DEEP) {
    let deep: unknown = 1;
    for (let i = 0; i < 1000; i++) deep = [deep];
    return deep;
  }
  if (Array.isArray(value)) return value.map(materialize);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) Object.defineProperty(out, k, { value: materialize(v), enumerable: true, configurable: true, writable: true });
    return out;
  }
  return value;
}

/** The value as a query or path string (what a URL can carry of it). */
export function asText(value: unknown): string {
  if (value === DEEP) return deepJsonText(200);
  if (typeof value === "string") return value;
  return toJsonText(value);
}
