/**
 * The in-memory exchange engine of the committed lane: accounts, balances with reservations, one order book per
 * binary ORDERBOOK market, LMSR pool markets (2 or 3 outcomes), the fill allowance and execution reports.
 * `apply(command, at)` is deterministic and atomic: a rejection (EngineRejection) rolls every mutation back. Every
 * balance change is a movement of an emitted decoder JournalOp (movementsOf); the engine balances those movements
 * touched are mirrored into `ledger` when it is next read (see Engine.ledger). See docs/engine.md.
 */
import type { Address } from "viem";
import {
  COLLATERAL_ASSET,
  CreditReason,
  LedgerState,
  MAX_MARKET_ID,
  MAX_OUTCOMES,
  MatchKind,
  SUPPLY_ACCOUNT,
  movementsOf,
  isOutcomeIndex,
  normalizeAccount,
  outcomeAssetId,
  poolAccountOf,
  type JournalOp,
  type MatchOp,
  type MovementContext,
  type OutcomeIndex,
} from "../../decoder";
import { Book, NO_ASK, NO_BID, type Acct, type Bal, type Market, type Order } from "./book";
import { exitFee, MAX_FEE_BPS, takerFee } from "./fees";
import { bFromSeed, prices, quoteBuyForCost, quoteBuyShares, quoteSell, voidPayout, type BuyQuote, type LmsrState } from "../pricing/lmsr";
import {
  EngineRejection,
  type AllowanceView,
  type CancelReason,
  type Command,
  type CreateMarketCommand,
  type LmsrOutcome,
  type LmsrTradeCommand,
  type EngineConfig,
  type ExecutionReport,
  type MatchKindName,
  type OrderSpec,
  type OrderView,
  type ReportKind,
} from "./types";
import { Undo } from "./undo";

/** An LMSR quote (see Engine.lmsrQuote). */
export interface LmsrQuote {
  shares: bigint;
  collateral: bigint;
  fee: bigint;
  priceAfterWad: bigint;
}

function buyQuote(shares: bigint, q: BuyQuote): LmsrQuote {
  return { shares, collateral: q.cost, fee: q.fee, priceAfterWad: q.priceAfter };
}

export interface Applied {
  result: unknown;
  ops: JournalOp[];
  reports: ExecutionReport[];
}

// Hot paths read these locals: the transpiled re-exports of ../../decoder are getter chains.
const C0 = COLLATERAL_ASSET;
const SUPPLY = SUPPLY_ACCOUNT;
const K_TAKER_BUYS = MatchKind.TAKER_BUYS;
const K_TAKER_SELLS = MatchKind.TAKER_SELLS;
const K_MINT = MatchKind.MINT;
const K_MERGE = MatchKind.MERGE;
const movementsOfOp = movementsOf;
const feeOf = takerFee;

/** Orders trade in lots of 10,000 share units (0.01 share), so every notional is exact. */
export const LOT = 10_000n;
export const MAX_ORDER_SIZE = 10n ** 18n;
export const MAX_BATCH = 100;
const MATCH_KIND_NAMES: readonly MatchKindName[] = ["TAKER_BUYS", "TAKER_SELLS", "MINT", "MERGE"];
const ADDRESS_RE = /^0x[0-9a-f]{40}$/;
/** Addresses already validated (bounded: the accounts the engine has seen). */
const VALID_ADDRESSES = new Set<string>();
const DAY_MS = 86_400_000;

function reject(code: string, status: number, message: string, extensions?: Record<string, unknown>): never {
  throw new EngineRejection(code, status, message, extensions);
}
const invalid = (message: string, extensions?: Record<string, unknown>): never => reject("INVALID_PAYLOAD", 400, message, extensions);

function isInt(x: unknown, min: number, max: number): x is number {
  return typeof x === "number" && Number.isSafeInteger(x) && x >= min && x <= max;
}

function addressOf(x: unknown, field: string): Address {
  if (typeof x !== "string") return invalid(`${field} must be an address`);
  if (VALID_ADDRESSES.has(x)) return x as Address;
  const a = normalizeAccount(x);
  if (!ADDRESS_RE.test(a) || a === SUPPLY_ACCOUNT) return invalid(`${field} must be a non-zero 0x address`);
  if (a === x && VALID_ADDRESSES.size < 1_000_000) VALID_ADDRESSES.add(a);
  return a;
}

/** Min-heap of GTD orders by (expiresAt, n). */
class ExpiryHeap {
  readonly a: Order[] = [];
  private static less(x: Order, y: Order): boolean {
    return x.expiresAt! < y.expiresAt! || (x.expiresAt === y.expiresAt && x.n < y.n);
  }
  peek(): Order | undefined {
    return this.a[0];
  }
  push(o: Order): void {
    const a = this.a;
    let i = a.length;
    a.push(o);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!ExpiryHeap.less(a[i]!, a[p]!)) break;
      [a[i], a[p]] = [a[p]!, a[i]!];
      i = p;
    }
  }
  pop(): Order | undefined {
    const a = this.a;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && ExpiryHeap.less(a[l]!, a[m]!)) m = l;
        if (r < a.length && ExpiryHeap.less(a[r]!, a[m]!)) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m]!, a[i]!];
        i = m;
      }
    }
    return top;
  }
}

/** An account's resting orders oldest first (the list order does not survive a rollback, so it is never relied on). */
function byAge(a: Acct): Order[] {
  const out: Order[] = [];
  for (let o = a.openHead ?? null; o; o = o.aNext ?? null) out.push(o);
  return out.sort((x, y) => x.n - y.n);
}

function isResting(o: Order): boolean {
  return o.status === "open" || o.status === "partially_filled";
}

/**
 * An engine balance record: the Bal the book and undo log see, plus what the ledger mirror needs to copy it.
 * `pend` is set while the ledger lacks its latest value.
 */
