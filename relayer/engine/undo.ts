/**
 * The transaction log that makes every command atomic: mutations record the previous values (once per object per
 * command, keyed by the command epoch) and a rejection restores them backwards. Records are flat (values then a
 * tag) in one reused array, so the hot path allocates no closures; rare mutations (map inserts) push a closure.
 */
import type { Acct, Bal, Book, Level, Order } from "./book";

const FN = 0;
const ORDER = 1;
const BAL = 2;
const ACCT = 3;
const LEVEL = 4;
const BOOK = 5;

export class Undo {
  ep = 0;
  /** Flat records: fields..., tag. */
  readonly log: unknown[] = [];

  begin(): void {
    this.ep++;
    this.log.length = 0;
  }

  /** Forgets the records of a command that succeeded. */
  commit(): void {
    this.log.length = 0;
  }

  fn(restore: () => void): void {
    this.log.push(restore, FN);
  }

  rollback(): void {
    const l = this.log;
    while (l.length > 0) {
      const tag = l.pop() as number;
      switch (tag) {
        case FN:
          (l.pop() as () => void)();
          break;
        case ORDER: {
          const next = l.pop() as Order | null;
          const prev = l.pop() as Order | null;
          const res = l.pop() as bigint;
          const updatedAt = l.pop() as number;
          const status = l.pop() as Order["status"];
          const filled = l.pop() as bigint;
          const rem = l.pop() as bigint;
          const o = l.pop() as Order;
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
          const r = l.pop() as bigint;
          const v = l.pop() as bigint;
          const b = l.pop() as Bal;
          b.v = v;
          b.r = r;
          break;
        }
        case ACCT: {
          const paid = l.pop() as number;
          const freeUsed = l.pop() as number;
          const periodIdx = l.pop() as number;
          const seq = l.pop() as number;
          const opened = l.pop() as boolean;
          const signupAt = l.pop() as number;
          const a = l.pop() as Acct;
          a.signupAt = signupAt;
          a.opened = opened;
          a.seq = seq;
          a.periodIdx = periodIdx;
          a.freeUsed = freeUsed;
          a.paid = paid;
          break;
        }
        case LEVEL: {
          const tail = l.pop() as Order | null;
          const head = l.pop() as Order | null;
          const lv = l.pop() as Level;
          lv.head = head;
          lv.tail = tail;
          break;
        }
        case BOOK: {
          const bestAsk = l.pop() as number;
          const bestBid = l.pop() as number;
          const book = l.pop() as Book;
          book.bestBid = bestBid;
          book.bestAsk = bestAsk;
          break;
        }
        default:
          throw new Error(`undo log corrupt (tag ${String(tag)})`);
      }
    }
  }

  saveOrder(o: Order): void {
    if (o.ep === this.ep) return;
    o.ep = this.ep;
    this.log.push(o, o.rem, o.filled, o.status, o.updatedAt, o.res, o.prev, o.next, ORDER);
  }

  saveBal(b: Bal): void {
    if (b.ep === this.ep) return;
    b.ep = this.ep;
    this.log.push(b, b.v, b.r, BAL);
  }

  saveAcct(a: Acct): void {
    if (a.ep === this.ep) return;
    a.ep = this.ep;
    this.log.push(a, a.signupAt, a.opened, a.seq, a.periodIdx, a.freeUsed, a.paid, ACCT);
  }

  saveLevel(lv: Level): void {
    if (lv.ep === this.ep) return;
    lv.ep = this.ep;
    this.log.push(lv, lv.head, lv.tail, LEVEL);
  }

  saveBook(book: Book): void {
    if (book.ep === this.ep) return;
    book.ep = this.ep;
    this.log.push(book, book.bestBid, book.bestAsk, BOOK);
  }
}
