/**
 * Ledger state: balances per (account, asset) as bigint in int256 range, plus an incremental Merkle root.
 *
 * Accounts are kept in a sorted array (binary insertion on first balance, removal when all balances are zero),
 * so computing a root never sorts the whole ledger. Each account caches its leaf hashes; a movement marks only
 * the touched (account, asset) dirty, and `root()` re-hashes those leaves and rebuilds the internal levels.
 */
import { hexToBytes, type Address, type Hex } from "viem";
import { SUPPLY_ACCOUNT, normalizeAccount } from "../assets";
import { LedgerMovementError } from "../errors";
import { LEAF_PREIMAGE_BYTES, writeLeafPreimage } from "../merkle/leaf";
import { loadKeccak256, type Keccak256 } from "../merkle/keccak";
import { buildLevels, proofOfIndex, rootOfLevels, type MerkleLevels } from "../merkle/tree";
import { INT256_MAX, INT256_MIN, type LedgerEntry, type Movement } from "./movement";

interface AccountRecord {
  readonly account: Address;
  readonly bytes: Uint8Array;
  readonly balances: Map<bigint, bigint>;
  /** Leaf hash per non-zero asset; missing or stale for assets listed in `dirty`. */
  readonly leaves: Map<bigint, Uint8Array>;
  readonly dirty: Set<bigint>;
  /** Asset ids with non-zero balance, ascending; null when it must be recomputed. */
  sortedAssets: bigint[] | null;
}

/** Where one leaf sits in the last built tree. */
interface LeafPosition {
  readonly index: number;
  readonly balance: bigint;
}