interface MBal extends Bal {
  readonly addr: Address;
  readonly asset: bigint;
  pend: boolean;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const LOT_NUMBER = Number(LOT);
/** Largest size whose notional size * priceBps (priceBps <= 10000) is below 2^53, so exact in a double. */
const EXACT_SIZE = 900_719_925_474n;

/**
 * floor(size * priceBps / 10000) for 0 <= size, 0 <= priceBps <= 10000 (the lock of a resting buy). Below EXACT_SIZE the
 * integer arithmetic runs on doubles, where every value is an exact integer (one BigInt allocated instead of three).
 */
function notional(size: bigint, priceBps: number): bigint {
  if (size > EXACT_SIZE) return (size * BigInt(priceBps)) / 10_000n;
  const x = Number(size) * priceBps;
  return BigInt((x - (x % 10_000)) / 10_000);
}

/** size % LOT === 0n for size >= 0, without allocating a BigInt when size is a safe integer (then Number is exact). */
function isLotMultiple(size: bigint): boolean {
  return size <= MAX_SAFE ? Number(size) % LOT_NUMBER === 0 : size % LOT === 0n;
}

/** A new array of buf[0..n): literals for the usual sizes (cheaper than a slice call). */
function take<T>(buf: T[], n: number): T[] {
  switch (n) {
    case 0:
      return [];
    case 1:
      return [buf[0]!];
    case 2:
      return [buf[0]!, buf[1]!];
    default:
      return buf.slice(0, n);
  }
}

/** The order number of an order id `o-<n>` (n without leading zeros), or -1. */
function orderNumber(id: string): number {
  if (typeof id !== "string") return -1; // order(id) is public: a JS caller may pass anything
  const len = id.length;
  if (len < 3 || len > 17 || id.charCodeAt(0) !== 111 /* o */ || id.charCodeAt(1) !== 45 /* - */) return -1;
  let n = 0;
  for (let i = 2; i < len; i++) {
    const d = id.charCodeAt(i) - 48;
    if (d < 0 || d > 9 || (d === 0 && i === 2)) return -1;
    n = n * 10 + d;
  }
  return n;
}

export class Engine {
  readonly #ledger = new LedgerState();
  readonly config: EngineConfig;
  private readonly ctx: MovementContext;
  private readonly u = new Undo();
  private readonly accts = new Map<Address, Acct>();
  private readonly markets = new Map<bigint, Market>();
  /**
   * Every order ever placed, indexed by its number n (id `o-<n>`; slot 0 unused): ids are parsed, not hashed.
   * Invariant: byN.length === nextOrder (a rollback truncates it back).
   */
  private readonly byN: (Order | undefined)[] = [undefined];
  private readonly expiries = new ExpiryHeap();
  private nextOrder = 1;
  private nextTrade = 1;
  /** Balances changed since the ledger mirror was last brought up to date (each once: `pend`). */
  private readonly pending: MBal[] = [];
  // Per-command outputs: reused scratch arrays written by index (ops[0..nOps), reports[0..nReports)), copied out
  // exactly sized when the command succeeds (a fresh `[]` grows a 17-slot backing store on its first push).
  private readonly ops: JournalOp[] = [];
  private nOps = 0;
  private readonly reports: ExecutionReport[] = [];
  private nReports = 0;

  constructor(config: EngineConfig) {
    const treasury = addressOf(config.treasury, "treasury");
    if (!isInt(config.allowance.freePerPeriod, 0, 1e9) || !isInt(config.allowance.periodMs, 1, Number.MAX_SAFE_INTEGER)) {
      throw new Error("engine config: allowance.freePerPeriod >= 0 and periodMs > 0 integers");
    }
    this.config = { treasury, allowance: { ...config.allowance } };
    this.ctx = { treasury };
  }

  /**
   * The decoder LedgerState mirror of the engine balances (the movements of every emitted op applied in order).
   * Kept lazily: emit() records which balances moved, and reading `ledger` copies their current values in, so the
   * state (balances, root, proofs) is exactly what applying every movement would give.
   */
  get ledger(): LedgerState {
    const p = this.pending;
    if (p.length > 0) {
      const l = this.#ledger;
      for (let i = 0; i < p.length; i++) {
        const b = p[i]!;
        b.pend = false;
        if (l.balanceOf(b.addr, b.asset) !== b.v) l.setBalance(b.addr, b.asset, b.v);
      }
      p.length = 0;
    }
    return this.#ledger;
  }

  // ---------------------------------------------------------------- apply

  apply(command: Command, at: number): Applied {
    if (!isInt(at, 0, Number.MAX_SAFE_INTEGER)) throw new EngineRejection("INVALID_PAYLOAD", 400, "at must be a non-negative integer");
    const u = this.u;
    u.begin();
    const nextOrder = this.nextOrder;
    const nextTrade = this.nextTrade;
    this.nOps = 0;
    this.nReports = 0;
    let result: unknown;
    try {
      this.sweepExpired(at);
      result = this.dispatch(command, at);
    } catch (e) {
      u.rollback();
      this.nextOrder = nextOrder;
      this.byN.length = nextOrder;
      this.nextTrade = nextTrade;
      throw e;
    }
    u.commit();
    // Fresh arrays: the returned ones belong to the caller.
    return { result, ops: take(this.ops, this.nOps), reports: take(this.reports, this.nReports) };
  }

  private dispatch(c: Command, at: number): unknown {
    if (c === null || typeof c !== "object") return invalid("command must be an object");
    switch (c.type) {
      case "openAccount":
        return this.openAccount(addressOf(c.account, "account"), c.signupAt, at);
      case "credit":
        return this.credit(c.account, c.amount, c.reason);
      case "createMarket":
        return this.createMarket(c, at);
      case "placeOrder": {
        // The command itself is the order spec (PlaceOrderCommand extends OrderSpec): no copy on the hot path.
        const acct = this.acctFor(addressOf(c.account, "account"), at);
        const mkt = this.tradableMarket(c.marketId);
        this.checkSpec(c, at);
        return this.view(this.place(acct, mkt, c, at));
      }
      case "placeOrders":
      case "replaceQuotes": {
        const acct = this.acctFor(addressOf(c.account, "account"), at);
        const mkt = this.tradableMarket(c.marketId);
        if (!Array.isArray(c.orders) || c.orders.length > MAX_BATCH) return invalid(`orders must be an array of at most ${MAX_BATCH}`);
        if (c.type === "placeOrders" && c.orders.length === 0) return invalid("orders must not be empty");
        const seen = new Set<string>();
        c.orders.forEach((s, i) => {
          try {
            this.checkSpec(s, at);
          } catch (e) {
            if (e instanceof EngineRejection) reject(e.code, e.status, `orders[${i}]: ${e.message}`, { ...e.extensions, index: i });
            throw e;
          }
          if (s.clientOrderId !== undefined) {
            if (seen.has(s.clientOrderId)) invalid(`orders[${i}]: duplicate clientOrderId`, { index: i });
            seen.add(s.clientOrderId);
          }
        });
        const cancelled: string[] = [];
        if (c.type === "replaceQuotes") {
          for (const o of byAge(acct)) if (o.mkt === mkt) {
            this.cancelResting(o, "cancelled", "replaced", at);
            cancelled.push(o.id);
          }
        }
        const placed = c.orders.map((s) => this.view(this.place(acct, mkt, s, at)));
        return c.type === "replaceQuotes" ? { cancelled, orders: placed } : { orders: placed };
      }
      case "cancelOrder":
        return this.cancelOrder(c.account, c.orderId, c.clientOrderId, at);
      case "cancelAll": {
        const acct = this.accts.get(addressOf(c.account, "account"));
        if (c.marketId !== undefined && typeof c.marketId !== "bigint") return invalid("marketId must be a bigint");
        const cancelled: string[] = [];
        if (acct) for (const o of byAge(acct)) if (c.marketId === undefined || o.mkt.id === c.marketId) {
          this.cancelResting(o, "cancelled", "cancel_all", at);
          cancelled.push(o.id);
        }
        return { cancelled };
      }
      case "resolveMarket":
        return this.settle(c.marketId, c.winningOutcome, at);
      case "voidMarket":
        return this.settle(c.marketId, null, at);
      case "lmsrTrade":
        return this.lmsrTrade(c, at);
      case "addFillCredits": {
        const acct = this.acctFor(addressOf(c.account, "account"), at);
        if (!isInt(c.fills, 1, 1e12)) return invalid("fills must be a positive integer");
        this.u.saveAcct(acct);
        acct.paid += c.fills;
        return this.allowanceOf(acct, at);
      }
      case "expireOrders":
        return null; // apply() swept the due GTD orders before dispatching
      default:
        return invalid(`unknown command type ${String((c as { type?: unknown }).type)}`);
    }
  }

