/**
 * The order book of one binary market, kept in YES terms: bids are YES buys and NO sells (at 10000 - p), asks are
 * YES sells and NO buys (at 10000 - p). Price levels are arrays indexed by bps; each level is an intrusive FIFO
 * doubly-linked list, so insert, cancel and the head fill are O(1) and nothing is ever sorted.
 * Every mutation records the previous values in the engine's transaction log (see ./undo.ts).
 *
 * The next best price after a level empties is found in a bitmap of the levels that may hold orders (one bit per
 * price, 313 words a side), not by reading up to 10,000 levels one by one: an order book that empties, as a quote
 * cycle's or a replayed journal's does, cost a walk to the far end of the range on every emptying removal before.
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
  /** The running command's epoch: a level whose `ep` equals it was changed by this command, so a rollback may refill it. */
  readonly ep: number;
  saveLevel(lv: Level<O>): void;
  saveOrder(o: O): void;
  saveBook(book: Book<O>): void;
}

export const NO_BID = 0;
export const NO_ASK = 10_000;
const WORDS = (NO_ASK >>> 5) + 1;

/** A bitmap word kept from bit `b` down to bit 0 (bids search downward). */
const atOrBelow = (word: number, b: number): number => (b === 31 ? word : word & ((1 << (b + 1)) - 1));
/** A bitmap word kept from bit `b` up to bit 31 (asks search upward). */
const atOrAbove = (word: number, b: number): number => word & ~((1 << b) - 1);

export class Book<O extends Resting<O>> {
  readonly bids: (Level<O> | undefined)[] = new Array(10_001);
  readonly asks: (Level<O> | undefined)[] = new Array(10_001);
  bestBid = NO_BID;
  bestAsk = NO_ASK;
  ep = 0;
  /**
   * Per side, a bit per price whose level may hold orders. Invariant: every non-empty level's bit is set. Insert sets
   * it; the search clears a bit only for a level that is empty and untouched by the running command, so no rollback
   * can refill a level whose bit is clear. A set bit over an empty level costs one look and is cleared then.
   */
  private readonly bidBits = new Uint32Array(WORDS);
  private readonly askBits = new Uint32Array(WORDS);

  constructor(private readonly u: BookLog<O>) {}

  /** Appends a resting order at the back of its level. */
  insert(o: O): void {
    const arr = o.side === 0 ? this.bids : this.asks;
    let lv = arr[o.y];
    if (lv === undefined) arr[o.y] = lv = { head: null, tail: null, ep: 0 };
    const bits = o.side === 0 ? this.bidBits : this.askBits;
    bits[o.y >>> 5] |= 1 << (o.y & 31);
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
        this.bestBid = this.bidAtOrBelow(o.y - 1);
      }
    } else if (o.y === this.bestAsk) {
      this.u.saveBook(this);
      this.bestAsk = this.askAtOrAbove(o.y + 1);
    }
  }

  /** The highest price ≤ `from` with a resting bid, or NO_BID. */
  private bidAtOrBelow(from: number): number {
    if (from <= NO_BID) return NO_BID;
    const bits = this.bidBits;
    let w = from >>> 5;
    let word = atOrBelow(bits[w], from & 31);
    for (;;) {
      while (word !== 0) {
        const b = 31 - Math.clz32(word);
        const p = (w << 5) | b;
        if (p <= NO_BID) return NO_BID;
        if (this.holds(this.bids, bits, p)) return p;
        word &= ~(1 << b);
      }
      if (w === 0) return NO_BID;
      word = bits[--w];
    }
  }

  /** The lowest price ≥ `from` with a resting ask, or NO_ASK. */
  private askAtOrAbove(from: number): number {
    if (from >= NO_ASK) return NO_ASK;
    const bits = this.askBits;
    let w = from >>> 5;
    let word = atOrAbove(bits[w], from & 31);
    for (;;) {
      while (word !== 0) {
        const b = 31 - Math.clz32(word & -word);
        const p = (w << 5) | b;
        if (p >= NO_ASK) return NO_ASK;
        if (this.holds(this.asks, bits, p)) return p;
        word &= ~(1 << b);
      }
      if (++w === WORDS) return NO_ASK;
      word = bits[w];
    }
  }

  /** Whether the level at `p` holds an order; clears its bit when it is empty and this command did not touch it. */
  private holds(arr: (Level<O> | undefined)[], bits: Uint32Array, p: number): boolean {
    const lv = arr[p];
    if (lv?.head) return true;
    if (lv === undefined || lv.ep !== this.u.ep) bits[p >>> 5] &= ~(1 << (p & 31));
    return false;
  }

  /** Aggregated levels in YES terms, best first. */
  depth(levels: number): BookDepth {
    const level = (o: O | null, priceBps: number): BookLevel => {
      let size = 0n;
      let n = 0;
      for (; o; o = o.next) {
        size += o.rem;
        n++;
      }
      return { priceBps, size, orders: n };
    };
    const bids: BookLevel[] = [];
    for (let p = this.bidAtOrBelow(this.bestBid); p > NO_BID && bids.length < levels; p = this.bidAtOrBelow(p - 1)) bids.push(level(this.bids[p]!.head, p));
    const asks: BookLevel[] = [];
    for (let p = this.askAtOrAbove(this.bestAsk); p < NO_ASK && asks.length < levels; p = this.askAtOrAbove(p + 1)) asks.push(level(this.asks[p]!.head, p));
    return { bids, asks };
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
    for (let p = this.bidAtOrBelow(this.bestBid); p > NO_BID; p = this.bidAtOrBelow(p - 1)) for (let o = this.bids[p]!.head; o; o = o.next) yield o;
    for (let p = this.askAtOrAbove(this.bestAsk); p < NO_ASK; p = this.askAtOrAbove(p + 1)) for (let o = this.asks[p]!.head; o; o = o.next) yield o;
  }
}
