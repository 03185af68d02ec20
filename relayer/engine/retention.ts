/**
 * Retention of finished orders (docs/engine.md#retention). An order that is filled, cancelled or expired is kept for
 * lookups and clientOrderId dedupe until its account has finished `keepFinished` orders after it; then the engine
 * forgets it (its slot and its clientOrderId). Without this the engine held every order it ever took: ~400 B an
 * order, for ever (docs/faults.md#soak).
 *
 * Deterministic over the journal: it runs after each accepted command, driven only by that command's execution
 * reports (every terminal transition reports the terminal status), so a rebuild from the journal forgets the same
 * orders at the same entries. The orders by number are a window array (recent numbers, parsed ids index it) plus a
 * map of the survivors below it (resting and still-kept orders), so neither grows with the orders forgotten.
 */
import type { Order } from "./model";
import type { EngineState } from "./state";

/** Order numbers moved from the window array to the map at a time (amortised: one pass per CHUNK orders placed). */
const CHUNK = 65_536;
/** A per-account queue drops its forgotten head when the head is at least this long and half the queue. */
const QUEUE_COMPACT = 1_024;

/** The order number of an order id `o-<n>` (n without leading zeros), or -1. */
export function orderNumber(id: string): number {
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

/** The order numbered n, held or not (n > 0 and below nextOrder). */
export function orderByNumber(s: EngineState, n: number): Order | undefined {
  return n >= s.base ? s.byN[n - s.base] : s.older.get(n);
}

/** After an accepted command: queue the orders it finished, forget what falls out of each account's window. */
export function retireFinished(s: EngineState): void {
  const reports = s.reports;
  const keep = s.keepFinished;
  for (let i = 0; i < s.nReports; i++) {
    const r = reports[i]!;
    const st = r.status;
    if (st !== "filled" && st !== "cancelled" && st !== "expired") continue;
    // LMSR trade reports carry a trade id (`t-<n>`): no order behind them (-1).
    const n = orderNumber(r.orderId);
    const o = n > 0 ? orderByNumber(s, n) : undefined;
    if (o === undefined || o.status !== st) continue;
    const a = o.acct;
    const q = a.done ?? (a.done = []);
    q.push(o);
    if (q.length - a.doneHead > keep) {
      forget(s, q[a.doneHead]!);
      q[a.doneHead++] = undefined;
      if (a.doneHead >= QUEUE_COMPACT && a.doneHead * 2 >= q.length) {
        q.splice(0, a.doneHead);
        a.doneHead = 0;
      }
    }
  }
  if (s.byN.length >= 2 * CHUNK) {
    const w = s.byN;
    for (let i = 0; i < CHUNK; i++) {
      const o = w[i];
      if (o !== undefined) s.older.set(o.n, o);
    }
    w.splice(0, CHUNK);
    s.base += CHUNK;
  }
}

function forget(s: EngineState, o: Order): void {
  if (o.n >= s.base) s.byN[o.n - s.base] = undefined;
  else s.older.delete(o.n);
  if (o.cid !== undefined && o.acct.cids.get(o.cid) === o) o.acct.cids.delete(o.cid);
}