  // ---------------------------------------------------------------- accounts and balances

  private newAcct(addr: Address, signupAt: number, opened: boolean): Acct {
    const a: Acct = { addr, signupAt, opened, seq: 0, periodIdx: 0, freeUsed: 0, paid: 0, bals: new Map(), openHead: null, cids: new Map(), ep: 0 };
    this.accts.set(addr, a);
    this.u.fn(() => this.accts.delete(addr));
    return a;
  }

  /** The account, created with signupAt = at if it was never seen. */
  private acctFor(addr: Address, at: number): Acct {
    return this.accts.get(addr) ?? this.newAcct(addr, at, false);
  }

  private openAccount(addr: Address, signupAt: number, at: number): unknown {
    if (!isInt(signupAt, 0, Number.MAX_SAFE_INTEGER)) return invalid("signupAt must be a non-negative integer (ms)");
    const a = this.accts.get(addr);
    if (!a) this.newAcct(addr, signupAt, true);
    else if (!a.opened) {
      this.u.saveAcct(a);
      a.opened = true;
      a.signupAt = signupAt;
    }
    const acct = this.accts.get(addr)!;
    return { account: addr, signupAt: acct.signupAt, allowance: this.allowanceOf(acct, at) };
  }

  private bal(addr: Address, asset: bigint): MBal {
    const a = this.accts.get(addr) ?? this.newAcct(addr, 0, false);
    let b = a.bals.get(asset) as MBal | undefined;
    if (!b) {
      const nb: MBal = { v: 0n, r: 0n, ep: 0, addr, asset, pend: false };
      a.bals.set(asset, nb);
      this.u.fn(() => a.bals.delete(asset));
      b = nb;
    }
    return b;
  }

  /**
   * Applies an op's movements to the engine balances (checks: no account but the supply below its reservations) and
   * marks the balances for the ledger mirror (a rolled-back mark is harmless: the mirror copies the restored value).
   */
  private emit(op: JournalOp): void {
    const mv = movementsOfOp(op, this.ctx);
    const u = this.u;
    const pending = this.pending;
    for (let i = 0; i < mv.length; i++) {
      const m = mv[i]!;
      const from = this.bal(m.from, m.assetId);
      u.saveBal(from);
      from.v -= m.amount;
      if (from.v < from.r && m.from !== SUPPLY) {
        reject("INSUFFICIENT_BALANCE", 409, `insufficient available balance of asset ${m.assetId} for ${m.from}`, {
          account: m.from,
          assetId: m.assetId.toString(),
          shortBy: (from.r - from.v).toString(),
        });
      }
      const to = this.bal(m.to, m.assetId);
      u.saveBal(to);
      to.v += m.amount;
      if (!from.pend) {
        from.pend = true;
        pending.push(from);
      }
      if (!to.pend) {
        to.pend = true;
        pending.push(to);
      }
    }
    this.ops[this.nOps++] = op;
  }

  private credit(account: unknown, amount: unknown, reason: unknown): unknown {
    const addr = addressOf(account, "account");
    if (typeof amount !== "bigint" || amount <= 0n || amount > 10n ** 30n) return invalid("amount must be a positive bigint");
    let code: number | undefined;
    if (typeof reason === "number") code = Object.values(CreditReason).includes(reason as CreditReason) ? reason : undefined;
    else if (typeof reason === "string") code = (CreditReason as Record<string, number>)[reason];
    if (code === undefined) return invalid("reason must be a CreditReason code or name");
    this.emit({ type: "CREDIT", account: addr, assetId: COLLATERAL_ASSET, amount, reason: code as CreditReason });
    return { account: addr, balance: this.balanceView(addr, COLLATERAL_ASSET) };
  }

  // ---------------------------------------------------------------- markets

  private createMarket(c: CreateMarketCommand, at: number): unknown {
    if (typeof c.marketId !== "bigint" || c.marketId < 1n || c.marketId > MAX_MARKET_ID) return invalid("marketId must be a bigint 1..2^64-1");
    if (this.markets.has(c.marketId)) return reject("CONFLICT", 409, `market ${c.marketId} exists`);
    if (c.pricing !== "ORDERBOOK" && c.pricing !== "LMSR") return invalid("pricing must be ORDERBOOK or LMSR");
    // The book is binary (MINT/MERGE pair an outcome with its complement); the LMSR pool prices 2 or 3 outcomes, as the
    // on-chain LmsrMarket does, and the ledger has an asset per outcome index 0..MAX_OUTCOMES-1.
    if (c.pricing === "ORDERBOOK" && c.outcomes !== 2) return invalid("ORDERBOOK markets are binary (outcomes = 2); use LMSR for 3 outcomes", { field: "outcomes" });
    if (c.pricing === "LMSR" && c.outcomes !== 2 && c.outcomes !== 3) return invalid(`LMSR markets have 2 or 3 outcomes (max ${MAX_OUTCOMES})`, { field: "outcomes" });
    const n = c.outcomes;
    let lmsr: Market["lmsr"];
    if (c.pricing === "LMSR") {
      if (typeof c.seed !== "bigint" || c.seed <= 0n || c.seed > 10n ** 30n) return invalid("LMSR markets need a positive bigint seed");
      const funder = addressOf(c.funder, "funder");
      lmsr = { b: bFromSeed(c.seed, n), q: new Array<bigint>(n).fill(0n), funder, pool: poolAccountOf(c.marketId), seed: c.seed };
    } else if (c.seed !== undefined || c.funder !== undefined) return invalid("seed and funder are for LMSR markets");
    if (c.feeModel !== "notional-v1" && c.feeModel !== "shares-v2") return invalid("feeModel must be notional-v1 or shares-v2");
    for (const f of ["takerFeeBps", "sellExitFeeBps", "winningsExitFeeBps"] as const) {
      // The on-chain factory's cap (LmsrFactory.MAX_FEE_BPS): both lanes stamp fees in the same range.
      if (!isInt(c[f], 0, MAX_FEE_BPS)) return invalid(`${f} must be an integer 0..${MAX_FEE_BPS}`, { field: f });
    }
    const id = c.marketId;
    const m: Market = {
      id,
      idStr: id.toString(),
      pricing: c.pricing,
      outcomes: n,
      feeModel: c.feeModel,
      takerFeeBps: c.takerFeeBps,
      sellExitFeeBps: c.sellExitFeeBps,
      winningsExitFeeBps: c.winningsExitFeeBps,
      createdAt: at,
      status: "open",
      book: new Book(this.u),
      assets: Array.from({ length: n }, (_, i) => outcomeAssetId(id, i as OutcomeIndex)),
      lmsr,
      ep: 0,
    };
    this.markets.set(id, m);
    this.u.fn(() => this.markets.delete(id));
    if (lmsr) this.emit({ type: "MARKET_SEED", marketId: id, funder: lmsr.funder, amount: lmsr.seed });
    return this.marketView(m);
  }

