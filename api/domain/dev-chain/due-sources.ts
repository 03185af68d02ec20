/**
 * The clock-driven transitions a time advance runs (time-advance.ts), each where it would run in real time:
 *   - GTD expiry: the exchange's `expireOrders` command for the resting orders due (it journals and reports `expired`);
 *   - the market lifecycle: the engine's `advanceLifecycle` command when `Engine.nextLifecycleDeadline()` is due
 *     (close, creator MIA, challenge end, vote deadline, council timeout; docs/lifecycle.md).
 */
import type { Exchange } from "../../../relayer/exchange/exchange";
import type { DueSource } from "./time-advance";

export function gtdExpirySource(exchange: () => Exchange): DueSource {
  return {
    name: "gtd-expiry",
    nextDue: () => exchange().engine.nextExpiry(),
    async run(at) {
      return (await exchange().expireDue()) ? [`GTD orders due by ${new Date(at).toISOString()} expired`] : [];
    },
  };
}

/**
 * The market lifecycle: one `advanceLifecycle` command when `Engine.nextLifecycleDeadline()` is due; a line per market
 * step it took (close, creator MIA, challenge end, vote end, council timeout; docs/lifecycle.md).
 */
export function lifecycleSource(exchange: () => Exchange): DueSource {
  return {
    name: "market-lifecycle",
    nextDue: () => exchange().engine.nextLifecycleDeadline(),
    async run(at) {
      const x = exchange();
      const due = x.engine.nextLifecycleDeadline();
      if (due === undefined || due > at) return [];
      const r = await x.submit({ type: "advanceLifecycle" });
      if (!r.ok) return [];
      return r.result.events.map((e) => `market ${e.marketId}: ${e.from ?? "(new)"} -> ${e.to} (${e.reason})`);
    },
  };
}
