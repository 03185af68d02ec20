/**
 * PMJ5 payload encoder and decoder (one module, so both sides change together). Byte layout: docs/journal-format.md.
 *
 * Payloads are self-contained: the account and market dictionaries start empty in every payload, so any one
 * batch decodes on its own (at the cost of one 20-byte literal per account per batch).
 *
 * Each operation's fields are read and written in the order, and with the encoding, that `OP_FIELDS` (./ops.ts)
 * declares; the only rule across fields (a MARKET_STATE's outcome against its state) is `crossFieldError`.
 */
import { bytesToHex, hexToBytes, isAddress, type Address, type Hex } from "viem";
import { COLLATERAL_ASSET, LEDGER_SIDES, MAX_MARKET_ID, normalizeAccount, outcomeAssetId, parseOutcomeAssetId, type OutcomeIndex } from "../assets";
import { JournalDecodeError, JournalEncodeError } from "../errors";
import { marketStateOutcomeError } from "./market-states";
import { OP_FIELDS, OP_TAGS, type JournalOp, type OpField } from "./ops";
import { ByteReader, ByteWriter } from "./wire";

/** "PMJ5" in ASCII. */
export const PMJ5_MAGIC = new Uint8Array([0x50, 0x4d, 0x4a, 0x35]);
/** The format version this module writes and reads. */
export const PMJ5_VERSION = 1;

/** Header fields the encoder needs besides the operations. */
export interface EncodeContext {
  readonly treasury: Address;
}

/** A decoded payload: header, operations, and the dictionaries as they ended. */
export interface DecodedPayload {
  readonly version: number;
  readonly treasury: Address;
  readonly ops: JournalOp[];
  /** Account dictionary: index i = i-th distinct account, in first-use order. */
  readonly accounts: Address[];
  /** Market dictionary: index i = i-th distinct market id, in first-use order. */
  readonly markets: bigint[];
}

/** An address in any case: what viem's isAddress accepts without its checksum check (strict: false). */
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** Exclusive upper bounds of the amount widths (constants: a shift per amount allocates a bigint). */
const LIMIT_128 = 1n << 128n;
const LIMIT_255 = 1n << 255n;

const TAG_TO_TYPE = new Map<number, JournalOp["type"]>(Object.entries(OP_TAGS).map(([t, tag]) => [tag, t as JournalOp["type"]]));

class Encoder {
  readonly w = new ByteWriter();
  readonly #accounts = new Map<Address, number>();
  readonly #markets = new Map<bigint, number>();
  /** Dictionary entries the operation being written added (undone with it by {@link rollback}). */
  readonly #newAccounts: Address[] = [];
  readonly #newMarkets: bigint[] = [];

  /** Starts an operation: what it adds to the dictionaries is recorded from here (reused lists: one op at a time). */
  mark(): number {
    this.#newAccounts.length = 0;
    this.#newMarkets.length = 0;
    return this.w.length;
  }

