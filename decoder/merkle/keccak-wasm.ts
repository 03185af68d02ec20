/**
 * Generates the WebAssembly module of the batch keccak-256 used by the Merkle tree. Three exports, each a loop
 * over a whole array so one JS→WASM call hashes thousands of inputs:
 *
 *   leaves(inPtr, count, outPtr)   count 84-byte leaf preimages, packed  → count leaves, keccak256(keccak256(p))
 *   level(inPtr, count, outPtr)    count 32-byte nodes, packed           → ceil(count / 2) parents: keccak256 of
 *                                  each pair sorted as big-endian numbers; an odd last node is copied unchanged
 *   sponge(inPtr, blocks, outPtr)  `blocks` 136-byte blocks already padded by the caller → one keccak256
 *
 * Memory layout: the module owns no address; its memory is imported and the caller (keccak.ts) chooses every
 * pointer. Outputs are 32-byte digests packed at outPtr. `level` may run in place (outPtr == inPtr): parent j is
 * written after pair j is read, and j * 32 never reaches a later pair's bytes.
 *
 * The keccak state lives in v128 locals, two independent states side by side (one per 64-bit SIMD lane; lane
 * (x, y) in local A + x + 5y; WebAssembly loads are little-endian, as keccak's lanes are), so a permutation touches
 * no memory. The 24 rounds are fully unrolled: every rotation
 * offset and round constant is an immediate.
 */
import { CodeWriter, encodeModule, I32, Op, Simd, V128, VOID_BLOCK, type FunctionDef, type ValType } from "./wasm-encoding";

/** keccak256 rate in bytes (1600 - 2 × 256 bits): 17 lanes. */
export const RATE_BYTES = 136;
const LEAF_PREIMAGE_BYTES = 84;
/** Top bit of the last rate lane: the final bit of keccak's pad10*1 padding (lane 16 holds bytes 128..135). */
const PAD_END = 0x8000000000000000n;

/**
 * Round constants, from the Keccak reference's LFSR (FIPS 202, Algorithm 5: x^8 + x^6 + x^5 + x^4 + 1):
 * bit 2^j − 1 of RC[i] is rc(j + 7i) for j = 0..6. RC[0] = 0x1, RC[1] = 0x8082, RC[23] = 0x8000000080008008.
 */
export const ROUND_CONSTANTS: readonly bigint[] = (() => {
  const out: bigint[] = [];
  let lfsr = 0x01;
  for (let round = 0; round < 24; round++) {
    let rc = 0n;
    for (let j = 0; j < 7; j++) {
      if (lfsr & 1) rc |= 1n << BigInt((1 << j) - 1);
      lfsr = lfsr & 0x80 ? ((lfsr << 1) ^ 0x71) & 0xff : lfsr << 1;
    }
    out.push(rc);
  }
  return out;
})();

/**
 * ρ rotation offsets by lane index x + 5y (FIPS 202 §3.2.2): lane (1, 0) rotates by 1, then walking
 * (x, y) → (y, 2x + 3y mod 5) the t-th lane visited rotates by (t + 1)(t + 2) / 2 mod 64; lane (0, 0) by 0.
 */
export const ROTATION_OFFSETS: readonly number[] = (() => {
  const out = new Array<number>(25).fill(0);
  let x = 1;
  let y = 0;
  for (let t = 0; t < 24; t++) {
    out[x + 5 * y] = (((t + 1) * (t + 2)) / 2) % 64;
    [x, y] = [y, (2 * x + 3 * y) % 5];
  }
  return out;
})();

/** Local indices of one function: three i32 params, `i32Count` i32 locals, then the v128 lanes. */
class Locals {
  /** The state, 25 lanes: lane (x, y) is local A + x + 5y. */
  readonly A: number;
  /** The next round's state while a round runs (rounds alternate between A and E; 24 is even, so A ends it). */
  readonly E: number;
  /** One row of ρπ output, θ column parities, θ effect per column: 5 lanes each. */
  readonly B: number;
  readonly C: number;
  readonly D: number;
  readonly types: ValType[];

  constructor(readonly i32Count: number) {
    const first = 3 + i32Count;
    this.A = first;
    this.E = first + 25;
    this.B = first + 50;
    this.C = first + 55;
    this.D = first + 60;
    this.types = [...new Array<ValType>(i32Count).fill(I32), ...new Array<ValType>(65).fill(V128)];
  }
  /** The k-th i32 local after the params. */
  i32Local(k: number): number {
    return 3 + k;
  }
}

