/**
 * GTD expiry: a min-heap of resting GTD orders by (expiresAt, order number), swept before every command so an order
 * whose `expiresAt <= at` leaves the book (report `expired`) before anything else happens at `at`.
 */
import { isResting, type Order } from "./model";
import { cancelResting } from "./resting";
import type { EngineState } from "./state";

/** Min-heap of GTD orders by (expiresAt, n). */
export class ExpiryHeap {
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
  /** Takes `o` out (the rare rollback path: the heap is rebuilt without it). */
  remove(o: Order): void {
    const a = this.a;
    if (a.indexOf(o) < 0) return;
    const rest = a.filter((x) => x !== o);
    a.length = 0;
    for (const x of rest) this.push(x);
  }
}

/** Adds a GTD order that now rests; a rollback takes it out again. */
export function scheduleExpiry(s: EngineState, o: Order): void {
  s.expiries.push(o);
  s.u.fn(() => s.expiries.remove(o));
}

/** Expires every resting GTD order due at `at` (oldest expiry first). */
export function sweepExpired(s: EngineState, at: number): void {
  const h = s.expiries;
  for (let top = h.peek(); top && top.expiresAt! <= at; top = h.peek()) {
    const o = h.pop()!;
    s.u.fn(() => h.push(o));
    if (!o.dead && isResting(o)) cancelResting(s, o, "expired", undefined, at);
  }
}

/**
 * The earliest `expiresAt` of a resting GTD order, or undefined. Drops heap entries of orders no longer resting
 * (filled or cancelled before expiry) on the way: they affect nothing, so dropping them between commands keeps
 * replay identical.
 */
export function nextExpiry(s: EngineState): number | undefined {
  const h = s.expiries;
  for (let top = h.peek(); top; top = h.peek()) {
    if (!top.dead && isResting(top)) return top.expiresAt;
    h.pop();
  }
  return undefined;
}
