/**
 * Ledger state: balances per (account, asset) as bigint in int256 range, plus an incremental Merkle root.
 *
 * Accounts are kept in a sorted array, brought up to date before it is read: accounts that appeared since are sorted
 * among themselves and merged in, accounts whose balances all went to zero are filtered out (one pass for any number
 * of them, where a splice per account made a market's payouts or a burst of new accounts quadratic). Each account's
 * non-zero balances sit in an array sorted by asset id (kept sorted as leaves appear and vanish). Leaf hashes are cached in the last built tree's leaf level; a movement
 * marks only the touched (account, asset) dirty, and `root()` copies the unchanged leaves over, re-hashes the
 * dirty ones (all of an account's when its set of assets changed) in batches, and rebuilds the internal levels.
 */
import { bytesToHex, type Address, type Hex } from "viem";
import { SUPPLY_ACCOUNT, normalizeAccount } from "../assets";
import { LedgerMovementError } from "../errors";
import { accountWords, LEAF_PREIMAGE_BYTES, writeLeafPreimage } from "../merkle/leaf";
import { loadKeccak256, type Keccak256 } from "../merkle/keccak";
import { buildLevels, proofOfIndex, rootOfLevels, type MerkleLevels } from "../merkle/tree";
import { INT256_MAX, INT256_MIN, type LedgerEntry, type Movement } from "./movement";

/** One non-zero balance of an account: a leaf. Mutated in place when the balance changes. */
interface Slot {
  readonly assetId: bigint;
  balance: bigint;
}

interface AccountRecord {
  readonly account: Address;
  /** The account's bytes as the leaf encoding writes them ({@link accountWords}). */
  readonly words: Int32Array;
  readonly balances: Map<bigint, Slot>;
  /** The same slots, asset id ascending: the account's leaves in tree order. */
  readonly slots: Slot[];
  /** Index of the account's first leaf in the last built tree; -1 before its first tree. */
  leafIndex: number;
  /** The set of assets changed since the last tree (a leaf appeared or vanished): every leaf is re-hashed. */
  reshaped: boolean;
  /** Slots whose balance changed since the last tree. */
  readonly dirty: Set<Slot>;
}