function compareBigint(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Balances of the committed ledger with an incremental root builder. Not thread-safe; one writer. */
export class LedgerState {
  readonly #records = new Map<Address, AccountRecord>();
  /** Non-supply accounts with at least one non-zero balance, ascending. */
  readonly #sortedAccounts: Address[] = [];
  readonly #supply = new Map<bigint, bigint>();
  #dirtyAccounts = new Set<AccountRecord>();
  #tree: MerkleLevels | null = null;
  #positions: Map<Address, Map<bigint, LeafPosition>> | null = null;

  /** Balance of `account` in `assetId` (0 when none). */
  balanceOf(account: Address, assetId: bigint): bigint {
    const key = normalizeAccount(account);
    if (key === SUPPLY_ACCOUNT) return this.#supply.get(assetId) ?? 0n;
    return this.#records.get(key)?.balances.get(assetId) ?? 0n;
  }

  /** Applies one movement; throws {@link LedgerMovementError} (leaving the state unchanged) if it breaks a rule. */
  applyMovement(movement: Movement): void {
    const { assetId, amount } = movement;
    if (amount <= 0n) throw new LedgerMovementError(`movement amount must be > 0, got ${amount}`);
    if (assetId < 0n || assetId >= 1n << 256n) throw new LedgerMovementError(`asset id ${assetId} outside uint256`);
    const from = normalizeAccount(movement.from);
    const to = normalizeAccount(movement.to);
    if (from === to) return;
    const fromNext = this.balanceOf(from, assetId) - amount;
    const toNext = this.balanceOf(to, assetId) + amount;
    if (fromNext < INT256_MIN || toNext > INT256_MAX) {
      throw new LedgerMovementError(`movement of ${amount} of asset ${assetId} from ${from} to ${to} leaves int256`);
    }
    this.#set(from, assetId, fromNext);
    this.#set(to, assetId, toNext);
  }

  /** Applies movements in order. */
  applyMovements(movements: Iterable<Movement>): void {
    for (const m of movements) this.applyMovement(m);
  }

  /** Sets a balance directly (snapshot loading, tests). Bypasses the sum-to-zero bookkeeping of movements. */
  setBalance(account: Address, assetId: bigint, balance: bigint): void {
    if (balance < INT256_MIN || balance > INT256_MAX) throw new LedgerMovementError(`balance ${balance} outside int256`);
    this.#set(normalizeAccount(account), assetId, balance);
  }

  #set(account: Address, assetId: bigint, balance: bigint): void {
    if (account === SUPPLY_ACCOUNT) {
      if (balance === 0n) this.#supply.delete(assetId);
      else this.#supply.set(assetId, balance);
      return;
    }
    let record = this.#records.get(account);
    if (!record) {
      if (balance === 0n) return;
      record = { account, bytes: hexToBytes(account), balances: new Map(), leaves: new Map(), dirty: new Set(), sortedAssets: null };
      this.#records.set(account, record);
      this.#insertAccount(account);
    }
    const had = record.balances.has(assetId);
    if (balance === 0n) record.balances.delete(assetId);
    else record.balances.set(assetId, balance);
    if (had !== (balance !== 0n)) record.sortedAssets = null;
    record.dirty.add(assetId);
    this.#dirtyAccounts.add(record);
    this.#tree = null;
    if (record.balances.size === 0) {
      this.#records.delete(account);
      this.#removeAccount(account);
      this.#dirtyAccounts.delete(record);
    }
  }

  #indexOfAccount(account: Address): number {
    let lo = 0;
    let hi = this.#sortedAccounts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.#sortedAccounts[mid] < account) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  #insertAccount(account: Address): void {
    const n = this.#sortedAccounts.length;
    // Appending in ascending order (bulk loads) skips the search.
    if (n === 0 || this.#sortedAccounts[n - 1] < account) this.#sortedAccounts.push(account);
    else this.#sortedAccounts.splice(this.#indexOfAccount(account), 0, account);
  }

  #removeAccount(account: Address): void {
    const i = this.#indexOfAccount(account);
    if (this.#sortedAccounts[i] === account) this.#sortedAccounts.splice(i, 1);
  }

  #assetsOf(record: AccountRecord): bigint[] {
    record.sortedAssets ??= [...record.balances.keys()].sort(compareBigint);
    return record.sortedAssets;
  }

  /** Every non-zero balance of non-supply accounts, in leaf order (account ascending, then asset id). */
  entries(): LedgerEntry[] {
    const out: LedgerEntry[] = [];
    for (const account of this.#sortedAccounts) out.push(...this.accountEntries(account));
    return out;
  }

  /** The non-zero balances of one account, asset id ascending (the supply account's too, though it has no leaves). */
  accountEntries(account: Address): LedgerEntry[] {
    const key = normalizeAccount(account);
    if (key === SUPPLY_ACCOUNT) {
      return [...this.#supply.entries()].sort((a, b) => compareBigint(a[0], b[0])).map(([assetId, balance]) => ({ account: key, assetId, balance }));
    }
    const record = this.#records.get(key);
    if (!record) return [];
    return this.#assetsOf(record).map((assetId) => ({ account: key, assetId, balance: record.balances.get(assetId)! }));
  }

  /** Sum of every balance (supply included) of `assetId`: always 0 when only movements were applied. */
  totalOf(assetId: bigint): bigint {
    let total = this.#supply.get(assetId) ?? 0n;
    for (const record of this.#records.values()) total += record.balances.get(assetId) ?? 0n;
    return total;
  }

  /** Number of leaves (non-zero, non-supply balances). */
  get leafCount(): number {
    let n = 0;
    for (const record of this.#records.values()) n += record.balances.size;
    return n;
  }

  /** Re-hashes the dirty leaves in one batch: preimages into one buffer, then two keccak passes in place. */
  #rehashDirty(keccak: Keccak256): void {
    const jobs: { record: AccountRecord; assetId: bigint }[] = [];
    for (const record of this.#dirtyAccounts) {
      for (const assetId of record.dirty) {
        if (record.balances.has(assetId)) jobs.push({ record, assetId });
        else record.leaves.delete(assetId);
      }
      record.dirty.clear();
    }
    this.#dirtyAccounts = new Set();
    if (jobs.length === 0) return;
    const pre = new Uint8Array(jobs.length * LEAF_PREIMAGE_BYTES);
    const view = new DataView(pre.buffer);
    const hashes = new Uint8Array(jobs.length * 32);
    for (let i = 0; i < jobs.length; i++) {
      const { record, assetId } = jobs[i];
      writeLeafPreimage(view, pre, i * LEAF_PREIMAGE_BYTES, record.bytes, assetId, record.balances.get(assetId)!);
    }
    for (let i = 0; i < jobs.length; i++) keccak.hashInto(pre, i * LEAF_PREIMAGE_BYTES, LEAF_PREIMAGE_BYTES, hashes, i * 32);
    for (let i = 0; i < jobs.length; i++) keccak.hashInto(hashes, i * 32, 32, hashes, i * 32);
    for (let i = 0; i < jobs.length; i++) jobs[i].record.leaves.set(jobs[i].assetId, hashes.subarray(i * 32, i * 32 + 32));
  }

  async #ensureTree(): Promise<MerkleLevels> {
    if (this.#tree) return this.#tree;
    const keccak = await loadKeccak256();
    this.#rehashDirty(keccak);
    const count = this.leafCount;
    const leaves = new Uint8Array(count * 32);
    const positions = new Map<Address, Map<bigint, LeafPosition>>();
    let index = 0;
    for (const account of this.#sortedAccounts) {
      const record = this.#records.get(account)!;
      const own = new Map<bigint, LeafPosition>();
      for (const assetId of this.#assetsOf(record)) {
        leaves.set(record.leaves.get(assetId)!, index * 32);
        own.set(assetId, { index, balance: record.balances.get(assetId)! });
        index++;
      }
      positions.set(account, own);
    }
    this.#tree = buildLevels(keccak, leaves, count);
    this.#positions = positions;
    return this.#tree;
  }

  /** The ledger root (32 zero bytes when empty). Only changed leaves are re-hashed since the last call. */
  async root(): Promise<Hex> {
    return rootOfLevels(await this.#ensureTree());
  }

  /** Leaf hash and OpenZeppelin-compatible proof of one (account, asset); null when that balance is zero. */
  async proof(account: Address, assetId: bigint): Promise<{ leaf: Hex; proof: Hex[]; balance: bigint } | null> {
    const tree = await this.#ensureTree();
    const position = this.#positions!.get(normalizeAccount(account))?.get(assetId);
    if (!position) return null;
    const leafBytes = tree.levels[0].subarray(position.index * 32, position.index * 32 + 32);
    const leaf = `0x${Buffer.from(leafBytes).toString("hex")}` as Hex;
    return { leaf, proof: proofOfIndex(tree, position.index), balance: position.balance };
  }

  /** A deep copy (balances only; the copy re-hashes on its first root). */
  clone(): LedgerState {
    const copy = new LedgerState();
    for (const entry of this.entries()) copy.setBalance(entry.account, entry.assetId, entry.balance);
    for (const [assetId, balance] of this.#supply) copy.setBalance(SUPPLY_ACCOUNT, assetId, balance);
    return copy;
  }
}
