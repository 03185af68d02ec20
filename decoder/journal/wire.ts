/**
 * Byte-level reader and writer of the PMJ5 format: bytes, 20-byte addresses and canonical unsigned LEB128
 * varints bounded by a bit width. The reader throws {@link JournalDecodeError} with the offending offset.
 */
import { bytesToHex, hexToBytes, type Address } from "viem";
import { JournalDecodeError } from "../errors";

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

  address(value: Address): void {
    this.bytes(hexToBytes(value));
  }

  /** Unsigned LEB128: 7 bits per byte, least significant group first, high bit = more bytes follow. */
  varint(value: bigint): void {
    let v = value;
    do {
      const group = Number(v & 0x7fn);
      v >>= 7n;
      this.byte(v > 0n ? group | 0x80 : group);
    } while (v > 0n);
  }

  result(): Uint8Array {
    return this.#buf.slice(0, this.#len);
  }
}

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

  address(what: string): Address {
    return bytesToHex(this.take(20, what)) as Address;
  }

  /** A canonical varint of at most `bits` bits: no superfluous trailing zero group, no value beyond the width. */
  varint(bits: number, what: string): bigint {
    const start = this.offset;
    const maxBytes = Math.ceil(bits / 7);
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
