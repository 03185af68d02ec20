/**
 * The heap behind GTD expiry (./expiry.ts): resting GTD orders by (expiresAt, order number), the earliest on top.
 * A data structure of the engine's state (./state.ts), apart from the sweep that reads it.
 */
import type { Order } from "./model";

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