  private openMarket(marketId: unknown): Market {
    if (typeof marketId !== "bigint") return invalid("marketId must be a bigint");
    const m = this.markets.get(marketId);
    if (!m) return reject("MARKET_NOT_FOUND", 404, `market ${marketId} not found`);
    if (m.status !== "open") return reject("MARKET_CLOSED", 410, `market ${marketId} is ${m.status}`);
    return m;
  }

  private tradableMarket(marketId: unknown): Market {
    const m = this.openMarket(marketId);
    if (m.pricing !== "ORDERBOOK") return invalid(`market ${marketId} is not an ORDERBOOK market`);
    return m;
  }

  /** resolveMarket (winning outcome) or voidMarket (null): cancels resting orders, burns every share, pays out. */
  private settle(marketId: unknown, winning: unknown, at: number): unknown {
    const m = this.openMarket(marketId);
    if (winning !== null && !isOutcomeIndex(winning, m.outcomes)) return invalid(`winningOutcome must be an integer 0..${m.outcomes - 1}`);
    // Order-book shares were minted by the supply (MINT), so it pays them; LMSR shares are paid by the pool.
    const source = m.lmsr ? "POOL" : "SUPPLY";
    for (const o of [...m.book.orders()]) this.cancelResting(o, "cancelled", "market_closed", at);
    this.saveMarket(m);
    m.status = winning === null ? "voided" : "resolved";
    if (winning !== null) m.winningOutcome = winning;
    let paid = 0n;
    let fees = 0n;
    for (const a of [...this.accts.values()]) {
      if (a.addr === SUPPLY_ACCOUNT) continue;
      for (let i = 0; i < m.outcomes; i++) {
        const side = i as OutcomeIndex;
        const shares = a.bals.get(m.assets[side]!)?.v ?? 0n;
        if (shares <= 0n) continue;
        if (winning === null) {
          // Void: every share is refunded floor(shares / n), so a full set returns at most one unit of collateral
          // (the remainder stays with the market, as LmsrMarket.redeem rounds).
          const refund = voidPayout(shares, m.outcomes);
          this.emit({ type: "VOID_REFUND", marketId: m.id, account: a.addr, side, shares, refund, source });
          paid += refund;
        } else {
          const gross = side === winning ? shares : 0n;
          const fee = exitFee(gross, m.winningsExitFeeBps);
          this.emit({ type: "RESOLUTION_PAYOUT", marketId: m.id, account: a.addr, side, shares, payout: gross - fee, source });
          if (fee > 0n) {
            if (m.lmsr) this.emit({ type: "FEE_SWEEP", marketId: m.id, amount: fee });
            else this.emit({ type: "CREDIT", account: this.config.treasury, assetId: COLLATERAL_ASSET, amount: fee, reason: CreditReason.FEE_SWEEP });
          }
          paid += gross - fee;
          fees += fee;
        }
      }
    }
    let residual = 0n;
    if (m.lmsr) {
      // What is left in the pool after every payout goes back to the funder.
      residual = this.accts.get(m.lmsr.pool)?.bals.get(COLLATERAL_ASSET)?.v ?? 0n;
      if (residual > 0n) this.emit({ type: "POOL_WITHDRAW", marketId: m.id, account: m.lmsr.funder, amount: residual });
    }
    return { market: this.marketView(m), paid, fees, residual };
  }

