/**
 * Canonical JSON (object keys sorted recursively, undefined dropped) and its SHA-256. Used for idempotency request
 * hashes, the public record's body hashes and the MCP wallet-proof `payloadHash` (null or absent hashes `{}`).
 */
import { hash } from "node:crypto";

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

/** 0x-prefixed SHA-256 hex of a text's UTF-8 bytes (the one-shot `hash`: a third of createHash's cost on short texts). */
export function sha256Hex(text: string): `0x${string}` {
  return `0x${hash("sha256", text, "hex")}`;
}

/** 0x-prefixed SHA-256 hex of the canonical JSON of `value`; null or undefined hash the text `{}`. */
export function payloadHash(value: unknown): `0x${string}` {
  return sha256Hex(value === null || value === undefined ? "{}" : canonicalJson(value));
}

const memberTexts = new WeakMap<object, Map<string, string>>();

/** A member's canonical text, or undefined for an undefined value (JSON.stringify leaves such a member out). */
const memberText = (v: unknown): string | undefined => (v === undefined ? undefined : JSON.stringify(sortKeys(v)));

/**
 * `payloadHash({ ...value, ...extra })` for a plain object `value`, with each member of `value` made canonical once per
 * object and kept: a write's Idempotency-Key hash (its input and its operation) and its call record's body hash (its
 * input alone) share the work of sorting and printing the body. The members must not change after the first call.
 */
export function payloadHashOfMembers(value: Record<string, unknown>, extra: Record<string, unknown> = {}): `0x${string}` {
  let texts = memberTexts.get(value);
  if (!texts) {
    texts = new Map();
    for (const [k, v] of Object.entries(value)) {
      const text = memberText(v);
      if (text !== undefined) texts.set(k, text);
    }
    memberTexts.set(value, texts);
  }
  const members = new Map(texts);
  for (const [k, v] of Object.entries(extra)) {
    const text = memberText(v);
    if (text === undefined) members.delete(k);
    else members.set(k, text);
  }
  // In the order JSON.stringify prints a sorted object's keys: integer-like keys first, ascending (as payloadHash does).
  const order: Record<string, 0> = {};
  for (const k of [...members.keys()].sort()) order[k] = 0;
  const keys = Object.keys(order);
  return sha256Hex(`{${keys.map((k) => `${JSON.stringify(k)}:${members.get(k)}`).join(",")}}`);
}