/** rotl on both 64-bit lanes of the v128 on the stack (no SIMD rotate: two shifts and an or). */
function emitRotl(w: CodeWriter, local: number, r: number): void {
  w.get(local).i32(r).simd(Simd.i64x2Shl).get(local).i32(64 - r).simd(Simd.i64x2ShrU).simd(Simd.v128Or);
}

/**
 * keccak-f[1600] on the lanes in locals A, two independent states at once (one per 64-bit SIMD lane). Each round
 * reads one state set and writes the other, one output row at a time (as the Keccak team's XKCP does), so only
 * 5 ρπ lanes are live at once.
 */
function emitPermutation(w: CodeWriter, l: Locals): void {
  const { B, C, D } = l;
  for (let round = 0; round < 24; round++) {
    const S = round % 2 === 0 ? l.A : l.E; // state in
    const T = round % 2 === 0 ? l.E : l.A; // state out
    // θ: C[x] = xor of column x; D[x] = C[x-1] ^ rotl(C[x+1], 1).
    for (let x = 0; x < 5; x++) {
      w.get(S + x).get(S + x + 5).simd(Simd.v128Xor).get(S + x + 10).simd(Simd.v128Xor);
      w.get(S + x + 15).simd(Simd.v128Xor).get(S + x + 20).simd(Simd.v128Xor).set(C + x);
    }
    for (let x = 0; x < 5; x++) {
      w.get(C + ((x + 4) % 5));
      emitRotl(w, C + ((x + 1) % 5), 1);
      w.simd(Simd.v128Xor).set(D + x);
    }
    for (let Y = 0; Y < 5; Y++) {
      // θ's xor, ρ (rotate) and π: lane (x, y) moves to (y, 2x + 3y), so output row Y, column X comes from
      // lane (X + 3Y mod 5, X).
      for (let X = 0; X < 5; X++) {
        const x = (X + 3 * Y) % 5;
        const from = x + 5 * X;
        const r = ROTATION_OFFSETS[from];
        w.get(S + from).get(D + x).simd(Simd.v128Xor);
        if (r !== 0) {
          w.set(B + X);
          emitRotl(w, B + X, r);
        }
        w.set(B + X);
      }
      // χ: T[X, Y] = B[X] ^ (~B[X+1] & B[X+2]); ι on lane (0, 0).
      for (let X = 0; X < 5; X++) {
        w.get(B + X).get(B + ((X + 2) % 5)).get(B + ((X + 1) % 5)).simd(Simd.v128AndNot).simd(Simd.v128Xor);
        if (X === 0 && Y === 0) w.v128Splat64(ROUND_CONSTANTS[round]).simd(Simd.v128Xor);
        w.set(T + X + 5 * Y);
      }
    }
  }
}

/** Sets lanes `from..24` to zero, except lane 16 which gets the end-of-padding bit. */
function emitZeroTail(w: CodeWriter, l: Locals, from: number): void {
  for (let lane = from; lane < 25; lane++) w.v128Splat64(lane === 16 ? PAD_END : 0n).set(l.A + lane);
}

/**
 * Loads message lane `lane` of two inputs: bytes [8 lane, +8) at pointer p0 into SIMD lane 0, at p1 into SIMD
 * lane 1 (`bytes` = 4 loads only the low half, zero-extended).
 */
function emitLoadPair(w: CodeWriter, p0: number, p1: number, offset: number, bytes: 4 | 8 = 8): void {
  w.get(p1).get(p0);
  if (bytes === 8) w.simdMem(Simd.v128Load64Zero, 3, offset).simdMem(Simd.v128Load64Lane, 3, offset, 1);
  else w.simdMem(Simd.v128Load32Zero, 2, offset).simdMem(Simd.v128Load32Lane, 2, offset, 2);
}

/** Stores the 32-byte digest of SIMD lane `simdLane` (state lanes 0..3) at the address in local `ptr`. */
function emitStoreDigest(w: CodeWriter, l: Locals, ptr: number, offset: number, simdLane: 0 | 1): void {
  for (let lane = 0; lane < 4; lane++) w.get(ptr).get(l.A + lane).simdMem(Simd.v128Store64Lane, 3, offset + lane * 8, simdLane);
}