  /** A trade against the pool of an LMSR market (LMSR_TRADE op), priced by relayer/pricing/lmsr.ts. */
  private lmsrTrade(c: LmsrTradeCommand, at: number): unknown {
    const acct = this.acctFor(addressOf(c.account, "account"), at);
    const m = this.openMarket(c.marketId);
    const st = m.lmsr;
    if (!st) return invalid(`market ${m.idStr} is not an LMSR market`);
    if (!isOutcomeIndex(c.outcome, m.outcomes)) return invalid(`outcome must be an integer 0..${m.outcomes - 1}`, { field: "outcome" });
    if (c.direction !== "BUY" && c.direction !== "SELL") return invalid("direction must be BUY or SELL");
    if (c.limit !== undefined && (typeof c.limit !== "bigint" || c.limit < 0n)) return invalid("limit must be a non-negative bigint");
    const positive = (x: unknown) => typeof x === "bigint" && x > 0n && x <= MAX_ORDER_SIZE;
    if (c.direction === "BUY" ? positive(c.shares) === positive(c.budget) : !positive(c.shares) || c.budget !== undefined) {
      return invalid(c.direction === "BUY" ? "BUY needs exactly one of shares or budget" : "SELL needs shares");
    }
    const held = acct.bals.get(m.assets[c.outcome]!);
    if (this.config.allowance.enabled && this.remaining(acct, at) <= 0) {
      const fullClose = c.direction === "SELL" && held !== undefined && held.v > 0n && c.shares === held.v;
      if (!fullClose) reject("FILL_ALLOWANCE_EXHAUSTED", 402, "no executed wallet-sides left in this period", { allowance: this.allowanceOf(acct, at) });
    }
    const state = { b: st.b, q: st.q };
    let shares: bigint;
    let collateral: bigint;
    let fee: bigint;
    try {
      if (c.direction === "BUY") {
        if (c.budget !== undefined) {
          const r = quoteBuyForCost(state, c.outcome, c.budget);
          if (!r.quote) return reject("CONFLICT", 409, "the budget buys no shares", { reason: "BUDGET_TOO_SMALL" });
          shares = r.shares;
          collateral = r.quote.cost;
        } else {
          shares = c.shares!;
          collateral = quoteBuyShares(state, c.outcome, shares).cost;
        }
        fee = 0n;
        if (c.limit !== undefined && collateral > c.limit) reject("CONFLICT", 409, "cost above the limit", { reason: "SLIPPAGE", cost: collateral.toString() });
      } else {
        shares = c.shares!;
        if (shares > st.q[c.outcome]!) return reject("INSUFFICIENT_BALANCE", 409, "more shares than outstanding");
        const q = quoteSell(state, c.outcome, shares, m.sellExitFeeBps);
        collateral = q.proceeds + q.fee;
        fee = q.fee;
        if (c.limit !== undefined && q.proceeds < c.limit) reject("CONFLICT", 409, "proceeds below the limit", { reason: "SLIPPAGE", proceeds: q.proceeds.toString() });
      }
    } catch (e) {
      if (e instanceof RangeError) return invalid(e.message);
      throw e;
    }
    const q = [...st.q];
    this.saveLmsr(m);
    q[c.outcome] = q[c.outcome]! + (c.direction === "BUY" ? shares : -shares);
    st.q = q;
    this.emit({ type: "LMSR_TRADE", account: acct.addr, marketId: m.id, side: c.outcome, direction: c.direction, shares, collateral, fee });
    this.consume(acct, at);
    const tradeId = `t-${this.nextTrade++}`;
    const net = c.direction === "BUY" ? collateral : collateral - fee;
    this.u.saveAcct(acct);
    const avgBps = Number((net * 10_000n) / shares);
    this.reports[this.nReports++] = {
      account: acct.addr,
      seq: ++acct.seq,
      at,
      kind: "fill",
      orderId: tradeId,
      marketId: m.idStr,
      status: "filled",
      outcome: c.outcome,
      action: c.direction === "BUY" ? "buy" : "sell",
      priceBps: Math.min(9_999, Math.max(1, avgBps)),
      size: shares,
      filledSize: shares,
      remainingSize: 0n,
      tif: "IOC",
      tradeId,
      fillPriceBps: Math.min(9_999, Math.max(1, avgBps)),
      fillSize: shares,
      fee,
      liquidity: "taker",
    };
    return { tradeId, marketId: m.idStr, outcome: c.outcome, direction: c.direction, shares, collateral: net, fee, priceAfterWad: prices({ b: st.b, q })[c.outcome]! };
  }

  private saveLmsr(m: Market): void {
    const st = m.lmsr!;
    const q = st.q;
    this.u.fn(() => {
      st.q = q;
    });
  }

  private saveMarket(m: Market): void {
    if (m.ep === this.u.ep) return;
    m.ep = this.u.ep;
    const { status, winningOutcome } = m;
    this.u.fn(() => {
      m.status = status;
      m.winningOutcome = winningOutcome;
    });
  }

  // ---------------------------------------------------------------- allowance

  private periodIdx(a: Acct, at: number): number {
    return Math.max(0, Math.floor((at - a.signupAt) / this.config.allowance.periodMs));
  }

  private remaining(a: Acct, at: number): number {
    const used = a.periodIdx === this.periodIdx(a, at) ? a.freeUsed : 0;
    return Math.max(0, this.config.allowance.freePerPeriod - used) + a.paid;
  }

  /** One executed wallet-side: free ones first, then purchased credits; past both, free use keeps counting. */
  private consume(a: Acct, at: number): void {
    if (!this.config.allowance.enabled || a.addr === this.config.treasury) return;
    this.u.saveAcct(a);
    const idx = this.periodIdx(a, at);
    if (a.periodIdx !== idx) {
      a.periodIdx = idx;
      a.freeUsed = 0;
    }
    if (a.freeUsed < this.config.allowance.freePerPeriod || a.paid === 0) a.freeUsed++;
    else a.paid--;
  }

  private allowanceOf(a: Acct, at: number): AllowanceView {
    const { enabled, freePerPeriod, periodMs } = this.config.allowance;
    const idx = this.periodIdx(a, at);
    const freeUsed = a.periodIdx === idx ? a.freeUsed : 0;
    const freeRemaining = Math.max(0, freePerPeriod - freeUsed);
    const periodStartsAt = a.signupAt + idx * periodMs;
    return {
      enabled,
      freePerPeriod,
      freeUsed,
      freeRemaining,
      paidRemaining: a.paid,
      remaining: freeRemaining + a.paid,
      periodStartsAt,
      periodEndsAt: periodStartsAt + periodMs,
      durationDays: Math.max(1, Math.round(periodMs / DAY_MS)),
    };
  }

  // ---------------------------------------------------------------- orders

  private checkSpec(s: OrderSpec, at: number): void {
    if (s === null || typeof s !== "object") invalid("order must be an object");
    if (s.outcome !== 0 && s.outcome !== 1) invalid("outcome must be 0 (YES) or 1 (NO)");
    if (s.action !== "buy" && s.action !== "sell") invalid("action must be buy or sell");
    if (!isInt(s.priceBps, 1, 9_999)) invalid("priceBps must be an integer 1..9999");
    if (typeof s.size !== "bigint" || s.size <= 0n || s.size > MAX_ORDER_SIZE || !isLotMultiple(s.size)) {
      invalid(`size must be a positive multiple of ${LOT} (0.01 share) up to ${MAX_ORDER_SIZE}`);
    }
    if (s.tif !== "GTC" && s.tif !== "GTD" && s.tif !== "IOC" && s.tif !== "FOK") invalid("tif must be GTC, GTD, IOC or FOK");
    if (s.tif === "GTD") {
      if (!isInt(s.expiresAt, 0, Number.MAX_SAFE_INTEGER)) invalid("GTD needs expiresAt (ms)");
      if (s.expiresAt! <= at) invalid("expiresAt must be in the future");
    } else if (s.expiresAt !== undefined) invalid("expiresAt is only for GTD");
    if (s.postOnly !== undefined && typeof s.postOnly !== "boolean") invalid("postOnly must be a boolean");
    if (s.postOnly && (s.tif === "IOC" || s.tif === "FOK")) invalid("postOnly cannot be IOC or FOK");
    if (s.clientOrderId !== undefined && (typeof s.clientOrderId !== "string" || s.clientOrderId.length < 1 || s.clientOrderId.length > 64)) {
      invalid("clientOrderId must be 1..64 characters");
    }
  }

  private static sameSpec(o: Order, s: OrderSpec): boolean {
    return (
      o.outcome === s.outcome &&
      o.action === s.action &&
      o.price === s.priceBps &&
      o.size === s.size &&
      o.tif === s.tif &&
      o.expiresAt === s.expiresAt &&
      o.postOnly === (s.postOnly ?? false)
    );
  }

