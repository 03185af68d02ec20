/**
 * Resting orders: each account's resting list (an intrusive doubly-linked list through the orders, newest first) and
 * taking an order off the book with its lock released (cancel, expiry, self-trade prevention, market close).
 */
import type { Acct, Order } from "./model";
import { report } from "./reports";
import type { EngineState } from "./state";
import type { CancelReason } from "./types";

// Hot path: imported functions are called through these locals (transpiled CommonJS imports are getter chains).
const reportOf = report;

/** Links a new resting order at the head of its account's resting list. */
export function openAdd(s: EngineState, a: Acct, o: Order): void {
  const head = a.openHead ?? null;
  o.aNext = head;
  if (head) head.aPrev = o;
  a.openHead = o;
  s.u.openAdded(o);
}

/** Unlinks an order from its account's resting list. */
export function openDelete(s: EngineState, o: Order): void {
  const prev = o.aPrev ?? null;
  const next = o.aNext ?? null;
  if (prev) prev.aNext = next;
  else o.acct.openHead = next;
  if (next) next.aPrev = prev;
  o.aPrev = o.aNext = null;
  s.u.openDeleted(o, prev, next);
}

/** Takes a resting order off the book, releases its lock and reports it. */
export function cancelResting(s: EngineState, o: Order, status: "cancelled" | "expired", reason: CancelReason | undefined, at: number): void {
  s.u.saveOrder(o);
  const b = o.acct.bals.get(o.resAsset)!;
  s.u.saveBal(b);
  b.r -= o.res;
  o.res = 0n;
  o.mkt.book.remove(o);
  o.status = status;
  o.updatedAt = at;
  openDelete(s, o);
  reportOf(s, o, status, at, reason);
}
