/**
 * The transaction log that makes every command atomic: mutations record the previous values (once per object per
 * command, keyed by the command epoch) and a rejection restores them backwards. Records are flat (values then a
 * tag) in one reused array written by index (never truncated, so its backing store is never reallocated), so the
 * hot path allocates no closures; rare mutations (map inserts) push a closure.
 */
import type { Book } from "./book";
import type { Acct, Bal, Level, Order } from "./model";

const FN = 0;
const ORDER = 1;
const BAL = 2;
const ACCT = 3;
const LEVEL = 4;
const BOOK = 5;
const OPEN_ADD = 6;
const OPEN_DELETE = 7;
const NEW_ORDER = 8;

export class Undo {
  ep = 0;
  /** Flat records: fields..., tag. Only log[0..n) is live; slots past n are stale and overwritten. */
  readonly log: unknown[] = [];
  n = 0;

  begin(): void {
    this.ep++;
    this.n = 0;
  }

  /** Forgets the records of a command that succeeded. */
  commit(): void {
    this.n = 0;
  }

  fn(restore: () => void): void {
    const l = this.log;
    l[this.n++] = restore;
    l[this.n++] = FN;
  }

  /** `o` was pushed at the head of its account's resting list: rollback unlinks it (it is the head again then). */
  openAdded(o: Order): void {
    const l = this.log;
    l[this.n++] = o;
    l[this.n++] = OPEN_ADD;
  }

  /** `o` was unlinked from between `prev` and `next`: rollback links it back there (they are adjacent again then). */
  openDeleted(o: Order, prev: Order | null, next: Order | null): void {
    const l = this.log;
    let n = this.n;
    l[n++] = o;
    l[n++] = prev;
    l[n++] = next;
    l[n++] = OPEN_DELETE;
    this.n = n;
  }

  /** A new order was indexed (and its clientOrderId registered): rollback marks it dead and frees the id. */
  newOrder(o: Order): void {
    const l = this.log;
    l[this.n++] = o;
    l[this.n++] = NEW_ORDER;
  }

  rollback(): void {
    const l = this.log;
    let i = this.n;
    while (i > 0) {
      const tag = l[--i] as number;
      switch (tag) {
        case FN:
          (l[--i] as () => void)();
          break;
        case ORDER: {
          const next = l[--i] as Order | null;
          const prev = l[--i] as Order | null;
          const res = l[--i] as bigint;
          const updatedAt = l[--i] as number;
          const status = l[--i] as Order["status"];
          const filled = l[--i] as bigint;
          const rem = l[--i] as bigint;
          const o = l[--i] as Order;
          o.rem = rem;
          o.filled = filled;
          o.status = status;
          o.updatedAt = updatedAt;
          o.res = res;
          o.prev = prev;
          o.next = next;
          break;
        }
        case BAL: {
          const r = l[--i] as bigint;
          const v = l[--i] as bigint;
          const b = l[--i] as Bal;
          b.v = v;
          b.r = r;
          break;
        }
        case ACCT: {
          const paid = l[--i] as number;
          const freeUsed = l[--i] as number;
          const periodIdx = l[--i] as number;
          const seq = l[--i] as number;
          const opened = l[--i] as boolean;
          const signupAt = l[--i] as number;
          const a = l[--i] as Acct;
          a.signupAt = signupAt;
          a.opened = opened;
          a.seq = seq;
          a.periodIdx = periodIdx;
          a.freeUsed = freeUsed;
          a.paid = paid;
          break;
        }
        case LEVEL: {
          const tail = l[--i] as Order | null;
          const head = l[--i] as Order | null;
          const lv = l[--i] as Level;
          lv.head = head;
          lv.tail = tail;
          break;
        }
        case BOOK: {
          const bestAsk = l[--i] as number;
          const bestBid = l[--i] as number;
          const book = l[--i] as Book<Order>;
          book.bestBid = bestBid;
          book.bestAsk = bestAsk;
          break;
        }
        case OPEN_ADD: {
          const o = l[--i] as Order;
          const next = o.aNext!;
          o.acct.openHead = next;
          if (next) next.aPrev = null;
          o.aNext = null;
          break;
        }
        case OPEN_DELETE: {
          const next = l[--i] as Order | null;
          const prev = l[--i] as Order | null;
          const o = l[--i] as Order;
          o.aPrev = prev;
          o.aNext = next;
          if (prev) prev.aNext = o;
          else o.acct.openHead = o;
          if (next) next.aPrev = o;
          break;
        }
        case NEW_ORDER: {
          const o = l[--i] as Order;
          if (o.cid !== undefined) o.acct.cids.delete(o.cid);
          o.dead = true;
          break;
        }
        default:
          throw new Error(`undo log corrupt (tag ${String(tag)})`);
      }
    }
    this.n = 0;
  }

  saveOrder(o: Order): void {
    if (o.ep === this.ep) return;
    o.ep = this.ep;
    const l = this.log;
    let n = this.n;
    l[n++] = o;
    l[n++] = o.rem;
    l[n++] = o.filled;
    l[n++] = o.status;
    l[n++] = o.updatedAt;
    l[n++] = o.res;
    l[n++] = o.prev;
    l[n++] = o.next;
    l[n++] = ORDER;
    this.n = n;
  }

  saveBal(b: Bal): void {
    if (b.ep === this.ep) return;
    b.ep = this.ep;
    const l = this.log;
    let n = this.n;
    l[n++] = b;
    l[n++] = b.v;
    l[n++] = b.r;
    l[n++] = BAL;
    this.n = n;
  }

  saveAcct(a: Acct): void {
    if (a.ep === this.ep) return;
    a.ep = this.ep;
    const l = this.log;
    let n = this.n;
    l[n++] = a;
    l[n++] = a.signupAt;
    l[n++] = a.opened;
    l[n++] = a.seq;
    l[n++] = a.periodIdx;
    l[n++] = a.freeUsed;
    l[n++] = a.paid;
    l[n++] = ACCT;
    this.n = n;
  }

  saveLevel(lv: Level): void {
    if (lv.ep === this.ep) return;
    lv.ep = this.ep;
    const l = this.log;
    let n = this.n;
    l[n++] = lv;
    l[n++] = lv.head;
    l[n++] = lv.tail;
    l[n++] = LEVEL;
    this.n = n;
  }

  saveBook(book: Book<Order>): void {
    if (book.ep === this.ep) return;
    book.ep = this.ep;
    const l = this.log;
    let n = this.n;
    l[n++] = book;
    l[n++] = book.bestBid;
    l[n++] = book.bestAsk;
    l[n++] = BOOK;
    this.n = n;
  }
}