  /** Places one validated order: dedupe, allowance, post-only, FOK, match, then rest or cancel the remainder. */
  private place(acct: Acct, mkt: Market, s: OrderSpec, at: number): Order {
    if (s.clientOrderId !== undefined) {
      const prior = acct.cids.get(s.clientOrderId);
      if (prior) {
        if (prior.mkt === mkt && Engine.sameSpec(prior, s)) return prior;
        reject("CONFLICT", 409, `clientOrderId ${s.clientOrderId} was used for a different order`, { orderId: prior.id });
      }
    }
    const side: 0 | 1 = (s.outcome === 0) === (s.action === "buy") ? 0 : 1;
    const y = s.outcome === 0 ? s.priceBps : 10_000 - s.priceBps;
    if (this.config.allowance.enabled && this.remaining(acct, at) <= 0) {
      const held = acct.bals.get(mkt.assets[s.outcome]!)?.v ?? 0n;
      const fullClose = s.action === "sell" && held > 0n && s.size === held;
      if (!fullClose) {
        reject("FILL_ALLOWANCE_EXHAUSTED", 402, "no executed wallet-sides left in this period; buy trade credits or close a full position", {
          allowance: this.allowanceOf(acct, at),
        });
      }
    }
    const book = mkt.book;
    const crosses = side === 0 ? book.bestAsk <= y : book.bestBid >= y;
    if (s.postOnly && crosses) reject("CONFLICT", 409, "post-only order would cross the book", { reason: "POST_ONLY_WOULD_CROSS" });

    const n = this.nextOrder++;
    const buy = s.action === "buy";
    const o: Order = {
      id: `o-${n}`,
      n,
      acct,
      mkt,
      cid: s.clientOrderId,
      outcome: s.outcome,
      action: s.action,
      price: s.priceBps,
      size: s.size,
      tif: s.tif,
      expiresAt: s.expiresAt,
      postOnly: s.postOnly ?? false,
      createdAt: at,
      side,
      y,
      resAsset: buy ? C0 : mkt.assets[s.outcome]!,
      rem: s.size,
      filled: 0n,
      status: "open",
      updatedAt: at,
      res: 0n,
      prev: null,
      next: null,
      dead: false,
      ep: this.u.ep,
      aPrev: null,
      aNext: null,
    };
    this.byN.push(o); // index n (byN.length === n); apply truncates it on rollback
    if (o.cid !== undefined) acct.cids.set(o.cid, o);
    this.u.newOrder(o);
    this.report(o, "new", at, undefined);

    if (s.tif === "FOK" && crosses && this.fillable(o) < o.size) {
      o.status = "cancelled";
      this.report(o, "cancelled", at, "fok_not_fillable");
      return o;
    }
    if (crosses) this.match(o, at);
    if (o.rem === 0n) return o;
    if (o.tif === "IOC" || o.tif === "FOK") {
      o.status = "cancelled";
      this.report(o, "cancelled", at, s.tif === "FOK" ? "fok_not_fillable" : "ioc_remainder");
      return o;
    }
    // Rest: lock what it can need as a maker (makers pay no fee).
    o.res = buy ? notional(o.rem, o.price) : o.rem;
    const b = acct.bals.get(o.resAsset) ?? this.bal(acct.addr, o.resAsset);
    this.u.saveBal(b);
    b.r += o.res;
    if (b.v < b.r) {
      reject("INSUFFICIENT_BALANCE", 409, `insufficient available balance to rest the order`, {
        account: acct.addr,
        assetId: o.resAsset.toString(),
        shortBy: (b.r - b.v).toString(),
      });
    }
    book.insert(o);
    this.openAdd(acct, o);
    if (o.tif === "GTD") {
      this.expiries.push(o);
      this.u.fn(() => this.removeExpiry(o));
    }
    return o;
  }

  /**
   * The earliest `expiresAt` of a resting GTD order, or undefined. Drops heap entries of orders no longer resting
   * (filled or cancelled before expiry) on the way: they affect nothing, so dropping them between commands keeps
   * replay identical.
   */
  nextExpiry(): number | undefined {
    const h = this.expiries;
    for (let top = h.peek(); top; top = h.peek()) {
      if (!top.dead && isResting(top)) return top.expiresAt;
      h.pop();
    }
    return undefined;
  }

  private removeExpiry(o: Order): void {
    const a = this.expiries.a;
    const i = a.indexOf(o);
    if (i < 0) return;
    // Rare path (rollback): rebuild the heap without o.
    const rest = a.filter((x) => x !== o);
    a.length = 0;
    for (const x of rest) this.expiries.push(x);
  }

  /** Size a taker could fill now (other accounts' resting orders at crossing prices). */
  private fillable(t: Order): bigint {
    const book = t.mkt.book;
    let sum = 0n;
    if (t.side === 0) {
      for (let p = book.bestAsk; p <= t.y && p < NO_ASK; p++) {
        for (let m = book.asks[p]?.head ?? null; m; m = m.next) if (m.acct !== t.acct) if ((sum += m.rem) >= t.size) return sum;
      }
    } else {
      for (let p = book.bestBid; p >= t.y && p > NO_BID; p--) {
        for (let m = book.bids[p]?.head ?? null; m; m = m.next) if (m.acct !== t.acct) if ((sum += m.rem) >= t.size) return sum;
      }
    }
    return sum;
  }

  private match(t: Order, at: number): void {
    const book = t.mkt.book;
    if (t.side === 0) {
      while (t.rem > 0n && book.bestAsk <= t.y) {
        let m = book.asks[book.bestAsk]!.head;
        while (m && t.rem > 0n) {
          const next = m.next;
          if (m.acct === t.acct) this.cancelResting(m, "cancelled", "self_trade_prevention", at);
          else this.fill(t, m, at);
          m = next;
        }
      }
    } else {
      while (t.rem > 0n && book.bestBid >= t.y) {
        let m = book.bids[book.bestBid]!.head;
        while (m && t.rem > 0n) {
          const next = m.next;
          if (m.acct === t.acct) this.cancelResting(m, "cancelled", "self_trade_prevention", at);
          else this.fill(t, m, at);
          m = next;
        }
      }
    }
  }