/** Index of the first slot with asset id ≥ `assetId`. */
function slotIndex(slots: readonly Slot[], assetId: bigint): number {
  let lo = 0;
  let hi = slots.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (slots[mid].assetId < assetId) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function compareBigint(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Balances of the committed ledger with an incremental root builder. Not thread-safe; one writer. */
export class LedgerState {
  readonly #records = new Map<Address, AccountRecord>();
  /**
   * Records of the non-supply accounts, account ascending: with {@link #fresh} and after dropping the records no longer
   * in #records, the accounts with at least one non-zero balance ({@link #ordered}).
   */
  #sorted: AccountRecord[] = [];
  /** Records created since #sorted was last brought up to date, in creation order. */
  #fresh: AccountRecord[] = [];
  /** Records removed (all balances zero) since then. */
  #removed = 0;
  readonly #supply = new Map<bigint, bigint>();
  #tree: MerkleLevels | null = null;
  /** The leaf level of the last built tree: the leaf-hash cache (`leafIndex` of each account points into it). */
  #leaves: Uint8Array = new Uint8Array(0);

  /** Balance of `account` in `assetId` (0 when none). */
  balanceOf(account: Address, assetId: bigint): bigint {
    const key = normalizeAccount(account);
    if (key === SUPPLY_ACCOUNT) return this.#supply.get(assetId) ?? 0n;
    return this.#records.get(key)?.balances.get(assetId)?.balance ?? 0n;
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
      record = { account, words: accountWords(account), balances: new Map(), slots: [], leafIndex: -1, reshaped: true, dirty: new Set() };
      this.#records.set(account, record);
      this.#fresh.push(record); // merged into #sorted by the next #ordered()
    }
    const slot = record.balances.get(assetId);
    if (slot === undefined) {
      if (balance === 0n) return; // nothing changes (and no dirty mark for a leaf that does not exist)
      const added: Slot = { assetId, balance };
      record.balances.set(assetId, added);
      const { slots } = record;
      // Assets mostly arrive in ascending order (bulk loads): appending skips the search.
      if (slots.length === 0 || slots[slots.length - 1].assetId < assetId) slots.push(added);
      else slots.splice(slotIndex(slots, assetId), 0, added);
      record.reshaped = true;
    } else if (balance === 0n) {
      record.balances.delete(assetId);
      record.slots.splice(slotIndex(record.slots, assetId), 1);
      record.dirty.delete(slot);
      record.reshaped = true;
    } else {
      slot.balance = balance;
      record.dirty.add(slot);
    }
    this.#tree = null;
    if (record.balances.size === 0) {
      this.#records.delete(account);
      this.#removed++; // dropped from #sorted by the next #ordered()
    }
  }

  /** The live records, account ascending: #sorted brought up to date (filter the removed, merge the fresh). */
  #ordered(): AccountRecord[] {
    if (this.#fresh.length === 0 && this.#removed === 0) return this.#sorted;
    const records = this.#records;
    const live = (r: AccountRecord) => records.get(r.account) === r;
    const base = this.#removed > 0 ? this.#sorted.filter(live) : this.#sorted;
    let out = base;
    if (this.#fresh.length > 0) {
      const fresh = this.#fresh.filter(live).sort((a, b) => (a.account < b.account ? -1 : a.account > b.account ? 1 : 0));
      out = new Array<AccountRecord>(base.length + fresh.length);
      let i = 0;
      let j = 0;
      let k = 0;
      while (i < base.length && j < fresh.length) out[k++] = base[i].account < fresh[j].account ? base[i++] : fresh[j++];
      while (i < base.length) out[k++] = base[i++];
      while (j < fresh.length) out[k++] = fresh[j++];
    }
    this.#sorted = out;
    this.#fresh = [];
    this.#removed = 0;
    return out;
  }

  /** Every non-zero balance of non-supply accounts, in leaf order (account ascending, then asset id). */
  entries(): LedgerEntry[] {
    const out: LedgerEntry[] = [];
    for (const record of this.#ordered()) out.push(...this.accountEntries(record.account));
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
    return record.slots.map(({ assetId, balance }) => ({ account: key, assetId, balance }));
  }

  /** Sum of every balance (supply included) of `assetId`: always 0 when only movements were applied. */
  totalOf(assetId: bigint): bigint {
    let total = this.#supply.get(assetId) ?? 0n;
    for (const record of this.#records.values()) total += record.balances.get(assetId)?.balance ?? 0n;
    return total;
  }

  /** Number of leaves (non-zero, non-supply balances). */
  get leafCount(): number {
    let n = 0;
    for (const record of this.#records.values()) n += record.slots.length;
    return n;
  }

  /**
   * The new leaf level: unchanged accounts' leaves copied from the last one (contiguous runs in one copy), dirty
   * leaves re-hashed in chunks (preimages written straight into the hasher's input, one batch call per chunk).
   */
  #buildLeaves(keccak: Keccak256, records: AccountRecord[], offsets: Int32Array): Uint8Array {
    const old = this.#leaves;
    const leaves = new Uint8Array(offsets[records.length] * 32);
    let runFrom = 0; // a pending copy of `runLength` leaves from old[runFrom] to leaves[runTo]
    let runTo = 0;
    let runLength = 0;
    const copyRun = (): void => {
      if (runLength > 0) leaves.set(old.subarray(runFrom * 32, (runFrom + runLength) * 32), runTo * 32);
      runLength = 0;
    };
    let { view, capacity } = keccak.leafInput();
    // Leaf index of each preimage of the chunk when not consecutive; two, as a chunk's digests are placed when it
    // completes, after the next chunk has begun to be written.
    const targetSets: (Int32Array | null)[] = [null, null];
    let targets: Int32Array | null = null;
    let first = 0; // leaf index of the chunk's first preimage
    let n = 0;
    let consecutive = true; // the chunk's leaves are first, first + 1, …: their digests are copied as one block
    // While the worker hashes a chunk, this thread writes the next into the other input area (the hasher's
    // pipeline): the digests land in `leaves` when the chunk completes, during a later flush or at the end.
    const flush = (): void => {
      copyRun(); // the pending run may hold leaves of this chunk: copy it before they are written
      const count = n;
      if (consecutive) {
        const at = first * 32;
        keccak.submitLeafInput(count, (digests) => leaves.set(digests, at));
      } else {
        const to = targets!;
        keccak.submitLeafInput(count, (digests) => {
          for (let i = 0; i < count; i++) leaves.set(digests.subarray(i * 32, i * 32 + 32), to[i] * 32);
        });
        targetSets.reverse(); // the next chunk's targets go to the other array
        targets = null;
      }
      ({ view, capacity } = keccak.leafInput());
      n = 0;
      consecutive = true;
    };
    const rehash = (record: AccountRecord, slot: Slot, index: number): void => {
      if (n === 0) first = index;
      else if (consecutive && first + n !== index) {
        consecutive = false;
        targets = targetSets[0] ??= new Int32Array(capacity);
        for (let i = 0; i < n; i++) targets[i] = first + i;
      }
      if (!consecutive) targets![n] = index;
      writeLeafPreimage(view, n * LEAF_PREIMAGE_BYTES, record.words, slot.assetId, slot.balance);
      if (++n === capacity) flush();
    };
    for (let i = 0; i < records.length; i++) {
      const record = records[i];
      const slots = record.slots;
      const at = offsets[i];
      if (record.reshaped || record.leafIndex < 0) {
        for (let k = 0; k < slots.length; k++) rehash(record, slots[k], at + k);
      } else {
        if (runLength > 0 && runFrom + runLength === record.leafIndex && runTo + runLength === at) {
          runLength += slots.length;
        } else {
          copyRun();
          [runFrom, runTo, runLength] = [record.leafIndex, at, slots.length];
        }
        for (const slot of record.dirty) rehash(record, slot, at + slots.indexOf(slot));
      }
      record.leafIndex = at;
      record.reshaped = false;
      if (record.dirty.size > 0) record.dirty.clear();
    }
    if (n > 0) flush();
    copyRun();
    keccak.finishLeafInput();
    return leaves;
  }

  async #ensureTree(): Promise<MerkleLevels> {
    if (this.#tree) return this.#tree;
    const keccak = await loadKeccak256();
    const records = this.#ordered();
    const offsets = new Int32Array(records.length + 1);
    for (let i = 0; i < records.length; i++) offsets[i + 1] = offsets[i] + records[i].slots.length;
    this.#leaves = this.#buildLeaves(keccak, records, offsets);
    this.#tree = buildLevels(keccak, this.#leaves, offsets[records.length]);
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
    const slot = record?.balances.get(assetId);
    if (!record || !slot) return null;
    const index = record.leafIndex + slotIndex(record.slots, assetId);
    const leaf = bytesToHex(tree.levels[0].subarray(index * 32, index * 32 + 32));
    return { leaf, proof: proofOfIndex(tree, index), balance: slot.balance };
  }

  /** A deep copy (balances only; the copy re-hashes on its first root). */
  clone(): LedgerState {
    const copy = new LedgerState();
    for (const entry of this.entries()) copy.setBalance(entry.account, entry.assetId, entry.balance);
    for (const [assetId, balance] of this.#supply) copy.setBalance(SUPPLY_ACCOUNT, assetId, balance);
    return copy;
  }
}
