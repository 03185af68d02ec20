/**
 * A TypeScript port of OpenZeppelin's `MerkleProof.processProof` / `verify` (sorted-pair keccak256), used to
 * check proofs exactly as the chain would. Slow (viem keccak, hex); meant for verification and tests.
 */
import { concat, hexToBigInt, keccak256, type Hex } from "viem";

/** OZ `Hashes.commutativeKeccak256`: keccak256 of the pair ordered as uint256. */
export function commutativeKeccak256(a: Hex, b: Hex): Hex {
  return hexToBigInt(a) < hexToBigInt(b) ? keccak256(concat([a, b])) : keccak256(concat([b, a]));
}

/** OZ `MerkleProof.processProof`: folds the proof into the leaf, bottom-up. */
export function processProof(proof: readonly Hex[], leaf: Hex): Hex {
  let computed = leaf;
  for (const sibling of proof) computed = commutativeKeccak256(computed, sibling);
  return computed;
}

/** OZ `MerkleProof.verify`. */
export function verifyProof(proof: readonly Hex[], root: Hex, leaf: Hex): boolean {
  return processProof(proof, leaf).toLowerCase() === root.toLowerCase();
}