  private fill(t: Order, m: Order, at: number): void {
    const f = t.rem < m.rem ? t.rem : m.rem;
    const mkt = t.mkt;
    const same = t.outcome === m.outcome;
    const kind = same ? (t.action === "buy" ? K_TAKER_BUYS : K_TAKER_SELLS) : t.action === "buy" ? K_MINT : K_MERGE;
    const takerPrice = same ? m.price : 10_000 - m.price;
    const fee = feeOf(mkt.feeModel, takerPrice, f, mkt.takerFeeBps);
    // Maker: release the lock of the filled part before it pays.
    this.u.saveOrder(m);
    m.rem -= f;
    m.filled += f;
    m.updatedAt = at;
    const newRes = m.action === "buy" ? notional(m.rem, m.price) : m.rem;
    const mb = m.acct.bals.get(m.resAsset)!;
    this.u.saveBal(mb);
    mb.r -= m.res - newRes;
    m.res = newRes;
    const op: MatchOp = { type: "MATCH", maker: m.acct.addr, taker: t.acct.addr, marketId: mkt.id, side: m.outcome, kind, shares: f, priceBps: m.price, fee };
    this.emit(op);
    t.rem -= f;
    t.filled += f;
    t.updatedAt = at;
    this.consume(t.acct, at);
    this.consume(m.acct, at);
    const tradeId = `t-${this.nextTrade++}`;
    const kindName = MATCH_KIND_NAMES[kind]!;
    if (m.rem === 0n) {
      m.status = "filled";
      mkt.book.remove(m);
      this.openDelete(m);
    } else m.status = "partially_filled";
    t.status = t.rem === 0n ? "filled" : "partially_filled";
    this.fillReport(m, at, tradeId, m.price, f, 0n, "maker", kindName, t.id);
    this.fillReport(t, at, tradeId, takerPrice, f, fee, "taker", kindName, m.id);
  }

  /** Links a new resting order at the head of its account's resting list. */
  private openAdd(a: Acct, o: Order): void {
    const head = a.openHead ?? null;
    o.aNext = head;
    if (head) head.aPrev = o;
    a.openHead = o;
    this.u.openAdded(o);
  }

  /** Unlinks an order from its account's resting list. */
  private openDelete(o: Order): void {
    const prev = o.aPrev ?? null;
    const next = o.aNext ?? null;
    if (prev) prev.aNext = next;
    else o.acct.openHead = next;
    if (next) next.aPrev = prev;
    o.aPrev = o.aNext = null;
    this.u.openDeleted(o, prev, next);
  }

  /** Takes a resting order off the book and releases its lock. */
  private cancelResting(o: Order, status: "cancelled" | "expired", reason: CancelReason | undefined, at: number): void {
    this.u.saveOrder(o);
    const b = o.acct.bals.get(o.resAsset)!;
    this.u.saveBal(b);
    b.r -= o.res;
    o.res = 0n;
    o.mkt.book.remove(o);
    o.status = status;
    o.updatedAt = at;
    this.openDelete(o);
    this.report(o, status, at, reason);
  }

  private sweepExpired(at: number): void {
    const h = this.expiries;
    for (let top = h.peek(); top && top.expiresAt! <= at; top = h.peek()) {
      const o = h.pop()!;
      this.u.fn(() => h.push(o));
      if (!o.dead && isResting(o)) this.cancelResting(o, "expired", undefined, at);
    }
  }

  private cancelOrder(account: unknown, orderId: unknown, clientOrderId: unknown, at: number): unknown {
    const addr = addressOf(account, "account");
    let o: Order | undefined;
    if (typeof orderId === "string") o = this.orderById(orderId);
    else if (typeof clientOrderId === "string") o = this.accts.get(addr)?.cids.get(clientOrderId);
    else return invalid("orderId or clientOrderId is required");
    if (!o || o.acct.addr !== addr) return reject("ORDER_NOT_FOUND", 404, "order not found");
    if (isResting(o)) this.cancelResting(o, "cancelled", "user", at);
    else if (o.status === "filled") reject("CONFLICT", 409, "order is already filled", { reason: "ORDER_NOT_OPEN", order: this.view(o) });
    return this.view(o);
  }

  private orderById(id: string): Order | undefined {
    const n = orderNumber(id);
    return n > 0 && n < this.byN.length ? this.byN[n] : undefined;
  }

  /**
   * A "new", "cancelled" or "expired" report. Key order is part of the journaled JSON: the base fields, then
   * clientOrderId, then reason.
   */
  private report(o: Order, kind: ReportKind, at: number, reason: CancelReason | undefined): void {
    const a = o.acct;
    this.u.saveAcct(a);
    const seq = ++a.seq;
    const remainingSize = o.status === "cancelled" || o.status === "expired" ? 0n : o.rem;
    let r: ExecutionReport;
    if (o.cid === undefined && reason !== undefined) {
      // The common cancel, as one literal (same keys, same order as the general case below).
      r = {
        account: a.addr, seq, at, kind, orderId: o.id, marketId: o.mkt.idStr, status: o.status, outcome: o.outcome, action: o.action,
        priceBps: o.price, size: o.size, filledSize: o.filled, remainingSize, tif: o.tif, reason,
      };
    } else {
      r = {
        account: a.addr, seq, at, kind, orderId: o.id, marketId: o.mkt.idStr, status: o.status, outcome: o.outcome, action: o.action,
        priceBps: o.price, size: o.size, filledSize: o.filled, remainingSize, tif: o.tif,
      };
      if (o.cid !== undefined) r.clientOrderId = o.cid;
      if (reason !== undefined) r.reason = reason;
    }
    this.reports[this.nReports++] = r;
  }

  /** A "fill" report, built as one literal (same keys, same order as report() plus the fill fields). */
  private fillReport(
    o: Order, at: number, tradeId: string, fillPriceBps: number, fillSize: bigint, fee: bigint, liquidity: "maker" | "taker", matchKind: MatchKindName, counterOrderId: string,
  ): void {
    const a = o.acct;
    this.u.saveAcct(a);
    if (o.cid !== undefined) {
      this.reports[this.nReports++] = {
        account: a.addr, seq: ++a.seq, at, kind: "fill", orderId: o.id, marketId: o.mkt.idStr, status: o.status, outcome: o.outcome, action: o.action,
        priceBps: o.price, size: o.size, filledSize: o.filled, remainingSize: o.rem, tif: o.tif, clientOrderId: o.cid,
        tradeId, fillPriceBps, fillSize, fee, liquidity, matchKind, counterOrderId,
      };
    } else {
      this.reports[this.nReports++] = {
        account: a.addr, seq: ++a.seq, at, kind: "fill", orderId: o.id, marketId: o.mkt.idStr, status: o.status, outcome: o.outcome, action: o.action,
        priceBps: o.price, size: o.size, filledSize: o.filled, remainingSize: o.rem, tif: o.tif,
        tradeId, fillPriceBps, fillSize, fee, liquidity, matchKind, counterOrderId,
      };
    }
  }

  // ---------------------------------------------------------------- read views

  private view(o: Order): OrderView {
    const v: OrderView = {
      orderId: o.id,
      account: o.acct.addr,
      marketId: o.mkt.idStr,
      outcome: o.outcome,
      action: o.action,
      priceBps: o.price,
      size: o.size,
      filledSize: o.filled,
      remainingSize: isResting(o) ? o.rem : 0n,
      tif: o.tif,
      postOnly: o.postOnly,
      status: o.status,
      reserved: o.res,
      createdAt: o.createdAt,
      updatedAt: o.updatedAt,
    };
    if (o.cid !== undefined) v.clientOrderId = o.cid;
    if (o.expiresAt !== undefined) v.expiresAt = o.expiresAt;
    return v;
  }

