import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import fc from "fast-check";
import { keccak256 } from "viem"; // viem's keccak256 is @noble/hashes' keccak_256
import { loadKeccak256, loadedKeccak256 } from "./keccak";
import { payloadHashOf } from "../journal/commitment";
import { keccakModuleBytes, ROTATION_OFFSETS, ROUND_CONSTANTS } from "./keccak-wasm";
import { LEAF_PREIMAGE_BYTES } from "./leaf";
import { buildLevels, rootOfLevels } from "./tree";
import { naiveRootOfLeaves } from "../test-support/naive-root";

const noble = (bytes: Uint8Array): Uint8Array => keccak256(bytes, "bytes");

/** Deterministic pseudo-random bytes (large inputs without fast-check's cost). */
function bytesOf(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = (seed * 2654435761) >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

function referenceLeaves(pre: Uint8Array, count: number): Uint8Array {
  const out = new Uint8Array(count * 32);
  for (let i = 0; i < count; i++) out.set(noble(noble(pre.subarray(i * LEAF_PREIMAGE_BYTES, (i + 1) * LEAF_PREIMAGE_BYTES))), i * 32);
  return out;
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

function referenceLevel(nodes: Uint8Array, count: number): Uint8Array {
  const out = new Uint8Array(((count + 1) >> 1) * 32);
  for (let i = 0; i + 1 < count; i += 2) {
    const a = nodes.subarray(i * 32, i * 32 + 32);
    const b = nodes.subarray(i * 32 + 32, i * 32 + 64);
    const pair = compareBytes(a, b) <= 0 ? [...a, ...b] : [...b, ...a];
    out.set(noble(Uint8Array.from(pair)), (i >> 1) * 32);
  }
  if (count & 1) out.set(nodes.subarray((count - 1) * 32, count * 32), (count >> 1) * 32);
  return out;
}

/** Nodes with shared prefixes and equal pairs, so the byte-wise ordering is exercised past the first byte. */
function nodesOf(count: number, seed: number): Uint8Array {
  const nodes = bytesOf(count * 32, seed);
  for (let i = 0; i + 1 < count; i += 2) {
    const prefix = (seed + i) % 34; // 0..33 shared leading bytes (32 or more: an equal pair)
    nodes.copyWithin((i + 1) * 32, i * 32, i * 32 + Math.min(prefix, 32));
  }
  return nodes;
}

const countArb = fc.oneof(fc.constantFrom(0, 1, 2, 3, 4, 5, 7), fc.integer({ min: 0, max: 300 }));

describe("batch keccak (WebAssembly)", () => {
  it("uses the FIPS 202 round constants and rotation offsets", () => {
    assert.deepEqual(ROUND_CONSTANTS.slice(0, 4), [0x1n, 0x8082n, 0x800000000000808an, 0x8000000080008000n]);
    assert.equal(ROUND_CONSTANTS[23], 0x8000000080008008n);
    assert.deepEqual(ROTATION_OFFSETS, [0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14]);
  });

  it("builds the same module bytes every time", () => {
    assert.deepEqual(keccakModuleBytes(true), keccakModuleBytes(true));
  });

  it("hashInto equals keccak_256 for any length (multi-block, 135/136-byte boundaries)", async () => {
    const k = await loadKeccak256();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.uint8Array({ maxLength: 500 }),
          fc.constantFrom(134, 135, 136, 137, 271, 272).map((n) => bytesOf(n, n)),
        ),
        fc.nat(7),
        async (msg, pad) => {
          const input = new Uint8Array(pad + msg.length);
          input.set(msg, pad);
          const out = new Uint8Array(40);
          k.hashInto(input, pad, msg.length, out, 3);
          assert.deepEqual(out.subarray(3, 35), noble(msg));
        },
      ),
      { numRuns: 200 },
    );
  });

  it("payloadHashOf (the WebAssembly engine once loaded) equals viem's keccak256, batch-sized payloads too", async () => {
    await loadKeccak256();
    assert.ok(loadedKeccak256() !== null);
    for (const n of [0, 1, 135, 136, 137, 320_000, 1_000_003]) assert.equal(payloadHashOf(bytesOf(n, n + 7)), keccak256(bytesOf(n, n + 7)), `${n} bytes`);
  });

  it("hashLeaves equals keccak_256(keccak_256(preimage)) for 0, 1, 2, 3, odd and random counts", async () => {
    const k = await loadKeccak256();
    await fc.assert(
      fc.asyncProperty(countArb, fc.nat(), async (count, seed) => {
        const pre = bytesOf(count * LEAF_PREIMAGE_BYTES, seed);
        const out = new Uint8Array(count * 32 + 64).fill(0xee);
        k.hashLeaves(pre, count, out, 32);
        assert.deepEqual(out.subarray(32, 32 + count * 32), referenceLeaves(pre, count));
        assert.ok(out.subarray(0, 32).every((b) => b === 0xee) && out.subarray(32 + count * 32).every((b) => b === 0xee), "wrote outside its range");
      }),
      { numRuns: 60 },
    );
  });

  it("hashLeaves over several chunks and both threads (large odd count)", async () => {
    const k = await loadKeccak256();
    const count = 40_001;
    const pre = bytesOf(count * LEAF_PREIMAGE_BYTES, 99);
    const out = new Uint8Array(count * 32);
    k.hashLeaves(pre, count, out);
    assert.deepEqual(out, referenceLeaves(pre, count));
  });

  it("hashLevel hashes sorted pairs and promotes the odd node, for small and large counts", async () => {
    const k = await loadKeccak256();
    await fc.assert(
      fc.asyncProperty(countArb, fc.nat(), async (count, seed) => {
        const nodes = nodesOf(count, seed);
        const out = new Uint8Array(((count + 1) >> 1) * 32);
        k.hashLevel(nodes, count, out);
        assert.deepEqual(out, referenceLevel(nodes, count));
      }),
      { numRuns: 80 },
    );
    for (const count of [32_768, 65_537, 70_002]) {
      const nodes = nodesOf(count, count);
      const out = new Uint8Array(((count + 1) >> 1) * 32);
      k.hashLevel(nodes, count, out);
      assert.deepEqual(out, referenceLevel(nodes, count), `count ${count}`);
    }
  });

  it("hashSortedPairInto is the commutative pair hash", async () => {
    const k = await loadKeccak256();
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 64, maxLength: 64 }), fc.boolean(), async (pair, equal) => {
        if (equal) pair.copyWithin(32, 0, 32);
        const ab = new Uint8Array(32);
        const ba = new Uint8Array(32);
        k.hashSortedPairInto(pair, 0, 32, ab, 0);
        k.hashSortedPairInto(pair, 32, 0, ba, 0);
        assert.deepEqual(ab, referenceLevel(pair, 2));
        assert.deepEqual(ba, ab);
      }),
      { numRuns: 100 },
    );
  });

  it("a large tree's root equals the naive level-by-level root", async () => {
    const k = await loadKeccak256();
    const count = 5_001;
    const leaves = bytesOf(count * 32, 7);
    const hex = Array.from({ length: count }, (_, i) => `0x${Buffer.from(leaves.subarray(i * 32, i * 32 + 32)).toString("hex")}` as const);
    assert.equal(rootOfLevels(buildLevels(k, leaves, count)), naiveRootOfLeaves(hex));
  });

  it("gives the same root on one thread (DECODER_MERKLE_THREADS=1)", async () => {
    const script = `
      const { loadKeccak256, buildLevels, rootOfLevels } = require(${JSON.stringify(join(__dirname, "..", "index.ts"))});
      const leaves = new Uint8Array(70001 * 32).map((_, i) => (i * 2654435761) >>> 24);
      loadKeccak256().then((k) => process.stdout.write(rootOfLevels(buildLevels(k, leaves, 70001))));
    `;
    const roots = ["1", "2"].map((threads) => {
      const r = spawnSync(process.execPath, ["--import", "tsx", "-e", script], {
        env: { ...process.env, DECODER_MERKLE_THREADS: threads },
        encoding: "utf8",
        timeout: 60_000,
      });
      assert.equal(r.status, 0, r.stderr);
      return r.stdout;
    });
    assert.match(roots[0], /^0x[0-9a-f]{64}$/);
    assert.equal(roots[0], roots[1]);
  });
});
