/**
 * PMJ5 payload encoder and decoder (one module, so both sides change together). Byte layout: docs/journal-format.md.
 *
 * Payloads are self-contained: the account and market dictionaries start empty in every payload, so any one
 * batch decodes on its own (at the cost of one 20-byte literal per account per batch).
 */
import { isAddress, type Address } from "viem";
import { COLLATERAL_ASSET, MAX_MARKET_ID, MAX_OUTCOMES, normalizeAccount, outcomeAssetId, parseOutcomeAssetId, type OutcomeIndex, type Side } from "../assets";
import { JournalDecodeError, JournalEncodeError } from "../errors";
import { OP_TAGS, type CreditReason, type JournalOp, type MatchKind } from "./ops";
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

const TAG_TO_TYPE = new Map<number, JournalOp["type"]>(Object.entries(OP_TAGS).map(([t, tag]) => [tag, t as JournalOp["type"]]));
const AMOUNT_BITS = 255;
const U128 = 128;
/** Largest outcome index of LMSR_TRADE, RESOLUTION_PAYOUT and VOID_REFUND (MATCH stays binary: 0..1). */
const MAX_OUTCOME = MAX_OUTCOMES - 1;

class Encoder {
  readonly w = new ByteWriter();
  readonly #accounts = new Map<Address, number>();
  readonly #markets = new Map<bigint, number>();

  account(value: Address): void {
    if (!isAddress(value, { strict: false })) throw new JournalEncodeError(`not an address: ${value}`);
    const key = normalizeAccount(value);
    const index = this.#accounts.get(key);
    if (index !== undefined) {
      this.w.varint(BigInt(index + 1));
      return;
    }
    this.#accounts.set(key, this.#accounts.size);
    this.w.varint(0n);
    this.w.address(key);
  }

  market(id: bigint): void {
    if (id < 1n || id > MAX_MARKET_ID) throw new JournalEncodeError(`market id ${id} outside 1..2^64-1`);
    const index = this.#markets.get(id);
    if (index !== undefined) {
      this.w.varint(BigInt(index + 1));
      return;
    }
    this.#markets.set(id, this.#markets.size);
    this.w.varint(0n);
    this.w.varint(id);
  }

  amount(value: bigint, bits: number, min: bigint, what: string): void {
    if (value < min || value >> BigInt(bits) !== 0n) throw new JournalEncodeError(`${what} ${value} outside ${min}..2^${bits}-1`);
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
    const outcome = parseOutcomeAssetId(assetId);
    if (!outcome) throw new JournalEncodeError(`asset id ${assetId} is neither collateral nor a market outcome`);
    this.w.byte(1 + outcome.side);
    this.market(outcome.marketId);
  }
}

function encodeOp(e: Encoder, op: JournalOp): void {
  e.w.byte(OP_TAGS[op.type]);
  switch (op.type) {
    case "CREDIT":
    case "DEBIT":
      e.account(op.account);
      e.asset(op.assetId);
      e.amount(op.amount, AMOUNT_BITS, 1n, "amount");
      e.small(op.reason, 8, "reason");
      return;
    case "MATCH":
      e.account(op.maker);
      e.account(op.taker);
      e.market(op.marketId);
      e.small(op.side, 1, "side");
      e.small(op.kind, 3, "kind");
      e.amount(op.shares, U128, 1n, "shares");
      if (!Number.isInteger(op.priceBps) || op.priceBps < 1 || op.priceBps > 9999) throw new JournalEncodeError(`priceBps ${op.priceBps} outside 1..9999`);
      e.w.varint(BigInt(op.priceBps));
      e.amount(op.fee, U128, 0n, "fee");
      return;
    case "LMSR_TRADE":
      e.account(op.account);
      e.market(op.marketId);
      e.small(op.side, MAX_OUTCOME, "side");
      e.small(op.direction === "BUY" ? 0 : op.direction === "SELL" ? 1 : -1, 1, "direction");
      e.amount(op.shares, U128, 1n, "shares");
      e.amount(op.collateral, U128, 0n, "collateral");
      e.amount(op.fee, U128, 0n, "fee");
      return;
    case "RESOLUTION_PAYOUT":
    case "VOID_REFUND":
      e.market(op.marketId);
      e.account(op.account);
      e.small(op.side, MAX_OUTCOME, "side");
      e.small(op.source === "SUPPLY" ? 0 : op.source === "POOL" ? 1 : -1, 1, "source");
      e.amount(op.shares, AMOUNT_BITS, 0n, "shares");
      e.amount(op.type === "RESOLUTION_PAYOUT" ? op.payout : op.refund, AMOUNT_BITS, 0n, "paid amount");
      return;
    case "FEE_SWEEP":
      e.market(op.marketId);
      e.amount(op.amount, AMOUNT_BITS, 1n, "amount");
      return;
    case "MARKET_SEED":
      e.market(op.marketId);
      e.account(op.funder);
      e.amount(op.amount, AMOUNT_BITS, 1n, "amount");
      return;
    case "POOL_WITHDRAW":
    case "BOND_LOCK":
    case "BOND_RETURN":
    case "BOND_SLASH":
      e.market(op.marketId);
      e.account(op.account);
      e.amount(op.amount, AMOUNT_BITS, 1n, "amount");
      return;
    default:
      throw new JournalEncodeError(`unknown operation type ${(op as { type: unknown }).type}`);
  }
}