  private marketView(m: Market) {
    return {
      marketId: m.idStr,
      pricing: m.pricing,
      outcomes: m.outcomes,
      feeModel: m.feeModel,
      takerFeeBps: m.takerFeeBps,
      sellExitFeeBps: m.sellExitFeeBps,
      winningsExitFeeBps: m.winningsExitFeeBps,
      status: m.status,
      ...(m.winningOutcome !== undefined ? { winningOutcome: m.winningOutcome } : {}),
      createdAt: m.createdAt,
      bestBidBps: m.book.bestBid === NO_BID ? null : m.book.bestBid,
      bestAskBps: m.book.bestAsk === NO_ASK ? null : m.book.bestAsk,
      ...(m.lmsr ? { lmsr: { b: m.lmsr.b, q: [...m.lmsr.q], seed: m.lmsr.seed, funder: m.lmsr.funder, pool: m.lmsr.pool, pricesWad: prices({ b: m.lmsr.b, q: m.lmsr.q }) } } : {}),
    };
  }

  private balanceView(addr: Address, assetId: bigint) {
    const b = this.accts.get(addr)?.bals.get(assetId);
    const total = b?.v ?? 0n;
    const reserved = b?.r ?? 0n;
    return { assetId, total, reserved, available: total - reserved };
  }

  /** One balance (total, reserved, available) of an account. */
  balance(account: Address, assetId: bigint): { assetId: bigint; total: bigint; reserved: bigint; available: bigint } {
    return this.balanceView(normalizeAccount(account), assetId);
  }

  /** Every non-zero balance of an account, collateral first. */
  balances(account: Address): { assetId: bigint; total: bigint; reserved: bigint; available: bigint }[] {
    const a = this.accts.get(normalizeAccount(account));
    if (!a) return [];
    return [...a.bals.entries()]
      .filter(([, b]) => b.v !== 0n || b.r !== 0n)
      .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
      .map(([id]) => this.balanceView(a.addr, id));
  }

  openOrders(account: Address, marketId?: bigint): OrderView[] {
    const a = this.accts.get(normalizeAccount(account));
    if (!a) return [];
    const out: OrderView[] = [];
    for (const o of byAge(a)) if (marketId === undefined || o.mkt.id === marketId) out.push(this.view(o));
    return out;
  }

  order(orderId: string): OrderView | undefined {
    const o = this.orderById(orderId);
    return o ? this.view(o) : undefined;
  }

  orderByClientId(account: Address, clientOrderId: string): OrderView | undefined {
    const o = this.accts.get(normalizeAccount(account))?.cids.get(clientOrderId);
    return o ? this.view(o) : undefined;
  }

  /** Aggregated depth in YES terms (NO prices are 10000 - p), best first. */
  book(marketId: bigint, levels = 50) {
    const m = this.markets.get(marketId);
    return m ? m.book.depth(levels) : undefined;
  }

  market(marketId: bigint) {
    const m = this.markets.get(marketId);
    return m ? this.marketView(m) : undefined;
  }

  /** The LMSR pricing state of an open-or-closed LMSR market and the outcome, or undefined (no such market/outcome). */
  private lmsrOf(marketId: bigint, outcome: number): { m: Market; state: LmsrState } | undefined {
    const m = this.markets.get(marketId);
    if (!m?.lmsr || !isOutcomeIndex(outcome, m.outcomes)) return undefined;
    return { m, state: { b: m.lmsr.b, q: m.lmsr.q } };
  }

  /**
   * Quote of an LMSR trade of `shares` without changing anything: BUY `collateral` = cost (fee included, buy fee 0),
   * SELL `collateral` = net proceeds after `fee` (the sell exit fee). Undefined for an unknown market or outcome,
   * shares <= 0, or a sell of more than is outstanding. Same integers lmsrTrade executes.
   */
  lmsrQuote(marketId: bigint, outcome: LmsrOutcome, direction: "BUY" | "SELL", shares: bigint): LmsrQuote | undefined {
    const x = this.lmsrOf(marketId, outcome);
    if (!x || typeof shares !== "bigint" || shares <= 0n || shares > MAX_ORDER_SIZE) return undefined;
    try {
      if (direction === "BUY") return buyQuote(shares, quoteBuyShares(x.state, outcome, shares));
      if (shares > x.state.q[outcome]!) return undefined;
      const qt = quoteSell(x.state, outcome, shares, x.m.sellExitFeeBps);
      return { shares, collateral: qt.proceeds, fee: qt.fee, priceAfterWad: qt.priceAfter };
    } catch (e) {
      if (e instanceof RangeError) return undefined; // the pricing module refuses what the contract would revert on
      throw e;
    }
  }

  /**
   * Quote of an LMSR BUY by cost: the most shares whose cost fits in `budget` (what lmsrTrade with `budget` buys).
   * Undefined for an unknown market or outcome or a budget outside 1..MAX_ORDER_SIZE (lmsrTrade's bounds); `shares: 0n`
   * when the budget buys nothing.
   */
  lmsrQuoteForCost(marketId: bigint, outcome: LmsrOutcome, budget: bigint): LmsrQuote | undefined {
    const x = this.lmsrOf(marketId, outcome);
    if (!x || typeof budget !== "bigint" || budget <= 0n || budget > MAX_ORDER_SIZE) return undefined;
    let r: ReturnType<typeof quoteBuyForCost>;
    try {
      r = quoteBuyForCost(x.state, outcome, budget);
    } catch (e) {
      if (e instanceof RangeError) return undefined;
      throw e;
    }
    if (!r.quote) return { shares: 0n, collateral: 0n, fee: 0n, priceAfterWad: prices(x.state)[outcome]! };
    return buyQuote(r.shares, r.quote);
  }

  allowance(account: Address, at: number): AllowanceView {
    const addr = normalizeAccount(account);
    const a = this.accts.get(addr);
    if (a) return this.allowanceOf(a, at);
    const { enabled, freePerPeriod, periodMs } = this.config.allowance;
    return {
      enabled,
      freePerPeriod,
      freeUsed: 0,
      freeRemaining: freePerPeriod,
      paidRemaining: 0,
      remaining: freePerPeriod,
      periodStartsAt: at,
      periodEndsAt: at + periodMs,
      durationDays: Math.max(1, Math.round(periodMs / DAY_MS)),
    };
  }

  /** Every account the engine knows (tests, invariants). */
  accounts(): Address[] {
    return [...this.accts.keys()];
  }
}