  /** Undoes the operation begun at `mark`: its bytes and its dictionary entries. */
  rollback(mark: number): void {
    this.w.truncate(mark);
    for (const a of this.#newAccounts) this.#accounts.delete(a);
    for (const m of this.#newMarkets) this.#markets.delete(m);
  }

  account(value: Address): void {
    // A known account was checked when it entered the dictionary (the lookup key is the normalized form).
    const key = typeof value === "string" ? normalizeAccount(value) : value;
    const index = this.#accounts.get(key);
    if (index !== undefined) {
      this.w.varintNumber(index + 1);
      return;
    }
    if (typeof value !== "string" || !ADDRESS.test(value)) throw new JournalEncodeError(`not an address: ${value}`);
    this.#accounts.set(key, this.#accounts.size);
    this.#newAccounts.push(key);
    this.w.varint(0n);
    this.w.address(key);
  }

  market(id: bigint): void {
    if (typeof id !== "bigint" || id < 1n || id > MAX_MARKET_ID) throw new JournalEncodeError(`market id ${id} outside 1..2^64-1`);
    const index = this.#markets.get(id);
    if (index !== undefined) {
      this.w.varintNumber(index + 1);
      return;
    }
    this.#markets.set(id, this.#markets.size);
    this.#newMarkets.push(id);
    this.w.varint(0n);
    this.w.varint(id);
  }

  amount(value: bigint, bits: 128 | 255, min: bigint, what: string): void {
    if (typeof value !== "bigint" || value < min || value >= (bits === 128 ? LIMIT_128 : LIMIT_255))
      throw new JournalEncodeError(`${what} ${value} outside ${min}..2^${bits}-1`);
    this.w.varint(value);
  }

  small(value: number, max: number, what: string): void {
    if (!Number.isInteger(value) || value < 0 || value > max) throw new JournalEncodeError(`${what} ${value} outside 0..${max}`);
    this.w.byte(value);
  }

  asset(assetId: bigint): void {
    if (assetId === COLLATERAL_ASSET) {
      this.w.byte(0);
      return;
    }
    const outcome = typeof assetId === "bigint" ? parseOutcomeAssetId(assetId) : null;
    if (!outcome) throw new JournalEncodeError(`asset id ${assetId} is neither collateral nor a market outcome`);
    this.w.byte(1 + outcome.side);
    this.market(outcome.marketId);
  }
}

type FieldList = readonly (readonly [string, OpField])[];

/** The operation types with a rule across their fields ({@link crossFieldError}). */
const CROSS_FIELD_TYPES: ReadonlySet<JournalOp["type"]> = new Set(["MARKET_STATE"]);

/** Why `op` breaks a rule across its fields (beyond each field's own range), and which field; null when it does not. */
function crossFieldError(op: JournalOp): { field: string; message: string } | null {
  if (op.type !== "MARKET_STATE") return null;
  const message = marketStateOutcomeError(op.state, op.outcome);
  return message === null ? null : { field: "outcome", message };
}

function encodeField(e: Encoder, name: string, field: OpField, value: unknown): void {
  switch (field.kind) {
    case "account":
      e.account(value as Address);
      return;
    case "market":
      e.market(value as bigint);
      return;
    case "asset":
      e.asset(value as bigint);
      return;
    case "amount":
      e.amount(value as bigint, field.bits, field.min, field.label ?? name);
      return;
    case "u8":
      if (field.none !== undefined && value === field.none) {
        e.w.byte(field.none);
        return;
      }
      e.small(value as number, field.max, name);
      return;
    case "enum":
      if (!field.values.includes(value as string)) throw new JournalEncodeError(`${name} ${String(value)} is not one of ${field.values.join(", ")}`);
      e.w.byte(field.values.indexOf(value as string));
      return;
    case "varint":
      if (!Number.isInteger(value) || (value as number) < field.min || (value as number) > field.max) {
        throw new JournalEncodeError(`${name} ${String(value)} outside ${field.min}..${field.max}`);
      }
      e.w.varint(BigInt(value as number));
      return;
    case "bytes32":
      if (typeof value !== "string" || !/^0x[0-9a-fA-F]{64}$/.test(value)) throw new JournalEncodeError(`${name} ${String(value)} is not 32 bytes of hex`);
      e.w.bytes(hexToBytes(value as Hex));
      return;
  }
}

function encodeOp(e: Encoder, op: JournalOp): void {
  if (!Object.hasOwn(OP_TAGS, op.type)) throw new JournalEncodeError(`unknown operation type ${String(op.type)}`);
  const tag = OP_TAGS[op.type];
  const bad = crossFieldError(op);
  if (bad) throw new JournalEncodeError(`${op.type} ${bad.field}: ${bad.message}`);
  e.w.byte(tag);
  const values = op as unknown as Record<string, unknown>;
  const fields = OP_FIELDS[op.type] as FieldList;
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i];
    encodeField(e, f[0], f[1], values[f[0]]);
  }
}

/** Bytes of `n` as a varint. */
function varintSize(n: number): number {
  let size = 1;
  for (let v = n; v >= 0x80; v = Math.floor(v / 0x80)) size++;
  return size;
}

/**
 * Builds one PMJ5 payload operation by operation, knowing its exact size at every step: `add` refuses (and leaves
 * nothing behind) an operation that would take the payload past a byte budget. The batcher cuts its batches with
 * it, so every commitJournalBatch stays under the transaction gas cap however large a journal entry is.
 */
