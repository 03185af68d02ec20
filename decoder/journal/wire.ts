/**
 * Byte-level reader and writer of the PMJ5 format: bytes, 20-byte addresses and canonical unsigned LEB128
 * varints bounded by a bit width. The reader throws {@link JournalDecodeError} with the offending offset.
 */
import type { Address } from "viem";
import { JournalDecodeError } from "../errors";

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** The value of one hex digit's char code (0-9, a-f, A-F). */
function nibble(c: number): number {
  return c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x57;
}

/** Growable output buffer. */
export class ByteWriter {
  #buf = new Uint8Array(256);
  #len = 0;

  #reserve(n: number): void {
    if (this.#len + n <= this.#buf.length) return;
    const next = new Uint8Array(Math.max(this.#buf.length * 2, this.#len + n));
    next.set(this.#buf.subarray(0, this.#len));
    this.#buf = next;
  }

  byte(value: number): void {
    this.#reserve(1);
    this.#buf[this.#len++] = value;
  }

  bytes(value: Uint8Array): void {
    this.#reserve(value.length);
    this.#buf.set(value, this.#len);
    this.#len += value.length;
  }

  /** A 0x address (checked by the caller) as its 20 bytes, parsed straight into the buffer. */
  address(value: Address): void {
    this.#reserve(20);
    const buf = this.#buf;
    for (let i = 0; i < 20; i++) buf[this.#len + i] = (nibble(value.charCodeAt(2 + 2 * i)) << 4) | nibble(value.charCodeAt(3 + 2 * i));
    this.#len += 20;
  }

  /** Unsigned LEB128: 7 bits per byte, least significant group first, high bit = more bytes follow. */
  varint(value: bigint): void {
    // Most values (refs, amounts below 2^53) take the number path: a bigint shift per group costs ~10× more.
    if (value >= 0n && value <= MAX_SAFE) {
      this.varintNumber(Number(value));
      return;
    }
    let v = value;
    do {
      const group = Number(v & 0x7fn);
      v >>= 7n;
      this.byte(v > 0n ? group | 0x80 : group);
    } while (v > 0n);
  }

  /** {@link varint} of a non-negative safe integer. */
  varintNumber(value: number): void {
    let v = value;
    this.#reserve(8);
    const buf = this.#buf;
    let len = this.#len;
    while (v >= 0x80) {
      buf[len++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    buf[len++] = v;
    this.#len = len;
  }

  /** Bytes written so far. */
  get length(): number {
    return this.#len;
  }

  /** Drops everything written after the first `length` bytes (an encoder's rollback of one operation). */
  truncate(length: number): void {
    if (length < this.#len) this.#len = length;
  }

  /** The bytes written so far, without a copy (valid until the next write). */
  view(): Uint8Array {
    return this.#buf.subarray(0, this.#len);
  }

  result(): Uint8Array {
    return this.#buf.slice(0, this.#len);
  }
}

const HEX_CODES = Array.from("0123456789abcdef", (c) => c.charCodeAt(0));
/** Scratch char codes of one address: "0x" then 40 hex digits. */
const ADDRESS_CODES = new Uint16Array(42);
ADDRESS_CODES[0] = 0x30;
ADDRESS_CODES[1] = 0x78;

/** Cursor over a payload. */
export class ByteReader {
  readonly bytes: Uint8Array;
  offset = 0;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
  }

  get remaining(): number {
    return this.bytes.length - this.offset;
  }

  #need(n: number, what: string): void {
    if (this.remaining < n) {
      throw new JournalDecodeError("TRUNCATED", this.offset, `payload ends inside ${what}: need ${n} byte(s), ${this.remaining} left`);
    }
  }

  byte(what: string): number {
    this.#need(1, what);
    return this.bytes[this.offset++];
  }

  take(n: number, what: string): Uint8Array {
    this.#need(n, what);
    const out = this.bytes.subarray(this.offset, this.offset + n);
    this.offset += n;
    return out;
  }

  /** The next 20 bytes as a lower-case 0x address (a flat string: it is hashed as a dictionary key next). */
  address(what: string): Address {
    const b = this.take(20, what);
    const codes = ADDRESS_CODES;
    for (let i = 0; i < 20; i++) {
      codes[2 + 2 * i] = HEX_CODES[b[i] >> 4];
      codes[3 + 2 * i] = HEX_CODES[b[i] & 15];
    }
    return String.fromCharCode.apply(null, codes as unknown as number[]) as Address;
  }

  /** A canonical varint of at most `bits` bits: no superfluous trailing zero group, no value beyond the width. */
  varint(bits: number, what: string): bigint {
    const start = this.offset;
    const maxBytes = Math.ceil(bits / 7);
    // Fast path: a varint of up to 7 bytes (49 bits) sums exactly in a number; longer ones take the bigint loop.
    const bytes = this.bytes;
    let n = 0;
    let scale = 1;
    for (let i = 0; i < 7 && i < maxBytes && start + i < bytes.length; i++) {
      const b = bytes[start + i];
      n += (b & 0x7f) * scale;
      scale *= 0x80;
      if ((b & 0x80) === 0) {
        if (b === 0 && i > 0) break; // non-canonical: the general loop below reports it
        const value = BigInt(n);
        if (value >> BigInt(bits) !== 0n) break;
        this.offset = start + i + 1;
        return value;
      }
    }
    let value = 0n;
    let shift = 0n;
    for (let i = 0; ; i++) {
      if (i >= maxBytes) throw new JournalDecodeError("VARINT_OVERSIZE", start, `${what} varint longer than ${maxBytes} bytes`);
      const b = this.byte(what);
      value |= BigInt(b & 0x7f) << shift;
      shift += 7n;
      if ((b & 0x80) === 0) {
        if (b === 0 && i > 0) throw new JournalDecodeError("VARINT_NONCANONICAL", start, `${what} varint has a redundant zero group`);
        break;
      }
    }
    if (value >> BigInt(bits) !== 0n) throw new JournalDecodeError("VARINT_OVERSIZE", start, `${what} exceeds ${bits} bits`);
    return value;
  }
}
