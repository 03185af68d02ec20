import type { Address } from "viem";

/** One ledger movement: `amount` (> 0) of `assetId` moves from `from` to `to`. The supply account may be either side. */
export interface Movement {
  readonly from: Address;
  readonly to: Address;
  readonly assetId: bigint;
  readonly amount: bigint;
}

/** One non-zero balance of a non-supply account. */
export interface LedgerEntry {
  readonly account: Address;
  readonly assetId: bigint;
  readonly balance: bigint;
}

/** Smallest and largest balances the leaf encoding (int256) can hold. */
export const INT256_MIN = -(1n << 255n);
export const INT256_MAX = (1n << 255n) - 1n;
