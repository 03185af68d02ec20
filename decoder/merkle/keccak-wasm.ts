/**
 * Generates the WebAssembly module of the batch keccak-256 used by the Merkle tree. Three exports, each a loop
 * over a whole array so one JS→WASM call hashes thousands of inputs:
 *
 *   leaves(inPtr, count, outPtr, statePtr)   count 84-byte leaf preimages, packed → count leaves,
 *                                            keccak256(keccak256(p))
 *   level(inPtr, count, outPtr, statePtr)    count 32-byte nodes, packed → ceil(count / 2) parents: keccak256 of
 *                                            each pair sorted as big-endian numbers; an odd last node is copied
 *   sponge(inPtr, blocks, outPtr, statePtr)  `blocks` 136-byte blocks already padded by the caller → one keccak256
 *
 * Memory layout: the module owns no address; its memory is imported and the caller (keccak.ts) chooses every
 * pointer. Outputs are 32-byte digests packed at outPtr. `level` may run in place (outPtr == inPtr): parent j is
 * written after pair j is read, and j * 32 never reaches a later pair's bytes. `statePtr` is STATE_BYTES of
 * scratch, 16-byte aligned, private to the calling thread.
 *
 * Two independent keccak states are hashed side by side (one per 64-bit SIMD lane; WebAssembly loads are
 * little-endian, as keccak's lanes are). The state lives in memory at statePtr (lane (x, y) at 16 (x + 5y)), not
 * in locals: with 50 live v128 locals V8's optimizing compiler spilled so badly that a permutation was ~1.6×
 * slower, while L1-resident loads and stores are nearly free. The rounds run as a loop of two-round passes (every
 * rotation offset an immediate, the round constants read from a table in the scratch), and χ accumulates the next
 * round's θ column parities as it writes.
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

/**
 * Bytes of a thread's permutation scratch: two state copies (rounds alternate between them), 25 v128 lanes each,
 * then the 24 round constants (8 bytes each).
 */
export const STATE_BYTES = 992;
/** Offsets of the two state copies in the scratch; 24 rounds is even, so a permutation ends in `A`. */
const A = 0;
const E = 400;
const RC_AT = 800;

const IN = 0;
const COUNT = 1;
const OUT = 2;
const ST = 3;
const PARAMS: ValType[] = [I32, I32, I32, I32];

/** Local indices of one function: four i32 params, `i32Count` i32 locals, then the v128 temporaries. */
class Locals {
  /** One row of ρπ output; θ column parities (this round's and the next's, alternating); θ effect per column. */
  readonly B: number;
  readonly C: number;
  readonly N: number;
  readonly D: number;
  /** One scratch v128. */
  readonly T: number;
  /** The permutation's round-constant pointer (an i32, after the caller's `i32Count`). */
  readonly R: number;
  readonly types: ValType[];

  constructor(readonly i32Count: number) {
    this.R = PARAMS.length + i32Count;
    const first = PARAMS.length + i32Count + 1;
    this.B = first;
    this.C = first + 5;
    this.N = first + 10;
    this.D = first + 15;
    this.T = first + 20;
    this.types = [...new Array<ValType>(i32Count + 1).fill(I32), ...new Array<ValType>(21).fill(V128)];
  }
  /** The k-th i32 local after the params. */
  i32Local(k: number): number {
    return PARAMS.length + k;
  }
}

/** Pushes state lane `lane` of the copy at `copy` (A or E). */
function emitLoadLane(w: CodeWriter, copy: number, lane: number): void {
  w.get(ST).simdMem(Simd.v128Load, 4, copy + lane * 16);
}

/** rotl by `r` on both 64-bit lanes of the v128 on the stack, through local `tmp` (no SIMD rotate: shl, shr, or). */
function emitRotlTop(w: CodeWriter, tmp: number, r: number): void {
  w.set(tmp)
    .get(tmp)
    .i32(r)
    .simd(Simd.i64x2Shl)
    .get(tmp)
    .i32(64 - r)
    .simd(Simd.i64x2ShrU)
    .simd(Simd.v128Or);
}

/** One round from the state copy at `S` into the copy at `O`: θ from the parities in locals `C`, χ accumulating
 * the next round's parities into locals `N`; ι's constant pushed by `pushRoundConstant`. */
