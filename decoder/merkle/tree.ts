/**
 * The ledger's Merkle tree: built level by level over the leaves in the given order; node = keccak256 of the
 * sorted pair; an odd last node is promoted unchanged to the next level; the empty tree's root is 32 zero bytes.
 * Proofs list the siblings bottom-up, skipping levels where the node was promoted, so OpenZeppelin's
 * `MerkleProof.verify` (sequential sorted-pair hashing) accepts them.
 */
import { bytesToHex, hexToBytes, type Hex } from "viem";
import type { Keccak256 } from "./keccak";

/** 32 zero bytes: the root of an empty ledger. */
export const EMPTY_ROOT: Hex = `0x${"00".repeat(32)}`;

/** All levels of a tree; `levels[0]` holds the leaves, the last level the root. Each level is packed 32-byte nodes. */
export interface MerkleLevels {
  readonly levels: Uint8Array[];
  readonly leafCount: number;
}

/** Builds every level above `leaves` (n packed 32-byte leaf hashes; the array is kept, not copied). */
export function buildLevels(keccak: Keccak256, leaves: Uint8Array, leafCount: number): MerkleLevels {
  const levels: Uint8Array[] = [leaves.subarray(0, leafCount * 32)];
  let current = levels[0];
  let size = leafCount;
  while (size > 1) {
    const nextSize = (size + 1) >> 1;
    const next = new Uint8Array(nextSize * 32);
    keccak.hashLevel(current, size, next);
    levels.push(next);
    current = next;
    size = nextSize;
  }
  return { levels, leafCount };
}

/** The root of built levels ({@link EMPTY_ROOT} when there is no leaf). */
export function rootOfLevels(tree: MerkleLevels): Hex {
  if (tree.leafCount === 0) return EMPTY_ROOT;
  return bytesToHex(tree.levels[tree.levels.length - 1].subarray(0, 32));
}

/** The proof of leaf `index`: siblings bottom-up, none for a level where the node is the promoted odd one. */
export function proofOfIndex(tree: MerkleLevels, index: number): Hex[] {
  if (!Number.isInteger(index) || index < 0 || index >= tree.leafCount) {
    throw new RangeError(`leaf index ${index} outside 0..${tree.leafCount - 1}`);
  }
  const proof: Hex[] = [];
  let i = index;
  for (let level = 0; level < tree.levels.length - 1; level++) {
    const size = tree.levels[level].length / 32;
    const sibling = i ^ 1;
    if (sibling < size) proof.push(bytesToHex(tree.levels[level].subarray(sibling * 32, sibling * 32 + 32)));
    i >>= 1;
  }
  return proof;
}

/** Root over hex leaves, in the given order. */
export function merkleRootOf(keccak: Keccak256, leaves: readonly Hex[]): Hex {
  const packed = new Uint8Array(leaves.length * 32);
  leaves.forEach((leaf, i) => packed.set(hexToBytes(leaf), i * 32));
  return rootOfLevels(buildLevels(keccak, packed, leaves.length));
}
