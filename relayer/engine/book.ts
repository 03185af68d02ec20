/**
 * The order book of one binary market, kept in YES terms: bids are YES buys and NO sells (at 10000 - p), asks are
 * YES sells and NO buys (at 10000 - p). Price levels are arrays indexed by bps; each level is an intrusive FIFO
 * doubly-linked list, so insert, cancel and the head fill are O(1) and nothing is ever sorted.
 * Every mutation records the previous values in the engine's transaction log (see ./undo.ts).
 */
import type { Address } from "viem";
import type { FeeModel, OrderAction, OrderStatus, Outcome, Pricing, TimeInForce } from "./types";
import type { Undo } from "./undo";

export const NO_BID = 0;
export const NO_ASK = 10_000;

export interface Bal { v: bigint; r: bigint; ep: number }

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
  /** clientOrderId -> order (unique per account for ever). */
  readonly cids: Map<string, Order>;
  ep: number;
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
  status: "open" | "resolved" | "voided";
  winningOutcome?: number;
  readonly book: Book;
  /** Outcome asset ids, one per outcome (2; ternary LMSR markets 3). */
  readonly assets: readonly bigint[];
  /** LMSR markets: pricing state (b, outstanding shares) and the pool. */
  readonly lmsr?: { b: bigint; q: bigint[]; readonly funder: Address; readonly pool: Address; readonly seed: bigint };
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

export interface Level { head: Order | null; tail: Order | null; ep: number }

export class Book {
  readonly bids: (Level | undefined)[] = new Array(10_001);
  readonly asks: (Level | undefined)[] = new Array(10_001);
  bestBid = NO_BID;
  bestAsk = NO_ASK;
  ep = 0;

  constructor(private readonly u: Undo) {}

  /** Appends a resting order at the back of its level. */
  insert(o: Order): void {
    const arr = o.side === 0 ? this.bids : this.asks;
    let lv = arr[o.y];
    if (lv === undefined) arr[o.y] = lv = { head: null, tail: null, ep: 0 };
    this.u.saveLevel(lv);
    this.u.saveOrder(o);
    const tail = lv.tail;
    if (tail) {
      this.u.saveOrder(tail);
      tail.next = o;
      o.prev = tail;
    } else lv.head = o;
    lv.tail = o;
    if (o.side === 0) {
      if (o.y > this.bestBid) {
        this.u.saveBook(this);
        this.bestBid = o.y;
      }
    } else if (o.y < this.bestAsk) {
      this.u.saveBook(this);
      this.bestAsk = o.y;
    }
  }

  /** Unlinks a resting order; moves the best price when its level empties. */
  remove(o: Order): void {
    const arr = o.side === 0 ? this.bids : this.asks;
    const lv = arr[o.y]!;
    this.u.saveLevel(lv);
    this.u.saveOrder(o);
    const { prev, next } = o;
    if (prev) {
      this.u.saveOrder(prev);
      prev.next = next;
    } else lv.head = next;
    if (next) {
      this.u.saveOrder(next);
      next.prev = prev;
    } else lv.tail = prev;
    o.prev = o.next = null;
    if (lv.head !== null) return;
    if (o.side === 0) {
      if (o.y === this.bestBid) {
        this.u.saveBook(this);
        let p = o.y - 1;
        while (p > NO_BID && !arr[p]?.head) p--;
        this.bestBid = p;
      }
    } else if (o.y === this.bestAsk) {
      this.u.saveBook(this);
      let p = o.y + 1;
      while (p < NO_ASK && !arr[p]?.head) p++;
      this.bestAsk = p;
    }
  }

  /** Aggregated levels in YES terms, best first. */
  depth(levels: number): { bids: { priceBps: number; size: bigint; orders: number }[]; asks: { priceBps: number; size: bigint; orders: number }[] } {
    const side = (arr: (Level | undefined)[], start: number, step: number) => {
      const out: { priceBps: number; size: bigint; orders: number }[] = [];
      for (let p = start; p > NO_BID && p < NO_ASK && out.length < levels; p += step) {
        let o = arr[p]?.head ?? null;
        if (!o) continue;
        let size = 0n;
        let n = 0;
        for (; o; o = o.next) {
          size += o.rem;
          n++;
        }
        out.push({ priceBps: p, size, orders: n });
      }
      return out;
    };
    return { bids: side(this.bids, this.bestBid, -1), asks: side(this.asks, this.bestAsk, 1) };
  }

  /** Every resting order, bids then asks, best price first, FIFO within a level. */
  *orders(): Generator<Order> {
    for (let p = this.bestBid; p > NO_BID; p--) for (let o = this.bids[p]?.head ?? null; o; o = o.next) yield o;
    for (let p = this.bestAsk; p < NO_ASK; p++) for (let o = this.asks[p]?.head ?? null; o; o = o.next) yield o;
  }
}
