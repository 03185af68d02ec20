/**
 * Leaf encoding of the ledger tree:
 *   leaf = keccak256(keccak256(abi.encodePacked(address account, uint256 assetId, int256 balance)))
 * The preimage is 84 bytes: 20 (account) + 32 (asset id, big-endian) + 32 (balance, two's complement).
 */
import { encodePacked, keccak256, type Address, type Hex } from "viem";

/** Length of the packed leaf preimage. */
export const LEAF_PREIMAGE_BYTES = 84;

const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;
const UINT64_MAX = (1n << 64n) - 1n;
const MASK64 = UINT64_MAX;

/** Writes `value` as a 32-byte big-endian two's-complement word at `offset` (int256 or uint256 range). */
export function writeWord(view: DataView, bytes: Uint8Array, offset: number, value: bigint): void {
  // Fast path: almost every balance and asset id fits in 64 bits.
  if (value >= INT64_MIN && value <= INT64_MAX) {
    bytes.fill(value < 0n ? 0xff : 0, offset, offset + 24);
    view.setBigInt64(offset + 24, value);
    return;
  }
  if (value > INT64_MAX && value <= UINT64_MAX) {
    bytes.fill(0, offset, offset + 24);
    view.setBigUint64(offset + 24, value);
    return;
  }
  let x = BigInt.asUintN(256, value);
  for (let word = 3; word >= 0; word--) {
    view.setBigUint64(offset + word * 8, x & MASK64);
    x >>= 64n;
  }
}

/** Writes the 84-byte preimage of one leaf at `offset`. */
export function writeLeafPreimage(
  view: DataView,
  bytes: Uint8Array,
  offset: number,
  accountBytes: Uint8Array,
  assetId: bigint,
  balance: bigint,
): void {
  bytes.set(accountBytes, offset);
  writeWord(view, bytes, offset + 20, assetId);
  writeWord(view, bytes, offset + 52, balance);
}

/** Reference leaf hash with viem (slow, obviously correct): used for vectors, proofs and tests. */
export function leafHashOf(account: Address, assetId: bigint, balance: bigint): Hex {
  return keccak256(keccak256(encodePacked(["address", "uint256", "int256"], [account, assetId, balance])));
}
