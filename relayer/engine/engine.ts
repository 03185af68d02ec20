/**
 * The in-memory exchange engine of the committed lane (docs/engine.md): accounts, balances with reservations, one
 * order book per binary ORDERBOOK market, LMSR pool markets (2 or 3 outcomes), the fill allowance and execution
 * reports. `apply(command, at)` is deterministic and atomic: it answers the command's typed result with the ops and
 * reports it produced, or a `Rejected` value with the state exactly as before. The rules live in the concept modules
 * (./commands.ts dispatches to them); this class owns the state and serves the read views.
 */
import type { Address } from "viem";
import { normalizeAccount, type LedgerState } from "../../decoder";
import { allowanceView } from "./allowance";
import { dispatch } from "./commands";
import { nextExpiry, sweepExpired } from "./expiry";
import { nextLifecycleDeadline } from "./lifecycle-clock";
import { creatorFundsView, lifecycleView, receiptsOf, receiptsOfAccount } from "./lifecycle-views";
import { lmsrQuote, lmsrQuoteForCost } from "./lmsr-trade";
import { orderById } from "./orders";
import { Refusal } from "./rejection";
import { retireFinished } from "./retention";
import { restoreInto, snapshotFromParts, snapshotOf, snapshotParts } from "./snapshot";
import { EngineState } from "./state";
import type {
  Accepted,
  AllowanceView,
  Applied,
  BalanceView,
  BookDepth,
  Command,
  CreatorFundsView,
  EngineConfig,
  LifecycleView,
  LmsrOutcome,
  LmsrQuote,
  MarketView,
  OrderView,
  PayoutReceipt,
  ResultOf,
} from "./types";
import { addressOf, isInt } from "./validation";
import { balanceView, balancesView, lcMarketView, marketView, openOrdersView, orderView } from "./views";

// Hot path: imported functions are called through these locals (transpiled CommonJS imports are getter chains).
const sweep = sweepExpired;
const run = dispatch;
const isIntAt = isInt;
const retire = retireFinished;

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

export class Engine {
  readonly #s: EngineState;

