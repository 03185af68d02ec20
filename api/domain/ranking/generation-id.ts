/** Ids of published generations: what a pinned read needs to find, or rebuild, the generation it names. */
import { randomBytes } from "node:crypto";

/**
 * A generation's id: a UUIDv7 (RFC 9562) whose 48-bit time field is the generation's instant and whose 62-bit
 * `rand_b` field is a counter, the last journal seq it includes (RFC 9562 allows a counter there). Both are what a
 * rebuild needs: with a clock that stands still, or two commits in one millisecond, the instant alone is not enough.
 */
export function uuidV7(ms: number, lastSeq: number): string {
  const b = randomBytes(16);
  b.writeUIntBE(ms, 0, 6);
  b[6] = 0x70 | (b[6] & 0x0f);
  b.writeBigUInt64BE((2n << 62n) | BigInt(lastSeq), 8);
  const h = b.toString("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** The instant and last seq of a generation id, or null for any other UUID. */
export function generationOf(id: string): { asOf: number; lastSeq: number } | null {
  const m = /^([0-9a-f]{8})-([0-9a-f]{4})-7[0-9a-f]{3}-([89ab][0-9a-f]{3})-([0-9a-f]{12})$/i.exec(id);
  if (!m) return null;
  const counter = BigInt(`0x${m[3]}${m[4]}`) & ((1n << 62n) - 1n);
  return counter > BigInt(Number.MAX_SAFE_INTEGER) ? null : { asOf: Number.parseInt(m[1] + m[2], 16), lastSeq: Number(counter) };
}