const IN = 0;
const COUNT = 1;
const OUT = 2;

/**
 * `while (count > 0) { body; count -= 2 }` around `emitBody`, two items per pass; local `two` tells the body
 * whether the pass has a second item (with an odd count the last pass has one: the body hashes it twice and
 * stores it once). A zero count branches out of the enclosing block (the function body, or `level`'s block).
 */
function emitPairwise(w: CodeWriter, two: number, emitBody: () => void): void {
  w.get(COUNT).op(Op.i32Eqz).op(Op.if, VOID_BLOCK).op(Op.br, 1).op(Op.end);
  w.op(Op.loop, VOID_BLOCK);
  w.get(COUNT).i32(1).op(Op.i32GtU).set(two);
  emitBody();
  w.get(COUNT).i32(2).op(Op.i32Sub).tee(COUNT).i32(0).op(Op.i32GtS).br(Op.brIf, 0);
  w.op(Op.end);
}

/** local `dst` = `two` ? local `base` + `step` : local `base` (the second item of a pass, or the first again). */
function emitSecond(w: CodeWriter, dst: number, base: number, step: number, two: number): void {
  w.get(base).i32(step).op(Op.i32Add).get(base).get(two).op(Op.select).set(dst);
}

function leavesFunction(): FunctionDef {
  const l = new Locals(2);
  const [two, in1] = [0, 1].map((i) => l.i32Local(i));
  const w = new CodeWriter();
  emitPairwise(w, two, () => {
    emitSecond(w, in1, IN, LEAF_PREIMAGE_BYTES, two);
    // First hash: the 84-byte preimage is lanes 0..9 plus 4 bytes of lane 10; keccak's 0x01 padding byte
    // follows them at byte 84 (bit 32 of lane 10).
    for (let lane = 0; lane < 10; lane++) {
      emitLoadPair(w, IN, in1, lane * 8);
      w.set(l.A + lane);
    }
    emitLoadPair(w, IN, in1, 80, 4);
    w.v128Splat64(1n << 32n).simd(Simd.v128Or).set(l.A + 10);
    emitZeroTail(w, l, 11);
    emitPermutation(w, l);
    // Second hash: the 32-byte digest (lanes 0..3, kept in place) then the padding byte in lane 4.
    w.v128Splat64(1n).set(l.A + 4);
    emitZeroTail(w, l, 5);
    emitPermutation(w, l);
    emitStoreAndAdvance(w, l, two, 2 * LEAF_PREIMAGE_BYTES);
  });
  return { name: "leaves", params: [I32, I32, I32], locals: l.types, body: w };
}

/** Stores lane 0's digest (and lane 1's when local `two` is set), then moves IN by `inStride` and OUT by two digests. */
function emitStoreAndAdvance(w: CodeWriter, l: Locals, two: number, inStride: number): void {
  emitStoreDigest(w, l, OUT, 0, 0);
  w.get(two).op(Op.if, VOID_BLOCK);
  emitStoreDigest(w, l, OUT, 32, 1);
  w.op(Op.end);
  w.get(IN).i32(inStride).op(Op.i32Add).set(IN);
  w.get(OUT).i32(64).op(Op.i32Add).set(OUT);
}

/**
 * Orders the pair of 32-byte nodes at local `pair` as big-endian numbers: the first differing byte decides
 * (equal nodes keep their order). Sets locals `first` and `second` to the nodes' addresses.
 */
function emitSortPair(w: CodeWriter, pair: number, first: number, second: number, t: { k: number; a: number; b: number }): void {
  w.i32(0).set(t.k);
  w.op(Op.block, VOID_BLOCK).op(Op.loop, VOID_BLOCK);
  w.get(pair).get(t.k).op(Op.i32Add).mem(Op.i32Load8U, 0, 0).tee(t.a);
  w.get(pair).get(t.k).op(Op.i32Add).mem(Op.i32Load8U, 0, 32).tee(t.b);
  w.op(Op.i32Ne).br(Op.brIf, 1);
  w.get(t.k).i32(1).op(Op.i32Add).tee(t.k).i32(32).op(Op.i32LtU).br(Op.brIf, 0);
  w.op(Op.end).op(Op.end);
  // first = b < a ? pair + 32 : pair; second = first ^ pair ^ (pair + 32), the other one.
  w.get(pair).i32(32).op(Op.i32Add).get(pair).get(t.b).get(t.a).op(Op.i32LtU).op(Op.select).set(first);
  w.get(first).get(pair).op(Op.i32Xor).get(pair).i32(32).op(Op.i32Add).op(Op.i32Xor).set(second);
}

