/**
 * A minimal WebAssembly binary encoder: just the sections, types and instructions the keccak module uses
 * (spec: https://webassembly.github.io/spec/core/binary/). Emitting the binary directly keeps the build free of
 * any assembler dependency and of committed build outputs; the bytes are a pure function of the generator.
 */

export const I32 = 0x7f;
export const I64 = 0x7e;
export const V128 = 0x7b;
export type ValType = typeof I32 | typeof I64 | typeof V128;

/** Opcodes used by the generator (spec §5.4). Loads/stores take a memarg (align, offset) after the opcode. */
export const Op = {
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  end: 0x0b,
  br: 0x0c,
  brIf: 0x0d,
  select: 0x1b,
  localGet: 0x20,
  localSet: 0x21,
  localTee: 0x22,
  i32Load8U: 0x2d,
  i64Load: 0x29,
  i64Load32U: 0x35,
  i64Store: 0x37,
  i32Const: 0x41,
  i64Const: 0x42,
  i32Eqz: 0x45,
  i32Ne: 0x47,
  i32LtU: 0x49,
  i32GtS: 0x4a,
  i32GtU: 0x4b,
  i32Add: 0x6a,
  i32Sub: 0x6b,
  i32And: 0x71,
  i32Xor: 0x73,
  i32Shl: 0x74,
  i32ShrU: 0x76,
  i64And: 0x83,
  i64Or: 0x84,
  i64Xor: 0x85,
  i64Rotl: 0x89,
} as const;

/** SIMD opcodes (prefix 0xfd, then the number as unsigned LEB128; spec §5.4.8). `v128.andnot(a, b)` = a & ~b. */
export const Simd = {
  v128Load: 0x00,
  v128Load64Splat: 0x0a,
  v128Store: 0x0b,
  v128Const: 0x0c,
  v128And: 0x4e,
  v128AndNot: 0x4f,
  v128Or: 0x50,
  v128Xor: 0x51,
  v128Load32Lane: 0x56,
  v128Load64Lane: 0x57,
  v128Store64Lane: 0x5b,
  v128Load32Zero: 0x5c,
  v128Load64Zero: 0x5d,
  i64x2Shl: 0xcb,
  i64x2ShrU: 0xcd,
} as const;

/** Block type of a block/loop/if that takes and returns nothing. */
export const VOID_BLOCK = 0x40;

export function unsignedLeb(value: number): number[] {
  const out: number[] = [];
  let v = value >>> 0;
  do {
    let byte = v & 0x7f;
    v >>>= 7;
    if (v !== 0) byte |= 0x80;
    out.push(byte);
  } while (v !== 0);
  return out;
}

export function signedLeb(value: bigint): number[] {
  const out: number[] = [];
  let v = value;
  for (;;) {
    const byte = Number(v & 0x7fn);
    v >>= 7n; // arithmetic shift: keeps the sign
    const done = (v === 0n && (byte & 0x40) === 0) || (v === -1n && (byte & 0x40) !== 0);
    out.push(done ? byte : byte | 0x80);
    if (done) return out;
  }
}

/** Appends instructions to one function body. */
export class CodeWriter {
  readonly bytes: number[] = [];

  op(opcode: number, ...immediates: number[]): this {
    this.bytes.push(opcode, ...immediates);
    return this;
  }
  get(local: number): this {
    return this.op(Op.localGet, ...unsignedLeb(local));
  }
  set(local: number): this {
    return this.op(Op.localSet, ...unsignedLeb(local));
  }
  tee(local: number): this {
    return this.op(Op.localTee, ...unsignedLeb(local));
  }
  i32(value: number): this {
    return this.op(Op.i32Const, ...signedLeb(BigInt(value | 0)));
  }
  i64(value: bigint): this {
    return this.op(Op.i64Const, ...signedLeb(BigInt.asIntN(64, value)));
  }
  /** A load or store with its memarg; `alignLog2` is only a hint (unaligned access is valid). */
  mem(opcode: number, alignLog2: number, offset: number): this {
    return this.op(opcode, ...unsignedLeb(alignLog2), ...unsignedLeb(offset));
  }
  br(opcode: typeof Op.br | typeof Op.brIf, depth: number): this {
    return this.op(opcode, ...unsignedLeb(depth));
  }
  simd(opcode: number, ...immediates: number[]): this {
    return this.op(0xfd, ...unsignedLeb(opcode), ...immediates);
  }
  /** A SIMD load or store with its memarg, then the lane index for the `_lane` forms. */
  simdMem(opcode: number, alignLog2: number, offset: number, lane?: number): this {
    this.simd(opcode, ...unsignedLeb(alignLog2), ...unsignedLeb(offset));
    if (lane !== undefined) this.bytes.push(lane);
    return this;
  }
  /** A v128 constant with `value` in both 64-bit lanes (little-endian bytes). */
  v128Splat64(value: bigint): this {
    const lane: number[] = [];
    for (let i = 0n; i < 64n; i += 8n) lane.push(Number((value >> i) & 0xffn));
    return this.simd(Simd.v128Const, ...lane, ...lane);
  }
}

export interface FunctionDef {
  readonly name: string;
  readonly params: ValType[];
  /** Extra locals after the params, in order. */
  readonly locals: ValType[];
  readonly body: CodeWriter;
}

function vec(items: number[][]): number[] {
  return [...unsignedLeb(items.length), ...items.flat()];
}

function name(text: string): number[] {
  const bytes = [...Buffer.from(text, "utf8")];
  return [...unsignedLeb(bytes.length), ...bytes];
}

function section(id: number, content: number[]): number[] {
  return [id, ...unsignedLeb(content.length), ...content];
}

/** Run-length groups of equal types, as the code section declares locals. */
function localGroups(locals: ValType[]): number[][] {
  const groups: number[][] = [];
  for (let i = 0; i < locals.length; ) {
    let j = i;
    while (j < locals.length && locals[j] === locals[i]) j++;
    groups.push([...unsignedLeb(j - i), locals[i]]);
    i = j;
  }
  return groups;
}

/**
 * A module that imports its memory as `env.memory` (shared when `shared`, so worker threads can run the same
 * code over the same bytes) and exports every function, none of which returns a value.
 */
export function encodeModule(functions: FunctionDef[], memory: { minPages: number; maxPages: number; shared: boolean }): Uint8Array {
  const types = functions.map((f) => [0x60, ...vec(f.params.map((t) => [t])), ...vec([])]);
  const limits = [memory.shared ? 0x03 : 0x01, ...unsignedLeb(memory.minPages), ...unsignedLeb(memory.maxPages)];
  const imports = [[...name("env"), ...name("memory"), 0x02, ...limits]];
  const bodies = functions.map((f) => {
    const body = [...vec(localGroups(f.locals)), ...f.body.bytes, Op.end];
    return [...unsignedLeb(body.length), ...body];
  });
  const bytes = [
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00], // "\0asm", version 1
    ...section(1, vec(types)),
    ...section(2, vec(imports)),
    ...section(3, vec(functions.map((_, i) => unsignedLeb(i)))),
    ...section(7, vec(functions.map((f, i) => [...name(f.name), 0x00, ...unsignedLeb(i)]))),
    ...section(10, vec(bodies)),
  ];
  return Uint8Array.from(bytes);
}
