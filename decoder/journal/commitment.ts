import { encodePacked, keccak256, type Hex } from "viem";
import { keccak256Of } from "../merkle/keccak";

/** Genesis value of the ledger root and of the journal commitment. */
export const ZERO_HASH: Hex = `0x${"00".repeat(32)}`;

/**
 * The journal commitment after a batch:
 * keccak256(abi.encodePacked(bytes32 prev, uint64 nonce, bytes32 newRoot, bytes32 payloadHash)),
 * where `nonce` is the batch's expectedNonce and `payloadHash` = keccak256(payload).
 */
export function journalCommitmentOf(prev: Hex, nonce: bigint, newRoot: Hex, payloadHash: Hex): Hex {
  return keccak256(encodePacked(["bytes32", "uint64", "bytes32", "bytes32"], [prev, nonce, newRoot, payloadHash]));
}

/** keccak256 of a batch's payload (../merkle/keccak.ts `keccak256Of`: the WebAssembly engine once it is loaded). */
export function payloadHashOf(payload: Uint8Array): Hex {
  return keccak256Of(payload);
}