function levelFunction(): FunctionDef {
  const l = new Locals(12);
  const [two, in1, first0, second0, first1, second1, oddIn, oddOut, odd, k, a, b] = Array.from({ length: 12 }, (_, i) => l.i32Local(i));
  const w = new CodeWriter();
  // The odd node (if any) is the last input; its parent slot follows the pairs'. Then count := number of pairs.
  w.get(IN).get(COUNT).i32(-2).op(Op.i32And).i32(5).op(Op.i32Shl).op(Op.i32Add).set(oddIn);
  w.get(OUT).get(COUNT).i32(1).op(Op.i32ShrU).i32(5).op(Op.i32Shl).op(Op.i32Add).set(oddOut);
  w.get(COUNT).i32(1).op(Op.i32And).set(odd);
  w.get(COUNT).i32(1).op(Op.i32ShrU).set(COUNT);
  w.op(Op.block, VOID_BLOCK);
  emitPairwise(w, two, () => {
    emitSecond(w, in1, IN, 64, two);
    emitSortPair(w, IN, first0, second0, { k, a, b });
    emitSortPair(w, in1, first1, second1, { k, a, b });
    for (let lane = 0; lane < 4; lane++) {
      emitLoadPair(w, first0, first1, lane * 8);
      w.set(l.A + lane);
      emitLoadPair(w, second0, second1, lane * 8);
      w.set(l.A + 4 + lane);
    }
    w.v128Splat64(1n).set(l.A + 8); // padding byte after the 64-byte message
    emitZeroTail(w, l, 9);
    emitPermutation(w, l);
    emitStoreAndAdvance(w, l, two, 128);
  });
  w.op(Op.end);
  // Odd node: copied unchanged (both halves loaded before either is stored, so in place is fine).
  w.get(odd).op(Op.if, VOID_BLOCK);
  w.get(oddOut).get(oddIn).simdMem(Simd.v128Load, 0, 0).set(l.B);
  w.get(oddIn).simdMem(Simd.v128Load, 0, 16).set(l.B + 1);
  w.get(l.B).simdMem(Simd.v128Store, 0, 0);
  w.get(oddOut).get(l.B + 1).simdMem(Simd.v128Store, 0, 16);
  w.op(Op.end);
  return { name: "level", params: [I32, I32, I32], locals: l.types, body: w };
}

function spongeFunction(): FunctionDef {
  const l = new Locals(0);
  const w = new CodeWriter();
  emitZeroTail(w, l, 0);
  w.v128Splat64(0n).set(l.A + 16); // the caller's padding carries the end bit
  w.get(COUNT).op(Op.i32Eqz).op(Op.if, VOID_BLOCK).op(Op.br, 1).op(Op.end);
  w.op(Op.loop, VOID_BLOCK);
  for (let lane = 0; lane < RATE_BYTES / 8; lane++) {
    w.get(l.A + lane).get(IN).simdMem(Simd.v128Load64Zero, 3, lane * 8).simd(Simd.v128Xor).set(l.A + lane);
  }
  emitPermutation(w, l);
  w.get(IN).i32(RATE_BYTES).op(Op.i32Add).set(IN);
  w.get(COUNT).i32(1).op(Op.i32Sub).tee(COUNT).br(Op.brIf, 0);
  w.op(Op.end);
  emitStoreDigest(w, l, OUT, 0, 0);
  return { name: "sponge", params: [I32, I32, I32], locals: l.types, body: w };
}

/** WebAssembly pages (64 KiB) the module declares as its memory's maximum. */
export const MAX_PAGES = 16384; // 1 GiB: far more than the bounded work buffers need

/** The module's bytes: deterministic, same for every call. */
export function keccakModuleBytes(shared: boolean): Uint8Array {
  return encodeModule([leavesFunction(), levelFunction(), spongeFunction()], { minPages: 1, maxPages: MAX_PAGES, shared });
}
