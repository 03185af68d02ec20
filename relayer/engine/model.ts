/**
 * The engine's records: accounts with their balance records, markets, orders and book levels. Mutable fields change
 * only through the engine's transaction log (./undo.ts), which restores them when a command is refused.
 */
import type { Address, Hex } from "viem";
import type { MarketLifecycle } from "../lifecycle";
import type { Book, Level as BookLevel } from "./book";
import type { FeeModel, FinalSettlement, Lane, MarketStatus, OrderAction, OrderStatus, Outcome, PayoutReceipt, Pricing, TimeInForce } from "./types";

export interface Bal {
  v: bigint;
  r: bigint;
  ep: number;
}

export interface Acct {
  readonly addr: Address;
  signupAt: number;
  opened: boolean;
  seq: number;
  periodIdx: number;
  freeUsed: number;
  paid: number;
  readonly bals: Map<bigint, Bal>;
  /**
   * Resting orders: an intrusive doubly-linked list through Order.aPrev/aNext, newest first (O(1) add and remove, no
   * hashing; readers sort by age). The engine always sets it; optional only for bare accounts built outside it.
   */
  openHead?: Order | null;
  /** clientOrderId -> order, for the orders the engine holds (./retention.ts: resting, and the last finished ones). */
  readonly cids: Map<string, Order>;
  /** The account's finished orders still held, oldest first from doneHead (./retention.ts); null until the first. */
  done?: (Order | undefined)[] | null;
  doneHead: number;
  ep: number;
  /**
   * What committed markets paid this account at their finality, in payment order (null until the first). Kept on the
   * account, not in a map per market: a finality adds one per holder, and 100,000 map inserts cost more than the
   * payouts themselves. The engine always sets it; optional only for bare accounts built outside it.
   */
  receipts?: PayoutReceipt[] | null;
}

export interface Market {
  readonly id: bigint;
  readonly idStr: string;
  readonly pricing: Pricing;
  readonly outcomes: number;
  readonly feeModel: FeeModel;
  readonly takerFeeBps: number;
  readonly sellExitFeeBps: number;
  readonly winningsExitFeeBps: number;
  readonly createdAt: number;
  status: MarketStatus;
  winningOutcome?: number;
  readonly book: Book<Order>;
  /** Outcome asset ids, one per outcome (2; ternary LMSR markets 3). */
  readonly assets: readonly bigint[];
  /** LMSR markets: pricing state (b, outstanding shares) and the pool. */
  readonly lmsr?: { b: bigint; q: bigint[]; readonly funder: Address; readonly pool: Address; readonly seed: bigint };
  /**
   * Trading is refused from this instant on (the one lifecycle field the trade path reads): closeTime for a market
   * with a lifecycle, MAX_SAFE_INTEGER otherwise.
   */
  closeAt: number;
  /** The market's lifecycle, when it was created with a creator. */
  lcm?: LcMarket;
  ep: number;
}

/** The terms of a market with a lifecycle (on-chain lane markets have no Market record, only these). */
export interface LcTerms {
  readonly pricing: Pricing;
  readonly outcomes: number;
  readonly feeModel: FeeModel;
  readonly takerFeeBps: number;
  readonly sellExitFeeBps: number;
  readonly winningsExitFeeBps: number;
  readonly seed: bigint | null;
  readonly createdAt: number;
}

/** A market's life in the engine: the pure lifecycle record (relayer/lifecycle) and what the engine adds to it. */
export interface LcMarket {
  readonly id: bigint;
  readonly idStr: string;
  readonly lane: Lane;
  readonly terms: LcTerms;
  /** The committed market (book or pool); undefined on the on-chain lane. */
  readonly mkt?: Market;
  lc: MarketLifecycle;
  /** The salt of each sealed ballot, by `${session}/${voter}` (revealed in BALLOT_REVEAL at the session's end). */
  readonly salts: Map<string, Hex>;
  /** Committed lane: what each holder was paid at finality, in payment order (also on each holder's Acct). */
  readonly receipts: PayoutReceipt[];
  finalAt: number | null;
  settlement: FinalSettlement | null;
  /** Pool residual the creator collected. */
  collected: bigint;
  ep: number;
}

export interface Order {
  readonly id: string;
  readonly n: number;
  readonly acct: Acct;
  readonly mkt: Market;
  readonly cid?: string;
  readonly outcome: Outcome;
  readonly action: OrderAction;
  readonly price: number;
  readonly size: bigint;
  readonly tif: TimeInForce;
  readonly expiresAt?: number;
  readonly postOnly: boolean;
  readonly createdAt: number;
  /** 0 = bid, 1 = ask (YES terms). */
  readonly side: 0 | 1;
  /** Price in YES terms. */
  readonly y: number;
  readonly resAsset: bigint;
  rem: bigint;
  filled: bigint;
  status: OrderStatus;
  updatedAt: number;
  /** Amount of resAsset currently locked. */
  res: bigint;
  prev: Order | null;
  next: Order | null;
  /** Set when the command that created it was rolled back. */
  dead: boolean;
  ep: number;
  /** Neighbours in its account's resting list (Acct.openHead); the engine always sets them. */
  aPrev?: Order | null;
  aNext?: Order | null;
}

/** A price level of a market's book. */
export type Level = BookLevel<Order>;

/**
 * An engine balance record: the Bal the book and undo log see, plus what the ledger mirror needs to copy it.
 * `pend` is set while the ledger lacks its latest value.
 */
export interface MBal extends Bal {
  readonly addr: Address;
  readonly asset: bigint;
  pend: boolean;
}

export function isResting(o: Order): boolean {
  return o.status === "open" || o.status === "partially_filled";
}

/** An account's resting orders oldest first (the list order does not survive a rollback, so it is never relied on). */
export function byAge(a: Acct): Order[] {
  const out: Order[] = [];
  for (let o = a.openHead ?? null; o; o = o.aNext ?? null) out.push(o);
  return out.sort((x, y) => x.n - y.n);
}
