import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { SimpleMerkleTree } from "@openzeppelin/merkle-tree";
import { keccak256, numberToHex, type Hex } from "viem";
import { loadKeccak256 } from "./keccak";
import { buildLevels, EMPTY_ROOT, merkleRootOf, proofOfIndex, rootOfLevels } from "./tree";
import { processProof, verifyProof } from "./verify";
import { naiveRootOfLeaves } from "../test-support/naive-root";

const leafAt = (i: number, salt = 0): Hex => keccak256(numberToHex(i * 1_000_003 + salt, { size: 32 }));

function packed(leaves: Hex[]): Uint8Array {
  const out = new Uint8Array(leaves.length * 32);
  leaves.forEach((l, i) => out.set(Buffer.from(l.slice(2), "hex"), i * 32));
  return out;
}

describe("merkle tree", () => {
  it("empty tree has the zero root", async () => {
    const k = await loadKeccak256();
    assert.equal(merkleRootOf(k, []), EMPTY_ROOT);
  });

  it("single leaf is its own root with an empty proof", async () => {
    const k = await loadKeccak256();
    const tree = buildLevels(k, packed([leafAt(1)]), 1);
    assert.equal(rootOfLevels(tree), leafAt(1));
    assert.deepEqual(proofOfIndex(tree, 0), []);
  });

  it("matches OpenZeppelin SimpleMerkleTree for power-of-two sizes (where the layouts coincide)", async () => {
    const k = await loadKeccak256();
    for (const n of [1, 2, 4, 8, 16, 64, 256]) {
      const leaves = Array.from({ length: n }, (_, i) => leafAt(i, n));
      const oz = SimpleMerkleTree.of(leaves, { sortLeaves: false });
      assert.equal(merkleRootOf(k, leaves), oz.root, `n=${n}`);
    }
  });

  it("matches the naive level-by-level root and every proof verifies (OZ processProof port)", async () => {
    const k = await loadKeccak256();
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 70 }), fc.integer({ min: 0, max: 1000 }), async (n, salt) => {
        const leaves = Array.from({ length: n }, (_, i) => leafAt(i, salt));
        const tree = buildLevels(k, packed(leaves), n);
        const root = rootOfLevels(tree);
        assert.equal(root, naiveRootOfLeaves(leaves));
        for (let i = 0; i < n; i++) assert.ok(verifyProof(proofOfIndex(tree, i), root, leaves[i]), `leaf ${i} of ${n}`);
      }),
      { numRuns: 60 },
    );
  });

  it("a proof fails for a different leaf", async () => {
    const k = await loadKeccak256();
    const leaves = Array.from({ length: 7 }, (_, i) => leafAt(i));
    const tree = buildLevels(k, packed(leaves), 7);
    assert.notEqual(processProof(proofOfIndex(tree, 2), leaves[3]), rootOfLevels(tree));
  });

  it("rejects an index outside the tree", async () => {
    const k = await loadKeccak256();
    const tree = buildLevels(k, packed([leafAt(0), leafAt(1)]), 2);
    assert.throws(() => proofOfIndex(tree, 2), RangeError);
  });
});
