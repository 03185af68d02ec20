/**
 * Fast keccak-256 for the Merkle hot path, on hash-wasm's WebAssembly keccak.
 *
 * hash-wasm's public `IHasher` costs three WASM calls and two allocations per hash. For millions of
 * fixed-size hashes we instantiate the same WASM module ourselves and call its one-shot `Hash_Calculate`
 * export over a buffer we write into directly. If the embedded module cannot be found (a future hash-wasm
 * layout), we fall back to the public `createKeccak` API: slower, same results.
 */
import { readFileSync } from "node:fs";
import { createKeccak } from "hash-wasm";

/** A reusable keccak-256 engine. Synchronous once loaded; not re-entrant. */
export interface Keccak256 {
  /** Hashes `input[start, start + length)` and writes the 32-byte digest at `out[outOffset]`. */
  hashInto(input: Uint8Array, start: number, length: number, out: Uint8Array, outOffset: number): void;
  /**
   * Writes keccak256(min(a, b) ++ max(a, b)) at `out[outOffset]`, where a = `src[aOffset, +32)` and
   * b = `src[bOffset, +32)`, ordered as unsigned bytes (OpenZeppelin's commutative pair hash).
   */
  hashSortedPairInto(src: Uint8Array, aOffset: number, bOffset: number, out: Uint8Array, outOffset: number): void;
}

/** The slice of the WebAssembly global we use (the project's TS lib has no DOM/WebAssembly types). */
interface WasmApi {
  compile(bytes: Uint8Array): Promise<object>;
  instantiate(module: object, imports: object): Promise<{ exports: unknown }>;
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

interface Sha3Exports {
  memory: { buffer: ArrayBuffer };
  Hash_GetBuffer(): number;
  Hash_Calculate(length: number, bits: number, padding: number): void;
}

const KECCAK_PADDING = 0x01;

function compareAt(src: Uint8Array, a: number, b: number): number {
  for (let i = 0; i < 32; i++) {
    const d = src[a + i] - src[b + i];
    if (d !== 0) return d;
  }
  return 0;
}

function fromExports(ex: Sha3Exports): Keccak256 {
  const offset = ex.Hash_GetBuffer();
  const mem = new Uint8Array(ex.memory.buffer);
  const calc = ex.Hash_Calculate;
  // Plain byte loops instead of `set(subarray(...))`: millions of hashes would otherwise allocate millions of
  // short-lived views, and the garbage collector then costs more than the hashing.
  return {
    hashInto(input, start, length, out, outOffset) {
      for (let j = 0; j < length; j++) mem[offset + j] = input[start + j];
      calc(length, 256, KECCAK_PADDING);
      for (let j = 0; j < 32; j++) out[outOffset + j] = mem[offset + j];
    },
    hashSortedPairInto(src, aOffset, bOffset, out, outOffset) {
      const aFirst = compareAt(src, aOffset, bOffset) <= 0;
      const first = aFirst ? aOffset : bOffset;
      const second = aFirst ? bOffset : aOffset;
      for (let j = 0; j < 32; j++) {
        mem[offset + j] = src[first + j];
        mem[offset + 32 + j] = src[second + j];
      }
      calc(64, 256, KECCAK_PADDING);
      for (let j = 0; j < 32; j++) out[outOffset + j] = mem[offset + j];
    },
  };
}

async function loadDirect(): Promise<Keccak256 | null> {
  try {
    const source = readFileSync(require.resolve("hash-wasm/dist/keccak.umd.min.js"), "utf8");
    const match = /name:"sha3",data:"([^"]+)"/.exec(source);
    if (!match) return null;
    const module = await wasm.compile(Buffer.from(match[1], "base64"));
    const instance = await wasm.instantiate(module, {});
    const ex = instance.exports as unknown as Sha3Exports;
    if (typeof ex.Hash_Calculate !== "function" || typeof ex.Hash_GetBuffer !== "function") return null;
    return fromExports(ex);
  } catch {
    return null;
  }
}

async function loadPublic(): Promise<Keccak256> {
  const hasher = await createKeccak(256);
  const pair = new Uint8Array(64);
  const hashInto: Keccak256["hashInto"] = (input, start, length, out, outOffset) => {
    hasher.init();
    hasher.update(input.subarray(start, start + length));
    out.set(hasher.digest("binary"), outOffset);
  };
  return {
    hashInto,
    hashSortedPairInto(src, aOffset, bOffset, out, outOffset) {
      const aFirst = compareAt(src, aOffset, bOffset) <= 0;
      pair.set(src.subarray(aFirst ? aOffset : bOffset, (aFirst ? aOffset : bOffset) + 32), 0);
      pair.set(src.subarray(aFirst ? bOffset : aOffset, (aFirst ? bOffset : aOffset) + 32), 32);
      hashInto(pair, 0, 64, out, outOffset);
    },
  };
}

let loading: Promise<Keccak256> | null = null;

/** Loads (once) and returns the shared keccak-256 engine. */
export function loadKeccak256(): Promise<Keccak256> {
  loading ??= loadDirect().then((direct) => direct ?? loadPublic());
  return loading;
}