  constructor(config: EngineConfig) {
    let treasury: Address;
    try {
      treasury = addressOf(config.treasury, "treasury");
    } catch (e) {
      throw new Error(`engine config: ${e instanceof Refusal ? e.message : String(e)}`);
    }
    if (!isInt(config.allowance.freePerPeriod, 0, 1e9) || !isInt(config.allowance.periodMs, 1, Number.MAX_SAFE_INTEGER)) {
      throw new Error("engine config: allowance.freePerPeriod >= 0 and periodMs > 0 integers");
    }
    if (config.keepFinished !== undefined && !isInt(config.keepFinished, 0, 1e9)) throw new Error("engine config: keepFinished a non-negative integer");
    this.#s = new EngineState({
      treasury,
      allowance: { ...config.allowance },
      ...(config.keepFinished !== undefined ? { keepFinished: config.keepFinished } : {}),
    });
  }

  get config(): EngineConfig {
    return this.#s.config;
  }

  /**
   * The engine's state as JSON texts (./snapshot.ts: a head and parts of at most SNAPSHOT_PART_RECORDS records), taken
   * between two commands. `Engine.fromSnapshot` under the same configuration gives an engine that answers every later
   * command exactly as this one would.
   */
  snapshot(): string[] {
    return snapshotParts(snapshotOf(this.#s)); // no bigint is left in it: one would throw here, not go out wrong
  }

  /** An engine restored from `snapshot()`'s texts; throws (SnapshotError) for another version or configuration. */
  static fromSnapshot(config: EngineConfig, parts: readonly string[]): Engine {
    const e = new Engine(config);
    restoreInto(e.#s, snapshotFromParts(parts));
    return e;
  }

  /**
   * The decoder LedgerState mirror of the engine balances (the movements of every emitted op applied in order).
   * Kept lazily: emit() records which balances moved, and reading `ledger` copies their current values in, so the
   * state (balances, root, proofs) is exactly what applying every movement would give.
   */
  get ledger(): LedgerState {
    const s = this.#s;
    const p = s.pending;
    if (p.length > 0) {
      const l = s.ledger;
      for (let i = 0; i < p.length; i++) {
        const b = p[i]!;
        b.pend = false;
        if (l.balanceOf(b.addr, b.asset) !== b.v) l.setBalance(b.addr, b.asset, b.v);
      }
      p.length = 0;
    }
    return s.ledger;
  }

  /**
   * Applies `command` at `at` (epoch ms, from the command's journal entry). Expires the GTD orders due first, then
   * runs the command's handler. A refusal rolls every mutation back and is answered as `{ok: false, code, ...}`; an
   * exception from here is a bug.
   */
  apply<C extends Command>(command: C, at: number): Applied<C> {
    if (!isIntAt(at, 0, Number.MAX_SAFE_INTEGER)) return { ok: false, code: "INVALID_PAYLOAD", message: "at must be a non-negative integer", details: {} };
    const s = this.#s;
    const u = s.u;
    u.begin();
    const nextOrder = s.nextOrder;
    const nextTrade = s.nextTrade;
    s.nOps = 0;
    s.nReports = 0;
    s.nEvents = 0;
    let result: ResultOf<C>;
    try {
      sweep(s, at);
      result = run(s, command, at) as ResultOf<C>;
    } catch (e) {
      u.rollback();
      s.nextOrder = nextOrder;
      s.byN.length = nextOrder - s.base;
      s.nextTrade = nextTrade;
      if (e instanceof Refusal) return { ok: false, code: e.code, message: e.message, details: e.details } as Applied<C>;
      throw e;
    }
    u.commit();
    if (s.nReports > 0) retire(s);
    // Fresh arrays: the returned ones belong to the caller.
    const accepted: Accepted<C> = { ok: true, result, ops: take(s.ops, s.nOps), reports: take(s.reports, s.nReports) };
    if (s.nEvents > 0) accepted.events = s.events.slice(0, s.nEvents);
    return accepted;
  }

  /** The earliest instant a market's lifecycle transition falls due (the exchange's lifecycle timer), or undefined. */
  nextLifecycleDeadline(): number | undefined {
    return nextLifecycleDeadline(this.#s);
  }

  /** The earliest `expiresAt` of a resting GTD order, or undefined (the exchange's expiry timer). */
  nextExpiry(): number | undefined {
    return nextExpiry(this.#s);
  }

  // ---------------------------------------------------------------- read views

  /** One balance (total, reserved, available) of an account. */
  balance(account: Address, assetId: bigint): BalanceView {
    return balanceView(this.#s, normalizeAccount(account), assetId);
  }

  /** Every non-zero balance of an account, collateral first. */
  balances(account: Address): BalanceView[] {
    return balancesView(this.#s, normalizeAccount(account));
  }

  /** An account's resting orders, oldest first, in one market or all. */
  openOrders(account: Address, marketId?: bigint): OrderView[] {
    return openOrdersView(this.#s, normalizeAccount(account), marketId);
  }

  order(orderId: string): OrderView | undefined {
    const o = orderById(this.#s, orderId);
    return o ? orderView(o) : undefined;
  }

  orderByClientId(account: Address, clientOrderId: string): OrderView | undefined {
    const o = this.#s.accts.get(normalizeAccount(account))?.cids.get(clientOrderId);
    return o ? orderView(o) : undefined;
  }

  /** Aggregated depth in YES terms (NO prices are 10000 - p), best first. */
  book(marketId: bigint, levels = 50): BookDepth | undefined {
    return this.#s.markets.get(marketId)?.book.depth(levels);
  }

  /**
   * Remaining sizes of the resting orders at one price level (YES terms, as {@link book} shows it), oldest first: the
   * fills a taker sweeping the level would make, one per maker order. Undefined for an unknown market.
   */
  levelSizes(marketId: bigint, side: "bids" | "asks", priceBps: number): bigint[] | undefined {
    return this.#s.markets.get(marketId)?.book.levelSizes(side, priceBps);
  }

  /** A market of either lane (an on-chain lane market is known here only by its lifecycle). */
  market(marketId: bigint): MarketView | undefined {
    const m = this.#s.markets.get(marketId);
    if (m) return marketView(m);
    const lm = this.#s.lifecycles.get(marketId);
    return lm ? lcMarketView(lm) : undefined;
  }

  /** A market's lifecycle (markets created with a creator), or undefined. */
  lifecycle(marketId: bigint): LifecycleView | undefined {
    const lm = this.#s.lifecycles.get(marketId);
    return lm ? lifecycleView(lm) : undefined;
  }

  /**
   * The accounts holding a ballot in the market's current vote session (public: each ballot's STAKE_LOCK in the
   * journal names its voter; the outcomes stay sealed). Empty without a session.
   */
  sessionVoters(marketId: bigint): Address[] {
    const vote = this.#s.lifecycles.get(marketId)?.lc.vote;
    return vote ? vote.ballots.map((b) => b.voter) : [];
  }

  /** Every market's lifecycle, by market id ascending. */
  lifecycles(): LifecycleView[] {
    return [...this.#s.lifecycles.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).map(lifecycleView);
  }

  /** What each holder of a final committed market was paid (undefined for a market without a lifecycle). */
  payoutReceipts(marketId: bigint): PayoutReceipt[] | undefined {
    const lm = this.#s.lifecycles.get(marketId);
    return lm ? receiptsOf(lm) : undefined;
  }

  /** What one account was paid at the finality of every committed market it held. */
  receiptsOf(account: Address): PayoutReceipt[] {
    return receiptsOfAccount(this.#s, normalizeAccount(account));
  }

  /** The creator's pool residual of a market with a lifecycle: what it holds, what is collectable, what was collected. */
  creatorFunds(marketId: bigint): CreatorFundsView | undefined {
    const lm = this.#s.lifecycles.get(marketId);
    return lm ? creatorFundsView(this.#s, lm) : undefined;
  }

  /** The council members the engine holds (setCouncil). */
  council(): Address[] {
    return [...this.#s.council].sort();
  }

  /**
   * Quote of an LMSR trade of `shares` without changing anything: BUY `collateral` = cost (fee included, buy fee 0),
   * SELL `collateral` = net proceeds after `fee` (the sell exit fee). Undefined for an unknown market or outcome,
   * shares <= 0, or a sell of more than is outstanding. Same integers lmsrTrade executes.
   */
  lmsrQuote(marketId: bigint, outcome: LmsrOutcome, direction: "BUY" | "SELL", shares: bigint): LmsrQuote | undefined {
    return lmsrQuote(this.#s, marketId, outcome, direction, shares);
  }

  /**
   * Quote of an LMSR BUY by cost: the most shares whose cost fits in `budget` (what lmsrTrade with `budget` buys).
   * Undefined for an unknown market or outcome or a budget outside 1..MAX_ORDER_SIZE (lmsrTrade's bounds); `shares: 0n`
   * when the budget buys nothing.
   */
  lmsrQuoteForCost(marketId: bigint, outcome: LmsrOutcome, budget: bigint): LmsrQuote | undefined {
    return lmsrQuoteForCost(this.#s, marketId, outcome, budget);
  }

  /** The fill allowance of an account at `at` (an account the engine never saw has a full period from `at`). */
  allowance(account: Address, at: number): AllowanceView {
    return allowanceView(this.#s, normalizeAccount(account), at);
  }

  /** Every account the engine knows (tests, invariants). */
  accounts(): Address[] {
    return [...this.#s.accts.keys()];
  }
}