function emitRound(w: CodeWriter, l: Locals, S: number, O: number, C: number, N: number, pushRoundConstant: () => void): void {
  const { B, D, T } = l;
  // θ: D[x] = C[x-1] ^ rotl(C[x+1], 1).
  for (let x = 0; x < 5; x++) {
    w.get(C + ((x + 4) % 5)).get(C + ((x + 1) % 5));
    emitRotlTop(w, D + x, 1);
    w.simd(Simd.v128Xor).set(D + x);
  }
  for (let Y = 0; Y < 5; Y++) {
    // θ's xor, ρ (rotate) and π: lane (x, y) moves to (y, 2x + 3y), so output row Y, column X comes from
    // lane (X + 3Y mod 5, X).
    for (let X = 0; X < 5; X++) {
      const x = (X + 3 * Y) % 5;
      const from = x + 5 * X;
      const r = ROTATION_OFFSETS[from];
      emitLoadLane(w, S, from);
      w.get(D + x).simd(Simd.v128Xor);
      if (r !== 0) emitRotlTop(w, B + X, r);
      w.set(B + X);
    }
    // χ: O[X, Y] = B[X] ^ (~B[X+1] & B[X+2]); ι on lane (0, 0); the next round's parities N[X] ^= O[X, Y].
    for (let X = 0; X < 5; X++) {
      w.get(ST);
      w.get(B + X)
        .get(B + ((X + 2) % 5))
        .get(B + ((X + 1) % 5))
        .simd(Simd.v128AndNot)
        .simd(Simd.v128Xor);
      if (X === 0 && Y === 0) {
        pushRoundConstant();
        w.simd(Simd.v128Xor);
      }
      if (Y === 0) w.tee(N + X);
      else
        w.tee(T)
          .get(N + X)
          .get(T)
          .simd(Simd.v128Xor)
          .set(N + X);
      w.simdMem(Simd.v128Store, 4, O + (X + 5 * Y) * 16);
    }
  }
}

/**
 * keccak-f[1600] on the two states in the scratch at ST (copy A), one output row at a time (as the Keccak team's
 * XKCP does), so only 5 ρπ lanes are live at once. A loop of 12 passes of two rounds (A → E → A), the round
 * constants read from the table at RC_AT: fully unrolled, the 24 rounds were ~48 KB of machine code per
 * permutation (96 KB for `leaves`) — more than a core's 32 KB instruction cache — and ran 1.7–2× slower.
 */
function emitPermutation(w: CodeWriter, l: Locals): void {
  // θ parities of the input: C[x] = xor of column x.
  for (let x = 0; x < 5; x++) {
    emitLoadLane(w, A, x);
    for (let y = 1; y < 5; y++) {
      emitLoadLane(w, A, x + 5 * y);
      w.simd(Simd.v128Xor);
    }
    w.set(l.C + x);
  }
  // R = ST + 8 × round: the constants' address, stepping 16 bytes (two rounds) per pass.
  w.get(ST).set(l.R);
  w.op(Op.loop, VOID_BLOCK);
  emitRound(w, l, A, E, l.C, l.N, () => w.get(l.R).simdMem(Simd.v128Load64Splat, 3, RC_AT));
  emitRound(w, l, E, A, l.N, l.C, () => w.get(l.R).simdMem(Simd.v128Load64Splat, 3, RC_AT + 8));
  w.get(l.R)
    .i32(16)
    .op(Op.i32Add)
    .tee(l.R)
    .get(ST)
    .i32(24 * 8)
    .op(Op.i32Add)
    .op(Op.i32LtU)
    .br(Op.brIf, 0);
  w.op(Op.end);
}

/** Writes the round-constant table into this thread's scratch (each export does, first: the scratch is per thread). */
function emitRoundConstantTable(w: CodeWriter): void {
  ROUND_CONSTANTS.forEach((rc, round) =>
    w
      .get(ST)
      .i64(rc)
      .mem(Op.i64Store, 3, RC_AT + round * 8),
  );
}

/** Stores a v128 with `value` in both 64-bit lanes into state lane `lane` (copy A). */
function emitSetLane(w: CodeWriter, lane: number, value: bigint): void {
  w.get(ST)
    .v128Splat64(value)
    .simdMem(Simd.v128Store, 4, A + lane * 16);
}

/** Sets lanes `from..24` to zero, except lane 16 which gets the end-of-padding bit. */
function emitZeroTail(w: CodeWriter, from: number): void {
  for (let lane = from; lane < 25; lane++) emitSetLane(w, lane, lane === 16 ? PAD_END : 0n);
}

/**
 * Pushes message lane `lane` of two inputs: bytes [8 lane, +8) at pointer p0 into SIMD lane 0, at p1 into SIMD
 * lane 1 (`bytes` = 4 loads only the low half, zero-extended).
 */
function emitLoadPair(w: CodeWriter, p0: number, p1: number, offset: number, bytes: 4 | 8 = 8): void {
  w.get(p1).get(p0);
  if (bytes === 8) w.simdMem(Simd.v128Load64Zero, 3, offset).simdMem(Simd.v128Load64Lane, 3, offset, 1);
  else w.simdMem(Simd.v128Load32Zero, 2, offset).simdMem(Simd.v128Load32Lane, 2, offset, 2);
}

