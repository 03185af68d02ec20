/**
 * GTD expiry: the state's heap of resting GTD orders (./expiry-heap.ts), swept before every command so an order
 * whose `expiresAt <= at` leaves the book (report `expired`) before anything else happens at `at`.
 */
import { isResting, type Order } from "./model";
import { cancelResting } from "./resting";
import type { EngineState } from "./state";

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