export class PayloadBuilder {
  readonly #e = new Encoder();
  readonly #treasury: Address;
  #count = 0;

  constructor(ctx: EncodeContext) {
    if (!isAddress(ctx.treasury, { strict: false })) throw new JournalEncodeError(`treasury is not an address: ${ctx.treasury}`);
    this.#treasury = normalizeAccount(ctx.treasury);
  }

  /** Operations added. */
  get count(): number {
    return this.#count;
  }

  /** Size in bytes of the payload `finish` would give now. */
  get size(): number {
    return PMJ5_MAGIC.length + 1 + 20 + varintSize(this.#count) + this.#e.w.length;
  }

  /**
   * Appends `op` unless the payload would then exceed `maxBytes` (the first operation is always taken). Returns
   * whether it was added. Throws {@link JournalEncodeError} on an invalid op, which is then not added either.
   */
  add(op: JournalOp, maxBytes = Number.POSITIVE_INFINITY): boolean {
    const e = this.#e;
    const mark = e.mark();
    try {
      encodeOp(e, op);
    } catch (err) {
      e.rollback(mark);
      throw err;
    }
    if (this.#count > 0 && PMJ5_MAGIC.length + 1 + 20 + varintSize(this.#count + 1) + e.w.length > maxBytes) {
      e.rollback(mark);
      return false;
    }
    this.#count++;
    return true;
  }

  /** The payload: header (magic, version, treasury, operation count), then the operations. */
  finish(): Uint8Array {
    const head = new ByteWriter();
    head.bytes(PMJ5_MAGIC);
    head.byte(PMJ5_VERSION);
    head.address(this.#treasury);
    head.varintNumber(this.#count);
    const body = this.#e.w.view();
    const out = new Uint8Array(head.length + body.length);
    out.set(head.view(), 0);
    out.set(body, head.length);
    return out;
  }
}

/** Encodes operations into one self-contained PMJ5 payload. Throws {@link JournalEncodeError} on an invalid op. */
export function encodePayload(ops: readonly JournalOp[], ctx: EncodeContext): Uint8Array {
  const b = new PayloadBuilder(ctx);
  for (const op of ops) b.add(op);
  return b.finish();
}

class Decoder {
  readonly accounts: Address[] = [];
  readonly markets: bigint[] = [];
  // The dictionaries as sets too: a payload may bring tens of thousands of new accounts (a market's payouts).
  readonly #accountSet = new Set<Address>();
  readonly #marketSet = new Set<bigint>();
  constructor(readonly r: ByteReader) {}

  #index(what: string, size: number): number | null {
    const at = this.r.offset;
    const ref = this.r.varint(32, what);
    if (ref === 0n) return null;
    if (ref > BigInt(size)) throw new JournalDecodeError("INDEX_OUT_OF_RANGE", at, `${what} index ${ref - 1n} but the dictionary has ${size} entries`);
    return Number(ref) - 1;
  }

  account(): Address {
    const index = this.#index("account reference", this.accounts.length);
    if (index !== null) return this.accounts[index];
    const at = this.r.offset;
    const address = this.r.address("account literal");
    if (this.#accountSet.has(address)) throw new JournalDecodeError("INVALID_VALUE", at, `account ${address} already in the dictionary`);
    this.accounts.push(address);
    this.#accountSet.add(address);
    return address;
  }

  market(): bigint {
    const index = this.#index("market reference", this.markets.length);
    if (index !== null) return this.markets[index];
    const at = this.r.offset;
    const id = this.r.varint(64, "market id");
    if (id === 0n) throw new JournalDecodeError("INVALID_VALUE", at, "market id 0");
    if (this.#marketSet.has(id)) throw new JournalDecodeError("INVALID_VALUE", at, `market ${id} already in the dictionary`);
    this.markets.push(id);
    this.#marketSet.add(id);
    return id;
  }

  amount(bits: number, min: bigint, what: string): bigint {
    const at = this.r.offset;
    const v = this.r.varint(bits, what);
    if (v < min) throw new JournalDecodeError("INVALID_VALUE", at, `${what} must be >= ${min}`);
    return v;
  }

  small(max: number, what: string): number {
    const at = this.r.offset;
    const v = this.r.byte(what);
    if (v > max) throw new JournalDecodeError("INVALID_VALUE", at, `${what} ${v} outside 0..${max}`);
    return v;
  }

  asset(): bigint {
    const selector = this.small(LEDGER_SIDES, "asset selector");
    return selector === 0 ? COLLATERAL_ASSET : outcomeAssetId(this.market(), (selector - 1) as OutcomeIndex);
  }
}

function decodeField(d: Decoder, name: string, field: OpField): unknown {
  switch (field.kind) {
    case "account":
      return d.account();
    case "market":
      return d.market();
    case "asset":
      return d.asset();
    case "amount":
      return d.amount(field.bits, field.min, field.label ?? name);
    case "u8": {
      const at = d.r.offset;
      const v = d.r.byte(name);
      if (v > field.max && v !== field.none) {
        throw new JournalDecodeError("INVALID_VALUE", at, `${name} ${v} outside 0..${field.max}${field.none === undefined ? "" : ` and not ${field.none}`}`);
      }
      return v;
    }
    case "enum":
      return field.values[d.small(field.values.length - 1, name)];
    case "varint": {
      const at = d.r.offset;
      const v = Number(d.r.varint(field.bits, name));
      if (v < field.min || v > field.max) throw new JournalDecodeError("INVALID_VALUE", at, `${name} ${v} outside ${field.min}..${field.max}`);
      return v;
    }
    case "bytes32":
      return bytesToHex(d.r.take(32, name));
  }
}

function decodeOp(d: Decoder): JournalOp {
  const at = d.r.offset;
  const tag = d.r.byte("operation tag");
  const type = TAG_TO_TYPE.get(tag);
  if (!type) throw new JournalDecodeError("UNKNOWN_OP", at, `unknown operation tag 0x${tag.toString(16).padStart(2, "0")}`);
  // Keys in wire order, after `type`: the decoded op reads like the bytes.
  const op: Record<string, unknown> = { type };
  const fields = OP_FIELDS[type] as FieldList;
  // Field offsets are kept only for the types with a rule across fields, to name where a broken one sits.
  const starts: number[] | null = CROSS_FIELD_TYPES.has(type) ? [] : null;
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i];
    if (starts) starts.push(d.r.offset);
    op[f[0]] = decodeField(d, f[0], f[1]);
  }
  const decoded = op as unknown as JournalOp;
  const bad = starts && crossFieldError(decoded);
  if (bad) throw new JournalDecodeError("INVALID_VALUE", starts[fields.findIndex(([name]) => name === bad.field)], bad.message);
  return decoded;
}

/** Decodes a PMJ5 payload. Throws {@link JournalDecodeError} (code + byte offset) for any malformed input. */
export function decodePayload(bytes: Uint8Array): DecodedPayload {
  const r = new ByteReader(bytes);
  const magic = r.take(4, "magic");
  if (magic.some((b, i) => b !== PMJ5_MAGIC[i])) throw new JournalDecodeError("BAD_MAGIC", 0, 'payload does not start with "PMJ5"');
  const version = r.byte("version");
  if (version !== PMJ5_VERSION) throw new JournalDecodeError("UNKNOWN_VERSION", 4, `unknown PMJ5 version ${version}`);
  const treasury = r.address("treasury");
  const countAt = r.offset;
  const count = Number(r.varint(32, "operation count"));
  // Every operation takes at least two bytes; a larger count cannot be honest.
  if (count * 2 > r.remaining) throw new JournalDecodeError("TRUNCATED", countAt, `${count} operations cannot fit in ${r.remaining} bytes`);
  const d = new Decoder(r);
  const ops: JournalOp[] = [];
  for (let i = 0; i < count; i++) ops.push(decodeOp(d));
  if (r.remaining > 0) throw new JournalDecodeError("TRAILING_BYTES", r.offset, `${r.remaining} byte(s) after the last operation`);
  return { version, treasury, ops, accounts: d.accounts, markets: d.markets };
}
