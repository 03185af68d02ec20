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

/**
 * Writes `value` as a 32-byte big-endian two's-complement word at `offset` (int256 or uint256 range). DataView
 * writes only: they compile to plain stores, where a per-word `Uint8Array.set`/`fill` is a call each.
 */
export function writeWord(view: DataView, offset: number, value: bigint): void {
  // Fast path: almost every balance and asset id fits in 64 bits; the 24 high bytes are its sign.
  if (value >= INT64_MIN && value <= UINT64_MAX) {
    const sign = value < 0n ? -1 : 0;
    view.setInt32(offset, sign);
    view.setInt32(offset + 4, sign);
    view.setInt32(offset + 8, sign);
    view.setInt32(offset + 12, sign);
    view.setInt32(offset + 16, sign);
    view.setInt32(offset + 20, sign);
    if (value <= INT64_MAX) view.setBigInt64(offset + 24, value);
    else view.setBigUint64(offset + 24, value);
    return;
  }
  let x = BigInt.asUintN(256, value);
  for (let word = 3; word >= 0; word--) {
    view.setBigUint64(offset + word * 8, x & MASK64);
    x >>= 64n;
  }
}

/** An account's 20 bytes as five big-endian 32-bit words, for {@link writeLeafPreimage}. */
export function accountWords(account: Address): Int32Array {
  const words = new Int32Array(5);
  for (let i = 0; i < 5; i++) words[i] = Number.parseInt(account.slice(2 + i * 8, 10 + i * 8), 16) | 0;
  return words;
}

/** Writes the 84-byte preimage of one leaf at `offset` (`account` from {@link accountWords}). */
export function writeLeafPreimage(view: DataView, offset: number, account: Int32Array, assetId: bigint, balance: bigint): void {
  view.setInt32(offset, account[0]);
  view.setInt32(offset + 4, account[1]);
  view.setInt32(offset + 8, account[2]);
  view.setInt32(offset + 12, account[3]);
  view.setInt32(offset + 16, account[4]);
  writeWord(view, offset + 20, assetId);
  writeWord(view, offset + 52, balance);
}

/** Reference leaf hash with viem (slow, obviously correct): used for vectors, proofs and tests. */
export function leafHashOf(account: Address, assetId: bigint, balance: bigint): Hex {
  return keccak256(keccak256(encodePacked(["address", "uint256", "int256"], [account, assetId, balance])));
}
