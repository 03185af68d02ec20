/**
 * Canonical JSON (object keys sorted recursively, undefined dropped) and its SHA-256. Used for idempotency request
 * hashes, the public record's body hashes and the MCP wallet-proof `payloadHash` (null or absent hashes `{}`).
 */
import { createHash } from "node:crypto";

export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? "null";
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : sortKeys(v)));
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined) out[k] = sortKeys(v);
    }
    return out;
  }
  if (typeof value === "bigint") return value.toString();
  return value;
}

/** 0x-prefixed SHA-256 hex of a text's UTF-8 bytes. */
export function sha256Hex(text: string): `0x${string}` {
  return `0x${createHash("sha256").update(text, "utf8").digest("hex")}`;
}

/** 0x-prefixed SHA-256 hex of the canonical JSON of `value`; null or undefined hash the text `{}`. */
export function payloadHash(value: unknown): `0x${string}` {
  return sha256Hex(value === null || value === undefined ? "{}" : canonicalJson(value));
}
