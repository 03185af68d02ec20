/**
 * A deliberately naive root per the spec's rule (viem keccak, hex strings, level by level), used by tests to
 * check the fast builder. Not exported from the package.
 */
import { concat, encodePacked, hexToBigInt, keccak256, type Address, type Hex } from "viem";

export function naiveLeaf(account: Address, assetId: bigint, balance: bigint): Hex {
  return keccak256(keccak256(encodePacked(["address", "uint256", "int256"], [account, assetId, balance])));
}

export function naiveRootOfLeaves(leaves: Hex[]): Hex {
  if (leaves.length === 0) return `0x${"00".repeat(32)}`;
  let level = leaves;
  while (level.length > 1) {
    const next: Hex[] = [];
    for (let i = 0; i + 1 < level.length; i += 2) {
      const [a, b] = hexToBigInt(level[i]) <= hexToBigInt(level[i + 1]) ? [level[i], level[i + 1]] : [level[i + 1], level[i]];
      next.push(keccak256(concat([a, b])));
    }
    if (level.length % 2 === 1) next.push(level[level.length - 1]);
    level = next;
  }
  return level[0];
}

/** Root of balances given in any order: drops zero balances and the supply account, sorts, hashes. */
export function naiveRoot(balances: { account: string; assetId: bigint; balance: bigint }[]): Hex {
  const rows = balances
    .filter((b) => b.balance !== 0n && hexToBigInt(b.account as Hex) !== 0n)
    .map((b) => ({ ...b, account: b.account.toLowerCase() as Address }))
    .sort((x, y) => (x.account < y.account ? -1 : x.account > y.account ? 1 : x.assetId < y.assetId ? -1 : x.assetId > y.assetId ? 1 : 0));
  return naiveRootOfLeaves(rows.map((r) => naiveLeaf(r.account, r.assetId, r.balance)));
}
