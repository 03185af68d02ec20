/**
 * The order book of one binary market, kept in YES terms: bids are YES buys and NO sells (at 10000 - p), asks are
 * YES sells and NO buys (at 10000 - p). Price levels are arrays indexed by bps; each level is an intrusive FIFO
 * doubly-linked list, so insert, cancel and the head fill are O(1) and nothing is ever sorted.
 * Every mutation records the previous values in the engine's transaction log (see ./undo.ts).
 *
 * The book knows of an order only what it links and reads (`Resting`), and of the log only the three records it writes
 * (`BookLog`), so the engine's records (./model.ts) and its log (./undo.ts) depend on the book, never the reverse.
 */
import type { BookDepth, BookLevel } from "./types";

/** What the book links and reads of a resting order (the engine's Order). */
export interface Resting<O> {
  /** 0 = bid, 1 = ask (YES terms). */
  readonly side: 0 | 1;
  /** Price in YES terms. */
  readonly y: number;
  readonly rem: bigint;
  prev: O | null;
  next: O | null;
}

/** One price level: a FIFO list of resting orders. */
export interface Level<O> {
  head: O | null;
  tail: O | null;
  ep: number;
}

/** The transaction log's records the book writes before it changes a level, an order or its best prices. */
export interface BookLog<O extends Resting<O>> {
  saveLevel(lv: Level<O>): void;
  saveOrder(o: O): void;
  saveBook(book: Book<O>): void;
}

export const NO_BID = 0;
export const NO_ASK = 10_000;

export class Book<O extends Resting<O>> {
  readonly bids: (Level<O> | undefined)[] = new Array(10_001);
  readonly asks: (Level<O> | undefined)[] = new Array(10_001);
  bestBid = NO_BID;
  bestAsk = NO_ASK;
  ep = 0;

  constructor(private readonly u: BookLog<O>) {}

  /** Appends a resting order at the back of its level. */
  insert(o: O): void {
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
  remove(o: O): void {
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
  depth(levels: number): BookDepth {
    const side = (arr: (Level<O> | undefined)[], start: number, step: number) => {
      const out: BookLevel[] = [];
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

  /**
   * Remaining sizes of the resting orders at one YES price of one side, in time priority (the order a taker fills them
   * in); empty for an empty level or a price outside 1..9999. One array of the level's length, nothing else.
   */
  levelSizes(side: "bids" | "asks", priceBps: number): bigint[] {
    const out: bigint[] = [];
    if (!(priceBps > NO_BID && priceBps < NO_ASK)) return out;
    for (let o = (side === "bids" ? this.bids : this.asks)[priceBps]?.head ?? null; o; o = o.next) out.push(o.rem);
    return out;
  }

  /** Every resting order, bids then asks, best price first, FIFO within a level. */
  *orders(): Generator<O> {
    for (let p = this.bestBid; p > NO_BID; p--) for (let o = this.bids[p]?.head ?? null; o; o = o.next) yield o;
    for (let p = this.bestAsk; p < NO_ASK; p++) for (let o = this.asks[p]?.head ?? null; o; o = o.next) yield o;
  }
}