/** Encodes operations into one self-contained PMJ5 payload. Throws {@link JournalEncodeError} on an invalid op. */
export function encodePayload(ops: readonly JournalOp[], ctx: EncodeContext): Uint8Array {
  if (!isAddress(ctx.treasury, { strict: false })) throw new JournalEncodeError(`treasury is not an address: ${ctx.treasury}`);
  const e = new Encoder();
  e.w.bytes(PMJ5_MAGIC);
  e.w.byte(PMJ5_VERSION);
  e.w.address(normalizeAccount(ctx.treasury));
  e.w.varint(BigInt(ops.length));
  for (const op of ops) encodeOp(e, op);
  return e.w.result();
}

class Decoder {
  readonly accounts: Address[] = [];
  readonly markets: bigint[] = [];
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
    if (this.accounts.includes(address)) throw new JournalDecodeError("INVALID_VALUE", at, `account ${address} already in the dictionary`);
    this.accounts.push(address);
    return address;
  }

  market(): bigint {
    const index = this.#index("market reference", this.markets.length);
    if (index !== null) return this.markets[index];
    const at = this.r.offset;
    const id = this.r.varint(64, "market id");
    if (id === 0n) throw new JournalDecodeError("INVALID_VALUE", at, "market id 0");
    if (this.markets.includes(id)) throw new JournalDecodeError("INVALID_VALUE", at, `market ${id} already in the dictionary`);
    this.markets.push(id);
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
    const selector = this.small(MAX_OUTCOMES, "asset selector");
    return selector === 0 ? COLLATERAL_ASSET : outcomeAssetId(this.market(), (selector - 1) as OutcomeIndex);
  }
}

function decodeOp(d: Decoder): JournalOp {
  const at = d.r.offset;
  const tag = d.r.byte("operation tag");
  const type = TAG_TO_TYPE.get(tag);
  if (!type) throw new JournalDecodeError("UNKNOWN_OP", at, `unknown operation tag 0x${tag.toString(16).padStart(2, "0")}`);
  switch (type) {
    case "CREDIT":
    case "DEBIT": {
      const account = d.account();
      const assetId = d.asset();
      const amount = d.amount(AMOUNT_BITS, 1n, "amount");
      return { type, account, assetId, amount, reason: d.small(8, "reason") as CreditReason };
    }
    case "MATCH": {
      const maker = d.account();
      const taker = d.account();
      const marketId = d.market();
      const side = d.small(1, "side") as Side;
      const kind = d.small(3, "kind") as MatchKind;
      const shares = d.amount(U128, 1n, "shares");
      const priceAt = d.r.offset;
      const priceBps = Number(d.r.varint(32, "priceBps"));
      if (priceBps < 1 || priceBps > 9999) throw new JournalDecodeError("INVALID_VALUE", priceAt, `priceBps ${priceBps} outside 1..9999`);
      return { type, maker, taker, marketId, side, kind, shares, priceBps, fee: d.amount(U128, 0n, "fee") };
    }
    case "LMSR_TRADE": {
      const account = d.account();
      const marketId = d.market();
      const side = d.small(MAX_OUTCOME, "side") as OutcomeIndex;
      const direction = d.small(1, "direction") === 0 ? "BUY" : "SELL";
      const shares = d.amount(U128, 1n, "shares");
      const collateral = d.amount(U128, 0n, "collateral");
      return { type, account, marketId, side, direction, shares, collateral, fee: d.amount(U128, 0n, "fee") };
    }
    case "RESOLUTION_PAYOUT":
    case "VOID_REFUND": {
      const marketId = d.market();
      const account = d.account();
      const side = d.small(MAX_OUTCOME, "side") as OutcomeIndex;
      const source = d.small(1, "source") === 0 ? "SUPPLY" : "POOL";
      const shares = d.amount(AMOUNT_BITS, 0n, "shares");
      const paid = d.amount(AMOUNT_BITS, 0n, "paid amount");
      return type === "RESOLUTION_PAYOUT"
        ? { type, marketId, account, side, source, shares, payout: paid }
        : { type, marketId, account, side, source, shares, refund: paid };
    }
    case "FEE_SWEEP": {
      const marketId = d.market();
      return { type, marketId, amount: d.amount(AMOUNT_BITS, 1n, "amount") };
    }
    case "MARKET_SEED": {
      const marketId = d.market();
      const funder = d.account();
      return { type, marketId, funder, amount: d.amount(AMOUNT_BITS, 1n, "amount") };
    }
    case "POOL_WITHDRAW":
    case "BOND_LOCK":
    case "BOND_RETURN":
    case "BOND_SLASH": {
      const marketId = d.market();
      const account = d.account();
      return { type, marketId, account, amount: d.amount(AMOUNT_BITS, 1n, "amount") };
    }
  }
}

/** Decodes a PMJ5 payload. Throws {@link JournalDecodeError} (code + byte offset) for any malformed input. */
export function decodePayload(bytes: Uint8Array): DecodedPayload {
  const r = new ByteReader(bytes);
  const magic = r.take(4, "magic");
  if (magic.some((b, i) => b !== PMJ5_MAGIC[i])) throw new JournalDecodeError("BAD_MAGIC", 0, "payload does not start with \"PMJ5\"");
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