/** Stores the 32-byte digest of SIMD lane 0 (state lanes 0..3) at OUT, and of SIMD lane 1 at OUT + 32 if local `two`. */
function emitStoreDigests(w: CodeWriter, l: Locals, two: number): void {
  for (let lane = 0; lane < 4; lane++) {
    w.get(OUT);
    emitLoadLane(w, A, lane);
    w.tee(l.B + lane).simdMem(Simd.v128Store64Lane, 3, lane * 8, 0);
  }
  w.get(two).op(Op.if, VOID_BLOCK);
  for (let lane = 0; lane < 4; lane++)
    w.get(OUT)
      .get(l.B + lane)
      .simdMem(Simd.v128Store64Lane, 3, 32 + lane * 8, 1);
  w.op(Op.end);
}

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
  emitRoundConstantTable(w);
  emitPairwise(w, two, () => {
    emitSecond(w, in1, IN, LEAF_PREIMAGE_BYTES, two);
    // First hash: the 84-byte preimage is lanes 0..9 plus 4 bytes of lane 10; keccak's 0x01 padding byte
    // follows them at byte 84 (bit 32 of lane 10).
    for (let lane = 0; lane < 10; lane++) {
      w.get(ST);
      emitLoadPair(w, IN, in1, lane * 8);
      w.simdMem(Simd.v128Store, 4, A + lane * 16);
    }
    w.get(ST);
    emitLoadPair(w, IN, in1, 80, 4);
    w.v128Splat64(1n << 32n)
      .simd(Simd.v128Or)
      .simdMem(Simd.v128Store, 4, A + 10 * 16);
    emitZeroTail(w, 11);
    emitPermutation(w, l);
    // Second hash: the 32-byte digest (lanes 0..3, kept in place) then the padding byte in lane 4.
    emitSetLane(w, 4, 1n);
    emitZeroTail(w, 5);
    emitPermutation(w, l);
    emitStoreAndAdvance(w, l, two, 2 * LEAF_PREIMAGE_BYTES);
  });
  return { name: "leaves", params: PARAMS, locals: l.types, body: w };
}

/** Stores the pass's digests, then moves IN by `inStride` and OUT by two digests. */
function emitStoreAndAdvance(w: CodeWriter, l: Locals, two: number, inStride: number): void {
  emitStoreDigests(w, l, two);
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
  emitRoundConstantTable(w);
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
      w.get(ST);
      emitLoadPair(w, first0, first1, lane * 8);
      w.simdMem(Simd.v128Store, 4, A + lane * 16);
      w.get(ST);
      emitLoadPair(w, second0, second1, lane * 8);
      w.simdMem(Simd.v128Store, 4, A + (4 + lane) * 16);
    }
    emitSetLane(w, 8, 1n); // padding byte after the 64-byte message
    emitZeroTail(w, 9);
    emitPermutation(w, l);
    emitStoreAndAdvance(w, l, two, 128);
  });
  w.op(Op.end);
  // Odd node: copied unchanged (both halves loaded before either is stored, so in place is fine).
  w.get(odd).op(Op.if, VOID_BLOCK);
  w.get(oddOut).get(oddIn).simdMem(Simd.v128Load, 0, 0).set(l.B);
  w.get(oddIn)
    .simdMem(Simd.v128Load, 0, 16)
    .set(l.B + 1);
  w.get(l.B).simdMem(Simd.v128Store, 0, 0);
  w.get(oddOut)
    .get(l.B + 1)
    .simdMem(Simd.v128Store, 0, 16);
  w.op(Op.end);
  return { name: "level", params: PARAMS, locals: l.types, body: w };
}

function spongeFunction(): FunctionDef {
  const l = new Locals(1);
  const two = l.i32Local(0); // stays 0: only SIMD lane 0's digest is stored
  const w = new CodeWriter();
  emitRoundConstantTable(w);
  emitZeroTail(w, 0);
  emitSetLane(w, 16, 0n); // the caller's padding carries the end bit
  w.get(COUNT).op(Op.i32Eqz).op(Op.if, VOID_BLOCK).op(Op.br, 1).op(Op.end);
  w.op(Op.loop, VOID_BLOCK);
  for (let lane = 0; lane < RATE_BYTES / 8; lane++) {
    w.get(ST);
    emitLoadLane(w, A, lane);
    w.get(IN)
      .simdMem(Simd.v128Load64Zero, 3, lane * 8)
      .simd(Simd.v128Xor)
      .simdMem(Simd.v128Store, 4, A + lane * 16);
  }
  emitPermutation(w, l);
  w.get(IN).i32(RATE_BYTES).op(Op.i32Add).set(IN);
  w.get(COUNT).i32(1).op(Op.i32Sub).tee(COUNT).br(Op.brIf, 0);
  w.op(Op.end);
  emitStoreDigests(w, l, two);
  return { name: "sponge", params: PARAMS, locals: l.types, body: w };
}

/** WebAssembly pages (64 KiB) the module declares as its memory's maximum. */
export const MAX_PAGES = 16384; // 1 GiB: far more than the bounded work buffers need

/** The module's bytes: deterministic, same for every call. */
export function keccakModuleBytes(shared: boolean): Uint8Array {
  return encodeModule([leavesFunction(), levelFunction(), spongeFunction()], { minPages: 1, maxPages: MAX_PAGES, shared });
}
