/**
 * Ledger state: balances per (account, asset) as bigint in int256 range, plus an incremental Merkle root.
 *
 * Accounts are kept in a sorted array (binary insertion on first balance, removal when all balances are zero),
 * so computing a root never sorts the whole ledger. Each account caches its leaf hashes; a movement marks only
 * the touched (account, asset) dirty, and `root()` re-hashes those leaves and rebuilds the internal levels.
 */
import { bytesToHex, hexToBytes, type Address, type Hex } from "viem";
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
  /** Leaf hashes packed in `sortedAssets` order; stale for assets in `dirty`, null when never hashed. */
  leafHashes: Uint8Array | null;
  readonly dirty: Set<bigint>;
  /** Asset ids with non-zero balance, ascending; null when it must be recomputed. */
  sortedAssets: bigint[] | null;
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
  /** Leaf index of the first asset of each sorted account in the last built tree (plus the total at the end). */
  #leafOffsets: Int32Array | null = null;

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
      record = { account, bytes: hexToBytes(account), balances: new Map(), leafHashes: null, dirty: new Set(), sortedAssets: null };
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

  /**
   * Re-hashes the dirty leaves in one batch: preimages into one buffer, then two keccak passes in place.
   * An account whose asset set changed gets all its leaves re-hashed (accounts hold few assets); otherwise only
   * its changed assets are.
   */
  #rehashDirty(keccak: Keccak256): void {
    // Struct of arrays: one object per leaf would feed the garbage collector on million-leaf ledgers.
    const jobRecords: AccountRecord[] = [];
    const jobAssets: bigint[] = [];
    const jobSlots: number[] = [];
    for (const record of this.#dirtyAccounts) {
      const reshaped = record.leafHashes === null || record.sortedAssets === null;
      const assets = this.#assetsOf(record);
      if (reshaped) {
        record.leafHashes = new Uint8Array(assets.length * 32);
        for (let slot = 0; slot < assets.length; slot++) {
          jobRecords.push(record);
          jobAssets.push(assets[slot]);
          jobSlots.push(slot);
        }
      } else {
        for (const assetId of record.dirty) {
          jobRecords.push(record);
          jobAssets.push(assetId);
          jobSlots.push(assets.indexOf(assetId));
        }
      }
      record.dirty.clear();
    }
    this.#dirtyAccounts = new Set();
    const n = jobRecords.length;
    if (n === 0) return;
    const pre = new Uint8Array(n * LEAF_PREIMAGE_BYTES);
    const view = new DataView(pre.buffer);
    for (let i = 0; i < n; i++) {
      const record = jobRecords[i];
      writeLeafPreimage(view, pre, i * LEAF_PREIMAGE_BYTES, record.bytes, jobAssets[i], record.balances.get(jobAssets[i])!);
    }
    for (let i = 0; i < n; i++) {
      const target = jobRecords[i].leafHashes!;
      keccak.hashInto(pre, i * LEAF_PREIMAGE_BYTES, LEAF_PREIMAGE_BYTES, pre, i * LEAF_PREIMAGE_BYTES);
      keccak.hashInto(pre, i * LEAF_PREIMAGE_BYTES, 32, target, jobSlots[i] * 32);
    }
  }

  async #ensureTree(): Promise<MerkleLevels> {
    if (this.#tree) return this.#tree;
    const keccak = await loadKeccak256();
    this.#rehashDirty(keccak);
    const accounts = this.#sortedAccounts;
    const offsets = new Int32Array(accounts.length + 1);
    for (let i = 0; i < accounts.length; i++) offsets[i + 1] = offsets[i] + this.#records.get(accounts[i])!.sortedAssets!.length;
    const count = offsets[accounts.length];
    const leaves = new Uint8Array(count * 32);
    for (let i = 0; i < accounts.length; i++) leaves.set(this.#records.get(accounts[i])!.leafHashes!, offsets[i] * 32);
    this.#tree = buildLevels(keccak, leaves, count);
    this.#leafOffsets = offsets;
    return this.#tree;
  }

  /** The ledger root (32 zero bytes when empty). Only changed leaves are re-hashed since the last call. */
  async root(): Promise<Hex> {
    return rootOfLevels(await this.#ensureTree());
  }

  /** Leaf hash and OpenZeppelin-compatible proof of one (account, asset); null when that balance is zero. */
  async proof(account: Address, assetId: bigint): Promise<{ leaf: Hex; proof: Hex[]; balance: bigint } | null> {
    const tree = await this.#ensureTree();
    const key = normalizeAccount(account);
    const record = this.#records.get(key);
    const slot = record ? this.#assetsOf(record).indexOf(assetId) : -1;
    if (!record || slot < 0) return null;
    const index = this.#leafOffsets![this.#indexOfAccount(key)] + slot;
    const leaf = bytesToHex(tree.levels[0].subarray(index * 32, index * 32 + 32));
    return { leaf, proof: proofOfIndex(tree, index), balance: record.balances.get(assetId)! };
  }

  /** A deep copy (balances only; the copy re-hashes on its first root). */
  clone(): LedgerState {
    const copy = new LedgerState();
    for (const entry of this.entries()) copy.setBalance(entry.account, entry.assetId, entry.balance);
    for (const [assetId, balance] of this.#supply) copy.setBalance(SUPPLY_ACCOUNT, assetId, balance);
    return copy;
  }
}
